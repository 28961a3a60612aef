/**
 * The log's live line on a terminal: one row that says what the wait waits
 * for and for how long, redrawn in place (every second, at each change, and
 * to the new width when the terminal is resized). In a deploy of several
 * agents it is still one row, for every agent that waits (`[key] what`, the
 * longest wait's time), so that agents waiting at once never take turns on
 * it. Its text is already cleaned by the log.
 */
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

/** The waiting text is cut no narrower than this; below it the whole row is cut, plain. */
const WHAT_MIN = 8;

/** The entry of a run of one deployment (an agent's entry is its key). */
export const ONE_DEPLOYMENT = '';

/** How the row's parts look: the lead's mark and the elapsed time, styled by the log. */
export interface LiveStyle {
  mark: (text: string) => string;
  elapsed: (text: string) => string;
}

export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(Math.floor(seconds % 60)).padStart(2, '0')} s`;
}

export class LiveLine {
  readonly #stream: LogStream;
  readonly #style: LiveStyle;
  readonly #now: () => number;
  /** What each wait waits for, and since when, by agent (or `ONE_DEPLOYMENT`). */
  readonly #waits = new Map<string, { what: string; since: number }>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #shown = false;
  readonly #onResize = (): void => this.draw();

  constructor(stream: LogStream, style: LiveStyle, now: () => number) {
    this.#stream = stream;
    this.#style = style;
    this.#now = now;
  }

  /** Whether a wait is on it. */
  get active(): boolean {
    return this.#waits.size > 0;
  }

  /** A wait's state: what `entry` waits for, `soFarMs` in; the row is drawn again. */
  set(entry: string, what: string, soFarMs: number): void {
    if (!this.active) this.#stream.on?.('resize', this.#onResize);
    const wait = this.#waits.get(entry);
    if (wait === undefined) this.#waits.set(entry, { what, since: this.#now() - soFarMs });
    else wait.what = what;
    this.#timer ??= setInterval(() => this.draw(), 1000);
    // The timer must not keep the process alive once the run is over.
    this.#timer.unref?.();
    this.draw();
  }

  /** `entry`'s wait is over: the row goes when no wait is left, else it is drawn without it. */
  drop(entry: string): void {
    if (!this.#waits.delete(entry)) return;
    if (this.active) this.draw();
    else this.end(false);
  }

  /** Erases the row, if shown (a line is about to be written). */
  clear(): void {
    if (this.#shown) {
      this.#stream.write('\r\u001b[2K');
      this.#shown = false;
    }
  }

  /** Draws the row, if a wait is on it. */
  draw(): void {
    if (!this.active) return;
    const since = Math.min(...[...this.#waits.values()].map((wait) => wait.since));
    const elapsed = `(${formatSeconds((this.#now() - since) / 1000)})`;
    this.#stream.write(`\r\u001b[2K${this.#text(this.#what(), elapsed)}`);
    this.#shown = true;
  }

  /** What the waits wait for: the one wait's text, or each agent's after its key. */
  #what(): string {
    const waits = [...this.#waits];
    if (waits.length === 1 && waits[0]?.[0] === ONE_DEPLOYMENT) return waits[0][1].what;
    const each = waits.map(([agent, wait]) => `[${agent}] ${wait.what}`).join(' | ');
    return waits.length === 1 ? each : `${waits.length} agents: ${each}`;
  }

  /**
   * The row, cut to the terminal's width as it is now, in screen columns. A
   * line wider than the terminal wraps, and the redraw (which clears one
   * row) would leave a copy of its first rows each time. It stops one
   * column short of the edge, where some terminals move the cursor to the
   * next row. The waiting text is cut first, so the elapsed time stays in
   * view.
   */
  #text(what: string, elapsed: string): string {
    const columns = this.#stream.columns;
    const room = columns !== undefined && columns > 0 ? columns - 1 : Number.POSITIVE_INFINITY;
    const lead = '… waiting until live: ';
    const left = room - screenWidth(`${lead} ${elapsed}`);
    if (left < WHAT_MIN) return cutToWidth(`${lead}${what} ${elapsed}`, room);
    return `${this.#style.mark('…')} waiting until live: ${cutToWidth(what, left)} ${this.#style.elapsed(elapsed)}`;
  }

  /** Ends it: every wait off, the timer stopped; its last state left on screen when `keep`. */
  end(keep: boolean): void {
    if (!this.active) return;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#stream.off?.('resize', this.#onResize);
    this.#waits.clear();
    if (keep && this.#shown) {
      this.#stream.write('\n');
      this.#shown = false;
    }
    this.clear();
  }
}
