/**
 * `--events`: stdout as a stream for tools, one JSON object a line (NDJSON),
 * with the event names of the vendor's `langgraph deploy --json` stream. A
 * view of the core's events (src/run/ports/events.ts: its phases, status
 * changes and warnings) and of the command's own warnings; it adds the
 * heartbeats, on its own timer while a wait sees no change (docs/command.md's
 * 10 s, not the log's 30 s), and the `result` line, always the last, written
 * once, however the run ends. The core's events come redacted; the
 * command's own text (a warning, the error) is redacted here, where the line
 * is made; the outputs are redacted by structure already. Each line is
 * `lineSafeJson`: no reader of lines cuts it in two.
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

/** A known, non-empty text output of `--json`'s object. */
function known(outputs: Record<string, unknown>, name: string): string | undefined {
  const value = outputs[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export class EventStream {
  readonly #options: EventStreamOptions;
  readonly #wallTime: () => number;
  /** The wait in progress: since when, what it waits for, the next heartbeat's timer. */
  #wait: { since: number; waitingFor: string; timer?: ReturnType<typeof setTimeout> } | undefined;
  #timedOut = false;
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

  /** The next heartbeat, `heartbeatMs` after the last line of the wait. */
  #arm(): void {
    const wait = this.#wait;
    if (wait === undefined) return;
    if (wait.timer !== undefined) clearTimeout(wait.timer);
    wait.timer = setTimeout(() => {
      this.#line('heartbeat', {
        elapsed_s: Math.round((performance.now() - wait.since) / 100) / 10,
        waiting_for: this.#options.redact(wait.waitingFor),
      });
      this.#arm();
    }, this.#options.heartbeatMs);
    // The timer must not keep the process alive once the run is over.
    wait.timer.unref?.();
  }

  #endWait(): void {
    if (this.#wait?.timer !== undefined) clearTimeout(this.#wait.timer);
    this.#wait = undefined;
  }

  /** The view of the core's events (redacted where they were made). */
  readonly sink = (event: RunEvent): void => {
    switch (event.kind) {
      case 'log':
        if (event.level === 'warning') this.#line('warn', { message: event.message });
        return;
      case 'phase':
        this.#endWait();
        this.#line('step', { step: event.phase, message: event.message });
        if (event.phase === 'wait') {
          this.#wait = { since: performance.now(), waitingFor: '' };
          this.#arm();
        }
        return;
      case 'status_change':
        this.#line('status_change', {
          status: event.status,
          latest_revision_id: event.latestRevisionId,
          active_revision_id: event.activeRevisionId,
          waiting_for: event.waitingFor,
        });
        if (this.#wait !== undefined) {
          this.#wait.waitingFor = event.waitingFor;
          this.#arm();
        }
        return;
      case 'wait_over':
        this.#timedOut = event.outcome === 'timed_out';
        this.#endWait();
        return;
      default:
        return;
    }
  };

  /** A warning of the command's own. */
  warn(message: string): void {
    this.#line('warn', { message: this.#options.redact(message) });
  }

  /** The last line; later events and a second result are not written. */
  result({ exitCode, outputs, error }: RunEnding): void {
    this.#endWait();
    const status =
      exitCode === 0 ? 'succeeded' : this.#timedOut && exitCode === 1 ? 'timed_out' : 'failed';
    const fields: Record<string, unknown> = { status, exit_code: exitCode };
    for (const [field, output] of [
      ['deployment_id', 'deployment-id'],
      ['url', 'url'],
      ['dashboard_url', 'dashboard-url'],
    ] as const) {
      const value = known(outputs, output);
      if (value !== undefined) fields[field] = value;
    }
    fields.outputs = outputs;
    if (error !== undefined) fields.error = this.#options.redact(error);
    this.#line('result', fields);
    this.#ended = true;
  }
}
