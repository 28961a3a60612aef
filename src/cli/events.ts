/**
 * `--events`: stdout as NDJSON with the event names of the vendor's
 * `langgraph deploy --json`: the core's events, heartbeats while a wait sees
 * no change (each agent's own), and the `result` line, always last, written
 * once however the run ends. The command's own text is redacted here (the
 * core's comes redacted); `lineSafeJson`, so no line reader cuts one in two.
 */
import { lineSafeJson } from '../common/characters.js';
import type { RunEvent } from '../run/ports/events.js';
import { shortenedMs } from '../run/ports/pace.js';

/** Every 10 s, as docs/command.md says (not the log's 30 s). */
export const HEARTBEAT_MS = 10_000;

/** Shorter for tests: `DEPLOY_AGENT_HEARTBEAT_MS`. */
export function heartbeatMsFrom(env: Readonly<Record<string, string | undefined>>): number {
  return shortenedMs(env.DEPLOY_AGENT_HEARTBEAT_MS, HEARTBEAT_MS);
}

interface EventStreamOptions {
  write: (text: string) => void;
  redact: (text: string) => string;
  heartbeatMs: number;
  /** Milliseconds since the epoch, for `time`. */
  wallTime?: () => number;
}

export interface RunEnding {
  exitCode: number;
  /** The object `--json` would print. */
  outputs: Record<string, unknown>;
  error?: string;
}

interface Wait {
  since: number;
  waitingFor: string;
  timer?: ReturnType<typeof setTimeout>;
}

const ONE = '';

export class EventStream {
  readonly #options: EventStreamOptions;
  readonly #wallTime: () => number;
  readonly #waits = new Map<string, Wait>();
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

  /** The next heartbeat, `heartbeatMs` after the wait's last line. */
  #arm(agent: string | undefined): void {
    const wait = this.#waits.get(agent ?? ONE);
    if (wait === undefined) return;
    if (wait.timer !== undefined) clearTimeout(wait.timer);
    wait.timer = setTimeout(() => {
      this.#line('heartbeat', {
        ...(agent === undefined ? {} : { agent }),
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

  readonly sink = (event: RunEvent): void => {
    const { agent } = event;
    const tagged = agent === undefined ? {} : { agent };
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
      case 'skipped':
        this.#line('skipped', { ...tagged, reason: event.reason });
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

  /** Whether its one wait timed out, or every agent that failed did. */
  #ranOutOfTime(outputs: Record<string, unknown>): boolean {
    const { deployments } = outputs;
    if (typeof deployments !== 'object' || deployments === null) return this.#timedOut.has(ONE);
    const failed = Object.entries(deployments as Record<string, { error?: unknown }>)
      .filter(([, each]) => each.error !== undefined)
      .map(([key]) => key);
    return failed.length > 0 && failed.every((key) => this.#timedOut.has(key));
  }

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
