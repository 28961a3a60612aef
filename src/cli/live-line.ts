/**
 * The log's live line on a terminal: one row redrawn in place (every second,
 * at each change, on a resize), shared by all agents so they never take turns:
 * `… 1 of 3 live · research: AWAITING_DATABASE · triage: DEPLOYING (12 s)`.
 */
import { cutToWidth, screenWidth } from './screen-width.js';

export interface LogStream {
  write(text: string): unknown;
  isTTY?: boolean;
  /** Read again at each redraw: it changes on a resize. */
  columns?: number;
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

/** The waiting text is cut no narrower than this; below it the whole row is cut, plain. */
const WHAT_MIN = 8;

const SEPARATOR = ' · ';

/** What a wait waits for: whole (one deployment's row), and `briefly` for the row of several agents. */
interface WaitText {
  what: string;
  briefly: string;
}

/** The entry of a run of one deployment (an agent's entry is its key). */
export const ONE_DEPLOYMENT = '';

type LiveStyle = Record<'mark' | 'elapsed', (text: string) => string>;

export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(Math.floor(seconds % 60)).padStart(2, '0')} s`;
}

export class LiveLine {
  readonly #stream: LogStream;
  readonly #style: LiveStyle;
  readonly #now: () => number;
  readonly #waits = new Map<string, WaitText & { since: number }>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #shown = false;
  #tally: { live: number; of: number } | undefined;
  readonly #onResize = (): void => this.draw();

  constructor(stream: LogStream, style: LiveStyle, now: () => number) {
    this.#stream = stream;
    this.#style = style;
    this.#now = now;
  }

  get active(): boolean {
    return this.#waits.size > 0;
  }

  set(entry: string, text: WaitText, soFarMs: number): void {
    if (!this.active) this.#stream.on?.('resize', this.#onResize);
    const since = this.#waits.get(entry)?.since ?? this.#now() - soFarMs;
    this.#waits.set(entry, { ...text, since });
    this.#timer ??= setInterval(() => this.draw(), 1000);
    // The timer must not keep the process alive once the run is over.
    this.#timer.unref?.();
    this.draw();
  }

  drop(entry: string): void {
    if (!this.#waits.delete(entry)) return;
    if (this.active) this.draw();
    else this.end();
  }

  tally(live: number, of: number): void {
    if (this.#tally?.live === live && this.#tally.of === of) return;
    this.#tally = { live, of };
    this.draw();
  }

  clear(): void {
    if (this.#shown) {
      this.#stream.write('\r\u001b[2K');
      this.#shown = false;
    }
  }

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

  /** Cut to the width as it is now: a wrapped row would leave a copy at each redraw (which clears one row). */
  #text(what: string, elapsed: string): string {
    const room = this.#room();
    const lead = '… waiting until live: ';
    const left = room - screenWidth(`${lead} ${elapsed}`);
    if (left < WHAT_MIN) return cutToWidth(`${lead}${what} ${elapsed}`, room);
    return `${this.#style.mark('…')} waiting until live: ${cutToWidth(what, left)} ${this.#style.elapsed(elapsed)}`;
  }

  /** Agents that wait on the same named together; the longest parts cut first, so each keeps its start. */
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

  end(): void {
    if (!this.active) return;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#stream.off?.('resize', this.#onResize);
    this.#waits.clear();
    this.clear();
  }
}

function grouped(waits: [string, WaitText][]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const [agent, { briefly }] of waits) {
    groups.set(briefly, [...(groups.get(briefly) ?? []), agent]);
  }
  return groups;
}

/** Each part's columns of `room`: a part that fits its equal share whole, the rest to the wider ones. */
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
