/**
 * What a run has made known so far, from its events' values, and what
 * `--json`, the stream's `result` and `--dotenv` make of it: a run of one
 * keeps its row (flat); a manifest each agent's row and entry by key
 * (keyed: an agent's `status` is never the run's); a plan of several agents
 * each agent's plan.
 */
import { manifestLiveness } from '../run/decisions/report.js';
import type { EventView } from '../run/ports/events.js';
import type { DeploymentEntry } from '../run/ports/findings.js';
import type { AgentPlanPart } from '../run/ports/summaries.js';
import type { DotenvLeftOut } from './dotenv.js';
import {
  deploymentRow,
  keyedDotenv,
  keyedJson,
  outputsDotenv,
  outputsJson,
  planRow,
  plansDotenv,
  plansJson,
  type ManifestRows,
  type Row,
} from './outputs.js';

export class OutputsSeen {
  /** Flat: the run is of one deployment; keyed: of a manifest's agents. */
  #layout: 'flat' | 'keyed' = 'flat';
  /** A run of one: its deployment's row, or its plan's. */
  #row: Row = {};
  /** A manifest's deployments, each agent's entry by key, as its last outputs event gave them. */
  #entries: ReadonlyMap<string, DeploymentEntry> = new Map();
  /** Each agent's row, by key, in the order the agents first set outputs. */
  readonly #agents = new Map<string, Row>();
  /** The plan of several agents: each agent's plan, once every one is made. */
  #plans: readonly AgentPlanPart[] | undefined;

  /** The view that keeps the values as the run makes them known. */
  readonly view: EventView = (event) => {
    const { agent } = event;
    if (event.kind === 'planned' && agent === undefined && 'verdict' in event.report) {
      this.#row = planRow(event.report);
    }
    if (event.kind !== 'outputs') return;
    if (event.plans !== undefined) this.#plans = event.plans;
    if (event.entries !== undefined) this.#entries = event.entries;
    if (agent !== undefined) this.#layout = 'keyed';
    if (event.deployment === undefined) return;
    const row = deploymentRow(event.deployment);
    if (agent === undefined) this.#row = row;
    else this.#agents.set(agent, row);
  };

  /** The run is of several agents: its outputs are the manifest's, even before any is set. */
  expectAgents(): void {
    this.#layout = 'keyed';
  }

  /**
   * Every agent: those of the manifest's entries in its order (its entry and
   * failure from there), then any other whose run set outputs; live when
   * every agent is, healthy when every agent checked answered (null: none was).
   */
  #manifest(): ManifestRows {
    const keys = [...new Set([...this.#entries.keys(), ...this.#agents.keys()])];
    const agents = keys.map((key) => {
      const entry = this.#entries.get(key);
      return { key, entry, row: this.#agents.get(key) ?? {}, error: entry?.error };
    });
    return { agents, ...manifestLiveness(this.#entries.values()) };
  }

  /** The object `--json` prints, and the stream's `result` holds; `error` when the run failed. */
  json(error?: string): Record<string, unknown> {
    if (this.#plans !== undefined) return plansJson(this.#plans, error);
    return this.#layout === 'keyed'
      ? keyedJson(this.#manifest(), error)
      : outputsJson(this.#row, error);
  }

  /** The dotenv report, at most `maxKeys` variables, and each variable left out with why. */
  dotenv(maxKeys: number): { text: string; skipped: DotenvLeftOut[] } {
    if (this.#plans !== undefined) return plansDotenv(this.#plans, maxKeys);
    return this.#layout === 'keyed'
      ? keyedDotenv(this.#manifest(), maxKeys)
      : outputsDotenv(this.#row, maxKeys);
  }
}
