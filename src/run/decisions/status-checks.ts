/**
 * The status checks of every waiting agent as one request
 * (`GET /v2/deployments?deployment_ids=A,B,…`, 100 ids a request), at one wait's pace whatever
 * the number of agents (wait-schedule.ts; after a `429` or `Retry-After`, the pause asked), so
 * one agent alone makes the same requests at the same moments as a wait calling `getById`.
 * A request holds every id asked lately (within two of the longest intervals), so a check
 * asked while one holding its id is under way takes its answer. Each check is told when its
 * request left: a wait measures the service's silence from then. A failed request fails every
 * check it serves (each wait counts it, and slows down on a `429`); a garbled record fails
 * only its agent's check.
 * Deadlines: a request may take until the nearest deadline of its checks (at least 1 s); a
 * check joins one under way only when it ends by the check's deadline. No check waits past
 * its deadline: one the service's pause would hold past it fails at once with that refusal,
 * one the pace would send past it ends unsent (`CheckNotSentError`).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../../common/runtime.js';
import { ActionError } from '../../common/errors.js';
import { ServiceError } from '../../service/errors.js';
import { PAGE_LIMIT, type Service } from '../../service/endpoints.js';
import type { Deployment } from '../../service/schemas.js';
import type { StatusCheck } from '../ports/dependencies.js';
import { DEFAULT_WAIT, type WaitOptions } from '../ports/pace.js';
import {
  answered,
  checkStarted,
  checkTimeoutMs,
  refusalOf,
  refused,
  startSchedule,
  type Schedule,
} from './wait-schedule.js';

interface StatusChecksOptions {
  service: Pick<Service, 'getByIds'>;
  clock: Clock;
  signal?: AbortSignal;
  /** `DEFAULT_WAIT` when absent. */
  wait?: Omit<WaitOptions, 'timeoutMs'>;
}

/** Its deadline came before the pace let it leave: its wait ends, not live. */
export class CheckNotSentError extends ActionError {
  override name = 'CheckNotSentError';
}

interface Asked {
  id: string;
  /** When asked, plus its timeout. */
  deadline: number;
  sent: ((at: number) => void) | undefined;
  resolve: (deployment: Deployment | undefined) => void;
  reject: (error: unknown) => void;
}

interface Batch {
  ids: ReadonlySet<string>;
  sentAt: number;
  endsBy: number;
  checks: Asked[];
}

export class StatusChecks {
  readonly #options: StatusChecksOptions & { wait: Omit<WaitOptions, 'timeoutMs'> };
  #schedule: Schedule;
  /** No request before this: a pause the service asked for, by this refusal. */
  #heldUntil = Number.NEGATIVE_INFINITY;
  #heldBy: ServiceError | undefined;
  #queued: Asked[] = [];
  readonly #lately = new Map<string, number>();
  readonly #underWay = new Set<Batch>();
  #pumping = false;

  constructor(options: StatusChecksOptions) {
    this.#options = { ...options, wait: options.wait ?? DEFAULT_WAIT };
    this.#schedule = startSchedule(this.#options.wait, options.clock.now());
  }

  /** `RunDependencies.statusCheck`: the deployment as the next request lists it. */
  readonly check: StatusCheck = (id, timeoutMs, sent) =>
    new Promise((resolve, reject) => {
      const now = this.#options.clock.now();
      const asked: Asked = { id, deadline: now + timeoutMs, sent, resolve, reject };
      this.#lately.set(id, now);
      const joined = [...this.#underWay].find(
        (batch) => batch.ids.has(id) && batch.endsBy <= asked.deadline,
      );
      if (joined !== undefined) {
        asked.sent?.(joined.sentAt);
        return void joined.checks.push(asked);
      }
      if (this.#heldBy !== undefined && this.#heldUntil > asked.deadline) {
        return void reject(this.#heldBy);
      }
      this.#queued.push(asked);
      if (!this.#pumping) void this.#pump();
    });

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      while (this.#queued.length > 0) {
        // The checks asked at the same moment leave together.
        await nextTurn();
        const { lastCheckAt, intervalMs } = this.#schedule;
        const now = this.#options.clock.now();
        const waitMs = Math.max(lastCheckAt + intervalMs, this.#heldUntil) - now;
        if (waitMs <= 0) {
          this.#send();
          continue;
        }
        const nearest = Math.min(...this.#queued.map((asked) => asked.deadline));
        const { clock, signal } = this.#options;
        await clock.sleep(Math.max(0, Math.min(waitMs, nearest - now)), signal);
        this.#expire();
      }
    } catch (error) {
      for (const asked of this.#queued.splice(0)) asked.reject(error);
    } finally {
      this.#pumping = false;
    }
  }

  /** The queued checks whose deadline has come fail unsent; the pace is kept for the others. */
  #expire(): void {
    const now = this.#options.clock.now();
    const due = this.#queued.filter((asked) => asked.deadline <= now);
    if (due.length === 0) return;
    this.#queued = this.#queued.filter((asked) => asked.deadline > now);
    for (const asked of due) {
      asked.reject(
        this.#heldBy !== undefined && this.#heldUntil > now
          ? this.#heldBy
          : new CheckNotSentError(
              `no status check of ${asked.id} before its deadline: the checks are paced`,
            ),
      );
    }
  }

  #send(): void {
    const now = this.#options.clock.now();
    this.#schedule = checkStarted(this.#schedule, this.#options.wait, now);
    const checks = this.#queued.splice(0);
    for (const [id, at] of this.#lately) {
      if (now - at > 2 * this.#options.wait.maxIntervalMs) this.#lately.delete(id);
    }
    const ids = [...new Set([...checks.map((asked) => asked.id), ...this.#lately.keys()])];
    for (let start = 0; start < ids.length; start += PAGE_LIMIT) {
      const held = new Set(ids.slice(start, start + PAGE_LIMIT));
      const served = checks.filter((asked) => held.has(asked.id));
      if (served.length === 0) continue;
      const nearest = Math.min(...served.map((asked) => asked.deadline));
      const timeoutMs = checkTimeoutMs(nearest, now);
      const batch: Batch = { ids: held, sentAt: now, endsBy: now + timeoutMs, checks: served };
      this.#underWay.add(batch);
      for (const asked of served) asked.sent?.(now);
      void this.#answer(batch, timeoutMs);
    }
  }

  async #answer(batch: Batch, timeoutMs: number): Promise<void> {
    try {
      const found = await this.#options.service.getByIds([...batch.ids], timeoutMs);
      this.#underWay.delete(batch);
      this.#schedule = answered(this.#schedule);
      for (const asked of batch.checks) {
        const answer = found.get(asked.id);

        if (answer instanceof ServiceError) asked.reject(answer);
        else asked.resolve(answer);
      }
    } catch (error) {
      this.#underWay.delete(batch);
      if (error instanceof ServiceError) {
        this.#schedule = refused(this.#schedule, refusalOf(error), this.#options.wait);
        const until = this.#options.clock.now() + this.#schedule.slowdownMs;
        // A check queued meanwhile that the pause holds past its deadline fails at it (#expire).
        if (until > this.#heldUntil) {
          this.#heldUntil = until;
          this.#heldBy = error;
        }
      }
      for (const asked of batch.checks) asked.reject(error);
    }
  }
}
