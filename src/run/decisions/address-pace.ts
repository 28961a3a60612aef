/**
 * The pace of the health checks of one run's addresses (one address, one pace; the checks
 * keep the wait's pace exactly):
 * agents whose checks go to the same address (the same origin, path and query, and the
 * same headers) share one check each tick, and each judges that one answer by its own
 * expected text.
 *
 * A check asked while one of its address is under way takes that one's answer; one
 * asked within half a tick of the last check's start is of the same tick and takes the
 * last answer. Otherwise the address is checked, unless it has had 30 checks in the
 * last minute (the last answer then stands): a check every tick of the wait (1 s, then
 * every 2 s) while fewer, and at most 30 a minute whatever the number of agents. A tick
 * that comes a few milliseconds early is never skipped: what counts as the last minute
 * ends half a tick before now.
 */
import type { Clock } from '../../common/runtime.js';
import { askAddress, type Judgement } from '../../service/address-check.js';
import type { AddressAnswer, AddressAsk, AddressCheck } from '../ports/dependencies.js';
import { DEFAULT_WAIT, type WaitOptions } from '../ports/pace.js';

/** The most checks of one address in the last minute (at the shipped pace: 60 s). */
export const CHECKS_A_MINUTE = 30;

export interface AddressChecksOptions {
  clock: Clock;
  /** The waits' schedule (its ticks); `DEFAULT_WAIT` when absent. */
  wait?: Pick<WaitOptions, 'initialIntervalMs' | 'maxIntervalMs'>;
  /** The check (service/address-check.ts's; a test may point it elsewhere). */
  ask?: typeof askAddress;
  /** The run's redaction, for the answers' excerpts (see CheckOptions.redact). */
  redact?: (text: string) => string;
}

/** One address's checks: the one under way, when each of the last minute started, the last answer. */
interface Paced {
  underWay?: { at: number; endsBy: number; answer: Promise<Judgement> };
  starts: number[];
  last?: AddressAnswer;
}

/** The key of an address: the same origin, path and query (no fragment), the same headers. */
function keyOf(address: string, headers: Readonly<Record<string, string>>): string {
  let where = address;
  try {
    const url = new URL(address);
    url.hash = '';
    where = url.href;
  } catch {
    // An address that is no URL is refused by the check; its text is its key.
  }
  return JSON.stringify([where, Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : 1))]);
}

/** The health checks of a run (one for all its agents), each address at one pace. */
export class AddressChecks {
  readonly #clock: Clock;
  readonly #ask: typeof askAddress;
  readonly #redact: ((text: string) => string) | undefined;
  /** Half the shortest tick: checks asked closer than this to the last one are of its tick. */
  readonly #sameTickMs: number;
  /** The minute the cap counts (30 of the longest intervals: 60 s at the shipped pace). */
  readonly #windowMs: number;
  readonly #addresses = new Map<string, Paced>();

  constructor(options: AddressChecksOptions) {
    const wait = options.wait ?? DEFAULT_WAIT;
    this.#clock = options.clock;
    this.#ask = options.ask ?? askAddress;
    this.#redact = options.redact;
    this.#sameTickMs = wait.initialIntervalMs / 2;
    this.#windowMs = CHECKS_A_MINUTE * wait.maxIntervalMs;
  }

  /** The answer of `address` for this tick: the one under way, the last one, or a new check's. */
  readonly answer: AddressCheck = async (address, ask) => {
    const key = keyOf(address, ask.headers);
    const paced = this.#addresses.get(key) ?? { starts: [] };
    this.#addresses.set(key, paced);
    const now = this.#clock.now();
    const { underWay, last } = paced;
    if (underWay !== undefined && underWay.endsBy <= now + ask.timeoutMs) {
      return { at: underWay.at, judgement: await underWay.answer };
    }
    if (last !== undefined && this.#paced(paced, now)) return last;
    return this.#check(address, ask, paced, now);
  };

  /** Whether the last answer stands at `now`: of this tick, or the address has had its 30 this minute. */
  #paced(paced: Paced, now: number): boolean {
    const { last, starts } = paced;
    if (last !== undefined && now - last.at < this.#sameTickMs) return true;
    const since = now - (this.#windowMs - this.#sameTickMs);
    paced.starts = starts.filter((at) => at > since);
    return paced.starts.length >= CHECKS_A_MINUTE;
  }

  /** A new check of the address, shared by whoever asks while it is under way. */
  async #check(address: string, ask: AddressAsk, paced: Paced, at: number): Promise<AddressAnswer> {
    const { headers, proxy, signal, timeoutMs } = ask;
    const answer = this.#ask(address, {
      headers,
      ...(proxy === undefined ? {} : { proxy }),
      ...(signal === undefined ? {} : { signal }),
      ...(this.#redact === undefined ? {} : { redact: this.#redact }),
      timeoutMs,
    });
    const underWay = { at, endsBy: at + timeoutMs, answer };
    paced.underWay = underWay;
    paced.starts.push(at);
    try {
      const judgement = await answer;
      const answered = { at, judgement };
      if (paced.last === undefined || paced.last.at <= at) paced.last = answered;
      return answered;
    } finally {
      if (paced.underWay === underWay) delete paced.underWay;
    }
  }
}
