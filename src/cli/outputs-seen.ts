/**
 * The outputs a run has set so far, from its `outputs` events, and what
 * `--json`, the stream's `result` and `--dotenv` make of them. A deploy of
 * one agent merges every `outputs` event into one set. A deploy of several
 * keeps each agent's own outputs apart (its events carry its key) and the
 * manifest's (`deployments`, keyed by agent, with each failed agent's
 * `error`, and `live`; for a plan, `plans`, `action` and `changes`) apart
 * again: an agent's `status` is never the run's.
 */
import type { EventView } from '../run/ports/events.js';
import type { DeploymentEntry } from '../run/ports/findings.js';
import { agentsPlanDotenv, agentsPlanJson } from './agents-plan-outputs.js';
import {
  agentsDotenv,
  agentsJson,
  type AgentOutputs,
  type ManifestOutputs,
} from './agents-outputs.js';
import type { DotenvLeftOut } from './dotenv.js';
import { outputsDotenv, outputsJson, type OutputTexts } from './outputs.js';

export class OutputsSeen {
  /** The run's own outputs: a single deploy's, or the manifest's. */
  #outputs: OutputTexts = {};
  /** A manifest's deployments, each agent's entry by key, as its last outputs event gave them. */
  #entries: ReadonlyMap<string, DeploymentEntry> = new Map();
  /** Each agent's own outputs, by key, in the order the agents first set them. */
  readonly #agents = new Map<string, OutputTexts>();
  /** The run is of several agents: its outputs are the manifest's deployments, or its plans. */
  #manifest: 'deployments' | 'plans' | undefined;

  /** The view that keeps the outputs as the run sets them. */
  readonly view: EventView = (event) => {
    if (event.kind !== 'outputs') return;
    const { agent } = event;
    if (agent === undefined) {
      this.#outputs = { ...this.#outputs, ...event.outputs };
      this.#entries = event.entries ?? this.#entries;
      return;
    }
    this.#manifest ??= 'deployments';
    this.#agents.set(agent, { ...this.#agents.get(agent), ...event.outputs });
  };

  /**
   * The run is of several agents: its outputs are the manifest's, even
   * before any is set; a plan's are its `plans`.
   */
  expectAgents(kind: 'deployments' | 'plans' = 'deployments'): void {
    this.#manifest = kind;
  }

  /**
   * Every agent: those of the manifest's `deployments` in its order (its
   * entry and failure from there), then any other whose run set outputs.
   */
  #manifestOutputs(): ManifestOutputs {
    const keys = [...new Set([...this.#entries.keys(), ...this.#agents.keys()])];
    const agents = keys.map((key): AgentOutputs => {
      const entry = this.#entries.get(key);
      return {
        key,
        ...(entry === undefined ? {} : { entry }),
        outputs: this.#agents.get(key) ?? {},
        ...(entry?.error === undefined ? {} : { error: entry.error }),
      };
    });
    const { live, healthy } = this.#outputs;
    return {
      agents,
      live: live === 'true',
      healthy: healthy === undefined || healthy === '' ? null : healthy === 'true',
    };
  }

  /** The object `--json` prints, and the stream's `result` holds; `error` when the run failed. */
  json(error?: string): Record<string, unknown> {
    switch (this.#manifest) {
      case 'plans':
        return agentsPlanJson(this.#outputs, error);
      case 'deployments':
        return agentsJson(this.#manifestOutputs(), error);
      case undefined:
        return outputsJson(this.#outputs, error);
    }
  }

  /** The dotenv report, at most `maxKeys` variables, and each variable left out with why. */
  dotenv(maxKeys: number): { text: string; skipped: DotenvLeftOut[] } {
    switch (this.#manifest) {
      case 'plans':
        return agentsPlanDotenv(this.#outputs, maxKeys);
      case 'deployments':
        return agentsDotenv(this.#manifestOutputs(), maxKeys);
      case undefined:
        return outputsDotenv(this.#outputs, maxKeys);
    }
  }
}
