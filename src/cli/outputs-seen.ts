/**
 * The outputs a run has set so far, from its `outputs` events, and what
 * `--json`, the stream's `result` and `--dotenv` make of them. A deploy of
 * one agent merges every `outputs` event into one set. A deploy of several
 * keeps each agent's own outputs apart (its events carry its key) and the
 * manifest's (`deployments`, keyed by agent, with each failed agent's
 * `error`, and `live`) apart again: an agent's `status` is never the run's.
 * A plan of several agents carries each agent's plan on its outputs: its
 * `--json` and `--dotenv` are made from them.
 */
import type { EventView } from '../run/ports/events.js';
import type { DeploymentEntry } from '../run/ports/findings.js';
import {
  agentsDotenv,
  agentsJson,
  type AgentOutputs,
  type ManifestOutputs,
} from './agents-outputs.js';
import type { DotenvLeftOut } from './dotenv.js';
import { outputsDotenv, outputsJson, type OutputTexts } from './outputs.js';
import { plansDotenv, plansJson } from './plan-outputs.js';
import type { AgentPlanPart } from '../run/ports/summaries.js';

export class OutputsSeen {
  /** The run's own outputs: a single deploy's, or the manifest's. */
  #outputs: OutputTexts = {};
  /** A manifest's deployments, each agent's entry by key, as its last outputs event gave them. */
  #entries: ReadonlyMap<string, DeploymentEntry> = new Map();
  /** Each agent's own outputs, by key, in the order the agents first set them. */
  readonly #agents = new Map<string, OutputTexts>();
  /** The run is of several agents: its outputs are the manifest's deployments. */
  #manifest: 'deployments' | undefined;
  /** The plan of several agents: each agent's plan, once every one is made. */
  #plans: readonly AgentPlanPart[] | undefined;

  /** The view that keeps the outputs as the run sets them. */
  readonly view: EventView = (event) => {
    if (event.kind !== 'outputs') return;
    const { agent } = event;
    if (event.plans !== undefined) this.#plans = event.plans;
    if (agent === undefined) {
      this.#outputs = { ...this.#outputs, ...event.outputs };
      this.#entries = event.entries ?? this.#entries;
      return;
    }
    this.#manifest ??= 'deployments';
    this.#agents.set(agent, { ...this.#agents.get(agent), ...event.outputs });
  };

  /** The run is of several agents: its outputs are the manifest's, even before any is set. */
  expectAgents(): void {
    this.#manifest = 'deployments';
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
    if (this.#plans !== undefined) return plansJson(this.#outputs, this.#plans, error);
    switch (this.#manifest) {
      case 'deployments':
        return agentsJson(this.#manifestOutputs(), error);
      case undefined:
        return outputsJson(this.#outputs, error);
    }
  }

  /** The dotenv report, at most `maxKeys` variables, and each variable left out with why. */
  dotenv(maxKeys: number): { text: string; skipped: DotenvLeftOut[] } {
    if (this.#plans !== undefined) return plansDotenv(this.#outputs, this.#plans, maxKeys);
    switch (this.#manifest) {
      case 'deployments':
        return agentsDotenv(this.#manifestOutputs(), maxKeys);
      case undefined:
        return outputsDotenv(this.#outputs, maxKeys);
    }
  }
}
