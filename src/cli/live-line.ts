/**
 * The log's live line on a terminal: one row that says what the wait waits
 * for and for how long, redrawn in place (every second, at each change, and
 * on a resize). Several agents still share one row, so that they never take
 * turns on it: what a person acts on first, the longest wait's time last:
 * `… 1 of 3 live · research: AWAITING_DATABASE · triage: DEPLOYING (12 s)`.
 * Its text is already cleaned by the log.
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

/** Between the parts of the row of several agents. */
const SEPARATOR = ' · ';

/**
 * What a wait waits for: the whole text (one deployment's row), and the same
 * in a word or two (the core's `briefly`: `DEPLOYING`, `health 503 …`) for
 * the row of several agents, where agents that wait on the same are named
 * together.
 */
export interface WaitText {
  what: string;
  briefly: string;
}

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
  readonly #waits = new Map<string, WaitText & { since: number }>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #shown = false;
  /** In a deploy of several agents: how many are live, of how many. */
  #tally: { live: number; of: number } | undefined;
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
  set(entry: string, text: WaitText, soFarMs: number): void {
    if (!this.active) this.#stream.on?.('resize', this.#onResize);
    const since = this.#waits.get(entry)?.since ?? this.#now() - soFarMs;
    this.#waits.set(entry, { ...text, since });
    this.#timer ??= setInterval(() => this.draw(), 1000);
    // The timer must not keep the process alive once the run is over.
    this.#timer.unref?.();
    this.draw();
  }

  /** `entry`'s wait is over: the row goes when no wait is left, else it is drawn without it. */
  drop(entry: string): void {
    if (!this.#waits.delete(entry)) return;
    if (this.active) this.draw();
    else this.end();
  }

  /** How many agents of a deploy of several are live, of how many: the row starts with it. */
  tally(live: number, of: number): void {
    if (this.#tally?.live === live && this.#tally.of === of) return;
    this.#tally = { live, of };
    this.draw();
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
    const waits = [...this.#waits];
    const row =
      this.#tally === undefined && waits.length === 1 && waits[0]?.[0] === ONE_DEPLOYMENT
        ? this.#text(waits[0][1].what, elapsed)
        : this.#agentsText(waits, elapsed);
    this.#stream.write(`\r\u001b[2K${row}`);
    this.#shown = true;
  }

  /** The room on the row, in columns: one short of the terminal's edge, where some terminals move the cursor to the next row. */
  #room(): number {
    const columns = this.#stream.columns;
    return columns !== undefined && columns > 0 ? columns - 1 : Number.POSITIVE_INFINITY;
  }

  /**
   * The row of one deployment, cut to the terminal's width as it is now, in
   * screen columns. A line wider than the terminal wraps, and the redraw
   * (which clears one row) would leave a copy of its first rows each time.
   * The waiting text is cut first, so the elapsed time stays in view.
   */
  #text(what: string, elapsed: string): string {
    const room = this.#room();
    const lead = '… waiting until live: ';
    const left = room - screenWidth(`${lead} ${elapsed}`);
    if (left < WHAT_MIN) return cutToWidth(`${lead}${what} ${elapsed}`, room);
    return `${this.#style.mark('…')} waiting until live: ${cutToWidth(what, left)} ${this.#style.elapsed(elapsed)}`;
  }

  /**
   * The row of several agents: how many are live, then what the waiting
   * agents wait on in short, the agents that wait on the same named together
   * (`support, triage: DEPLOYING`); when the parts do not all fit, the
   * longest are cut first, so that every part keeps its start; the elapsed
   * time stays in view.
   */
  #agentsText(waits: [string, WaitText][], elapsed: string): string {
    const room = this.#room();
    const tally = this.#tally;
    const lead =
      tally === undefined ? `${waits.length} waiting` : `${tally.live} of ${tally.of} live`;
    const parts = [...grouped(waits)].map(([gist, agents]) => `${agents.join(', ')}: ${gist}`);
    const left = room - screenWidth(`… ${lead}${SEPARATOR} ${elapsed}`);
    const shares = fairShares(
      parts.map((part) => screenWidth(part)),
      left - screenWidth(SEPARATOR) * (parts.length - 1),
    );
    if (shares.some((share) => share < WHAT_MIN)) {
      return cutToWidth(`… ${[lead, ...parts].join(SEPARATOR)} ${elapsed}`, room);
    }
    const what = parts.map((part, index) => cutToWidth(part, shares[index] ?? 0)).join(SEPARATOR);
    return `${this.#style.mark('…')} ${lead}${SEPARATOR}${what} ${this.#style.elapsed(elapsed)}`;
  }

  /** Ends it: every wait off, the timer stopped, the row erased. */
  end(): void {
    if (!this.active) return;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#stream.off?.('resize', this.#onResize);
    this.#waits.clear();
    this.clear();
  }
}

/** The waiting agents by what they wait on in short, in the order they began to wait. */
function grouped(waits: [string, WaitText][]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const [agent, { briefly }] of waits) {
    groups.set(briefly, [...(groups.get(briefly) ?? []), agent]);
  }
  return groups;
}

/**
 * How many columns each of parts `widths` wide gets of `room`: a part that
 * fits its equal share whole, what it leaves over to the wider ones.
 */
function fairShares(widths: readonly number[], room: number): number[] {
  const shares = widths.map(() => 0);
  let left = room;
  const byWidth = widths
    .map((width, index) => ({ width, index }))
    .sort((a, b) => a.width - b.width);
  byWidth.forEach(({ width, index }, order) => {
    const share = Math.min(width, Math.floor(left / (byWidth.length - order)));
    shares[index] = share;
    left -= share;
  });
  return shares;
}
