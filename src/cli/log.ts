/**
 * The log on stderr, for a person: a view of the core's events (`view`) and
 * the command's own lines. In CI (no terminal) one line per event, and while
 * waiting one per change and one at least every 30 s while nothing changes,
 * never one per check; on a terminal, a live line with the status and the
 * elapsed time replaces the waiting lines. Colour only on a terminal, never
 * with NO_COLOR. Every line is redacted before it is written: the core's
 * events are already, the command's own lines are not.
 */

import { neutraliseCommands } from '../common/runtime.js';
import type { EventSink } from '../run/ports/events.js';
import { cutToWidth, screenWidth } from './screen-width.js';

export interface LogStream {
  write(text: string): unknown;
  isTTY?: boolean;
  /** A terminal's width, in screen columns (read again at each redraw: it changes on a resize). */
  columns?: number;
  /** A terminal's 'resize' event: the live line is redrawn to the new width. */
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

export interface LogOptions {
  /** A terminal: the live status line, and colour unless `colour` is false. */
  terminal: boolean;
  colour: boolean;
  /** Debug lines are written too. */
  debug: boolean;
  redact: (text: string) => string;
  /** Milliseconds on a monotonic clock, for the live line's elapsed time. */
  now?: () => number;
}

const STYLES = { bold: '1', dim: '2', red: '31', yellow: '33', cyan: '36' } as const;
type Style = keyof typeof STYLES;

/** The live line's waiting text is cut no narrower than this; below it the whole line is cut, plain. */
const LIVE_WHAT_MIN = 8;

/** `DEPLOY_DEBUG` values that turn debug lines on. */
const DEBUG_ON = new Set(['true', 'True', 'TRUE', '1']);

/**
 * The command's log on `stderr`: the live line and colour on a terminal
 * (never with NO_COLOR), debug lines with `DEPLOY_DEBUG`, every line through
 * `redact`.
 */
export function commandLog(
  stderr: LogStream,
  env: Readonly<Record<string, string | undefined>>,
  redact: (text: string) => string,
): StderrLog {
  const terminal = stderr.isTTY === true;
  return new StderrLog(stderr, {
    terminal,
    colour: wantsColour(terminal, env),
    debug: DEBUG_ON.has(env.DEPLOY_DEBUG ?? ''),
    redact,
  });
}

/** Whether colour is wanted: a terminal, and NO_COLOR unset or empty (no-color.org). */
export function wantsColour(
  terminal: boolean,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return terminal && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(Math.floor(seconds % 60)).padStart(2, '0')} s`;
}

export class StderrLog {
  readonly #stream: LogStream;
  readonly #options: LogOptions;
  readonly #now: () => number;
  #live: { what: string; since: number; timer?: ReturnType<typeof setInterval> } | undefined;
  #liveShown = false;
  readonly #onResize = (): void => this.#drawLive();

  constructor(stream: LogStream, options: LogOptions) {
    this.#stream = stream;
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  #style(style: Style, text: string): string {
    return this.#options.colour ? `\u001b[${STYLES[style]}m${text}\u001b[0m` : text;
  }

  #clean(message: string): string {
    // The command may run on a GitHub runner too: no line of it may start a runner command.
    return neutraliseCommands(this.#options.redact(message));
  }

  #clearLive(): void {
    if (this.#liveShown) {
      this.#stream.write('\r\u001b[2K');
      this.#liveShown = false;
    }
  }

  #drawLive(): void {
    const live = this.#live;
    if (live === undefined) return;
    const elapsed = `(${formatSeconds((this.#now() - live.since) / 1000)})`;
    this.#stream.write(`\r\u001b[2K${this.#liveText(live.what, elapsed)}`);
    this.#liveShown = true;
  }

  /**
   * The live line, one row: cut to the terminal's width as it is now, in
   * screen columns. A line wider than the terminal wraps, and the redraw
   * (which clears one row) would leave a copy of its first rows each time.
   * It stops one column short of the edge, where some terminals move the
   * cursor to the next row. The waiting text is cut first, so the elapsed
   * time stays in view.
   */
  #liveText(what: string, elapsed: string): string {
    const columns = this.#stream.columns;
    const room = columns !== undefined && columns > 0 ? columns - 1 : Number.POSITIVE_INFINITY;
    const lead = '… waiting until live: ';
    const left = room - screenWidth(`${lead} ${elapsed}`);
    if (left < LIVE_WHAT_MIN) return cutToWidth(`${lead}${what} ${elapsed}`, room);
    return `${this.#style('cyan', '…')} waiting until live: ${cutToWidth(what, left)} ${this.#style('dim', elapsed)}`;
  }

  #line(text: string): void {
    this.#clearLive();
    this.#stream.write(`${text}\n`);
    if (this.#live !== undefined) this.#drawLive();
  }

  info(message: string): void {
    // The wait is over (or never began): the live line gives way for good.
    this.#endLive(false);
    this.#line(this.#clean(message));
  }

  /**
   * The wait's state (the core's `waiting` event, at each change and at
   * least every 30 s while nothing changes): a line in CI, the live line on
   * a terminal. `note` says why the next check comes later than usual, or
   * that the service has not answered the one in flight.
   */
  waiting(waitingFor: string, soFarMs: number, note?: string): void {
    const what = this.#clean(note === undefined ? waitingFor : `${waitingFor}; ${note}`);
    if (this.#options.terminal) {
      if (this.#live === undefined) {
        this.#live = { what, since: this.#now() - soFarMs };
        this.#stream.on?.('resize', this.#onResize);
      }
      this.#live.what = what;
      this.#live.timer ??= setInterval(() => this.#drawLive(), 1000);
      // The timer must not keep the process alive once the run is over.
      this.#live.timer.unref?.();
      this.#drawLive();
      return;
    }
    this.#line(`waiting until live: ${what} (${formatSeconds(soFarMs / 1000)} so far)`);
  }

  notice(message: string): void {
    this.#line(`${this.#style('bold', 'notice:')} ${this.#clean(message)}`);
  }

  warning(message: string): void {
    this.#line(`${this.#style('yellow', 'warning:')} ${this.#clean(message)}`);
  }

  error(message: string): void {
    this.#line(`${this.#style('red', 'error:')} ${this.#clean(message)}`);
  }

  debug(message: string): void {
    if (this.#options.debug) this.#line(this.#style('dim', `debug: ${this.#clean(message)}`));
  }

  /** A phase's heading, where the action opens a log group. */
  heading(name: string): void {
    this.#line(this.#style('bold', `== ${this.#clean(name)}`));
  }

  /** The log as a view of the core's events: its lines, the wait's state, the phases' headings. */
  readonly view: EventSink = (event) => {
    switch (event.kind) {
      case 'log':
        this[event.level](event.message);
        return;
      case 'waiting':
        this.waiting(event.waitingFor, event.elapsedMs, event.note);
        return;
      case 'phase':
        if (event.grouped) this.heading(event.message);
        return;
      default:
        return;
    }
  };

  #endLive(keep: boolean): void {
    const live = this.#live;
    if (live === undefined) return;
    if (live.timer !== undefined) clearInterval(live.timer);
    this.#stream.off?.('resize', this.#onResize);
    this.#live = undefined;
    if (keep && this.#liveShown) {
      this.#stream.write('\n');
      this.#liveShown = false;
    }
    this.#clearLive();
  }

  /** Ends the live line, if any, leaving its last state on screen. */
  close(): void {
    this.#endLive(true);
  }
}
