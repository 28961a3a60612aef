/**
 * `--events`: stdout as a stream for tools, one JSON object a line (NDJSON),
 * with the event names of the vendor's `langgraph deploy --json` stream. A
 * view of the core's events and of the command's own warnings; it adds the
 * heartbeats, on its own timer while a wait sees no change (10 s, not the
 * log's 30 s), and the `result` line, always the last, written once, however
 * the run ends. An agent's lines carry `agent` (its key), each agent's wait
 * has heartbeats of its own. The core's events and the outputs come
 * redacted; the command's own text (a warning, the error) is redacted here.
 * Each line is `lineSafeJson`: no reader of lines cuts it in two.
 */
import { lineSafeJson } from '../common/json-text.js';
import type { RunEvent } from '../run/ports/events.js';
import { shortenedMs } from '../run/ports/pace.js';

/** While a wait sees no change, a `heartbeat` at least this often (every 10 s, as docs/command.md says). */
export const HEARTBEAT_MS = 10_000;

/** The heartbeat's interval: `HEARTBEAT_MS`, or shorter for tests (`DEPLOY_AGENT_HEARTBEAT_MS`). */
export function heartbeatMsFrom(env: Readonly<Record<string, string | undefined>>): number {
  return shortenedMs(env.DEPLOY_AGENT_HEARTBEAT_MS, HEARTBEAT_MS);
}

export interface EventStreamOptions {
  /** Writes one line (stdout). */
  write: (text: string) => void;
  redact: (text: string) => string;
  heartbeatMs: number;
  /** Milliseconds since the epoch, for `time`. */
  wallTime?: () => number;
}

/** How the run ended, for the `result` line. */
export interface RunEnding {
  exitCode: number;
  /** The object `--json` would print (the outputs, and `error` when it failed). */
  outputs: Record<string, unknown>;
  /** Why it failed; redacted here. */
  error?: string;
}

/** A wait in progress: since when, what it waits for, the next heartbeat's timer. */
interface Wait {
  since: number;
  waitingFor: string;
  timer?: ReturnType<typeof setTimeout>;
}

/** Where a wait is kept: an agent's key, or '' for a run of one deployment. */
const ONE = '';

/** The field that names an event's agent, when it has one. */
function agentField(agent: string | undefined): { agent?: string } {
  return agent === undefined ? {} : { agent };
}

export class EventStream {
  readonly #options: EventStreamOptions;
  readonly #wallTime: () => number;
  /** Each wait in progress, by agent: several agents wait at once, each with its heartbeat. */
  readonly #waits = new Map<string, Wait>();
  /** The agents whose wait ran out of time ('' for a run of one deployment). */
  readonly #timedOut = new Set<string>();
  #ended = false;

  constructor(options: EventStreamOptions) {
    this.#options = options;
    this.#wallTime = options.wallTime ?? (() => Date.now());
  }

  #line(event: string, fields: Record<string, unknown>): void {
    if (this.#ended) return;
    const time = new Date(this.#wallTime()).toISOString();
    this.#options.write(`${lineSafeJson({ event, time, ...fields })}\n`);
  }

  /** The next heartbeat of `agent`'s wait, `heartbeatMs` after the last line of that wait. */
  #arm(agent: string | undefined): void {
    const wait = this.#waits.get(agent ?? ONE);
    if (wait === undefined) return;
    if (wait.timer !== undefined) clearTimeout(wait.timer);
    wait.timer = setTimeout(() => {
      this.#line('heartbeat', {
        ...agentField(agent),
        elapsed_s: Math.round((performance.now() - wait.since) / 100) / 10,
        waiting_for: this.#options.redact(wait.waitingFor),
      });
      this.#arm(agent);
    }, this.#options.heartbeatMs);
    // The timer must not keep the process alive once the run is over.
    wait.timer.unref?.();
  }

  #endWait(agent: string | undefined): void {
    const wait = this.#waits.get(agent ?? ONE);
    if (wait?.timer !== undefined) clearTimeout(wait.timer);
    this.#waits.delete(agent ?? ONE);
  }

  /** The view of the core's events (redacted where they were made); an agent's lines carry its key. */
  readonly sink = (event: RunEvent): void => {
    const { agent } = event;
    const tagged = agentField(agent);
    switch (event.kind) {
      case 'log':
        if (event.level === 'warning') this.#line('warn', { ...tagged, message: event.message });
        return;
      case 'phase':
        this.#endWait(agent);
        this.#line('step', { ...tagged, step: event.phase, message: event.message });
        if (event.phase === 'wait') {
          this.#waits.set(agent ?? ONE, { since: performance.now(), waitingFor: '' });
          this.#arm(agent);
        }
        return;
      case 'status_change': {
        this.#line('status_change', {
          ...tagged,
          status: event.status,
          latest_revision_id: event.latestRevisionId,
          active_revision_id: event.activeRevisionId,
          waiting_for: event.waitingFor,
        });
        // What the wait now waits for, and its heartbeat from now.
        const wait = this.#waits.get(agent ?? ONE);
        if (wait !== undefined) wait.waitingFor = event.waitingFor;
        this.#arm(agent);
        return;
      }
      case 'health':
        this.#line('health', {
          ...tagged,
          url: event.url,
          http_status: event.httpStatus,
          ok: event.ok,
          ...(event.error === undefined ? {} : { error: event.error }),
        });
        return;
      case 'wait_over':
        if (event.outcome === 'timed_out') this.#timedOut.add(agent ?? ONE);
        else this.#timedOut.delete(agent ?? ONE);
        this.#endWait(agent);
        return;
      default:
        return;
    }
  };

  /**
   * Whether a failed run timed out: its one wait did, or, for several
   * agents, each agent that failed (its `error` in the outputs) ran out of
   * time waiting.
   */
  #ranOutOfTime(outputs: Record<string, unknown>): boolean {
    const { deployments } = outputs;
    if (typeof deployments !== 'object' || deployments === null) return this.#timedOut.has(ONE);
    const failed = Object.entries(deployments as Record<string, { error?: unknown }>)
      .filter(([, each]) => each.error !== undefined)
      .map(([key]) => key);
    return failed.length > 0 && failed.every((key) => this.#timedOut.has(key));
  }

  /** A warning of the command's own. */
  warn(message: string): void {
    this.#line('warn', { message: this.#options.redact(message) });
  }

  /** The last line; later events and a second result are not written. */
  result({ exitCode, outputs, error }: RunEnding): void {
    for (const agent of [...this.#waits.keys()]) this.#endWait(agent);
    const status =
      exitCode === 0
        ? 'succeeded'
        : exitCode === 1 && this.#ranOutOfTime(outputs)
          ? 'timed_out'
          : 'failed';
    const fields: Record<string, unknown> = { status, exit_code: exitCode };
    for (const [field, output] of [
      ['deployment_id', 'deployment-id'],
      ['url', 'url'],
      ['dashboard_url', 'dashboard-url'],
    ] as const) {
      const value = outputs[output];
      if (typeof value === 'string' && value !== '') fields[field] = value;
    }
    fields.outputs = outputs;
    if (error !== undefined) fields.error = this.#options.redact(error);
    this.#line('result', fields);
    this.#ended = true;
  }
}
