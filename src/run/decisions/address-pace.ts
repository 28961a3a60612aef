/**
 * One pace per address: agents checking the same address (origin, path, query, headers)
 * share one check a tick, each judging it by its own expected text. A check asked while one
 * is under way, or within half a tick of the last start, takes that answer; else the address
 * is checked unless it had 30 checks in the last minute. The minute ends half a tick before
 * now, so a tick a few milliseconds early is never skipped.
 */
import type { Clock } from '../../common/runtime.js';
import { askAddress, type Judgement } from '../../service/address-check.js';
import type { AddressAnswer, AddressAsk, AddressCheck } from '../ports/dependencies.js';
import { DEFAULT_WAIT, type WaitOptions } from '../ports/pace.js';

const CHECKS_A_MINUTE = 30;

interface AddressChecksOptions {
  clock: Clock;
  /** `DEFAULT_WAIT` when absent. */
  wait?: Pick<WaitOptions, 'initialIntervalMs' | 'maxIntervalMs'>;
  ask?: typeof askAddress;
  /** For the answers' excerpts. */
  redact?: (text: string) => string;
}

interface Paced {
  underWay?: { at: number; endsBy: number; answer: Promise<Judgement> };
  starts: number[];
  last?: AddressAnswer;
}

function keyOf(address: string, headers: Readonly<Record<string, string>>): string {
  // An address that is no URL is refused by the check; its text is its key.
  const url = URL.canParse(address) ? new URL(address) : undefined;
  if (url !== undefined) url.hash = '';
  return JSON.stringify([
    url?.href ?? address,
    Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : 1)),
  ]);
}

export class AddressChecks {
  readonly #clock: Clock;
  readonly #ask: typeof askAddress;
  readonly #redact: ((text: string) => string) | undefined;
  readonly #sameTickMs: number;
  /** 30 of the longest intervals: 60 s at the shipped pace. */
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

  #paced(paced: Paced, now: number): boolean {
    const { last, starts } = paced;
    if (last !== undefined && now - last.at < this.#sameTickMs) return true;
    const since = now - (this.#windowMs - this.#sameTickMs);
    paced.starts = starts.filter((at) => at > since);
    return paced.starts.length >= CHECKS_A_MINUTE;
  }

  async #check(address: string, ask: AddressAsk, paced: Paced, at: number): Promise<AddressAnswer> {
    const answer = this.#ask(address, { ...ask, redact: this.#redact });
    const underWay = { at, endsBy: at + ask.timeoutMs, answer };

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
