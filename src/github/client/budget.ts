/**
 * The time GitHub may cost a run (at most 15 s). Each attempt reserves its
 * time before it starts and gives back the rest, so calls side by side
 * cannot overspend it together.
 */
import type { Clock } from '../../common/runtime.js';

export const RUN_BUDGET_MS = 15_000;

/** A manifest's GitHub work: one run's, plus this much for each agent beyond the first... */
const AGENT_BUDGET_MS = 1_000;
/** ...and never more than this, whatever the number of agents. */
const AGENTS_BUDGET_MAX_MS = 60_000;

/** A shorter budget given for tests (`givenMs`, under the run's) stays as it is. */
export function agentsBudgetMs(agents: number, givenMs?: number): number {
  if (givenMs !== undefined && givenMs < RUN_BUDGET_MS) return givenMs;
  const extra = Math.max(0, agents - 1) * AGENT_BUDGET_MS;
  return Math.min(AGENTS_BUDGET_MAX_MS, RUN_BUDGET_MS + extra);
}

export class Budget {
  readonly totalMs: number;
  #reservedMs = 0;
  readonly #clock: Pick<Clock, 'now'>;

  constructor(clock: Pick<Clock, 'now'>, totalMs = RUN_BUDGET_MS) {
    this.#clock = clock;
    this.totalMs = totalMs;
  }

  get remainingMs(): number {
    return Math.max(0, this.totalMs - this.#reservedMs);
  }

  /** Up to `wantedMs` (0 when spent); `end` keeps only the time really used. */
  reserve(wantedMs: number): { grantedMs: number; end: () => number } {
    const grantedMs = Math.max(0, Math.min(wantedMs, this.remainingMs));
    this.#reservedMs += grantedMs;
    const started = this.#clock.now();
    let ended = false;
    return {
      grantedMs,
      end: () => {
        const usedMs = Math.min(grantedMs, Math.max(0, this.#clock.now() - started));
        if (!ended) {
          ended = true;
          this.#reservedMs -= grantedMs - usedMs;
        }
        return usedMs;
      },
    };
  }
}
