/**
 * The status checks of several waits as one request a check: every agent
 * that waits asks `check(id, timeoutMs)` on its own schedule (wait.ts), and
 * the checks asked meanwhile leave together as
 * `GET /v2/deployments?deployment_ids=A,B,…&limit=100` (100 ids a request).
 *
 * The requests keep one wait's pace whatever the number of agents: they
 * start no closer than the schedule of wait-schedule.ts allows (1 s, then
 * 2 s, start to start), and after a `429` or a `Retry-After` not before the
 * pause the service asked for. One agent alone therefore makes the same
 * requests at the same moments as a wait that calls `getById` itself.
 *
 * Every request holds the ids of all agents that asked lately (within two
 * of the longest intervals), so a check asked while a request that holds its
 * id is under way takes that request's answer rather than wait for the
 * next. Each check is told when the request that answers it left, so that
 * its wait measures the service's silence from then, not from its turn in
 * the queue. A failed request fails every check it serves with the same error:
 * each wait counts it, and slows down on a `429`, as it does alone. A
 * request that answers serves each check from its own record alone
 * (`Service.getByIds`): a record the service garbled fails that agent's
 * check as its own answer would, and no other.
 *
 * Deadlines: a request may take as long as the nearest deadline of the
 * checks it starts with allows (at least a second, as one wait's last
 * check), and a check joins a request under way only when that request
 * ends by the check's own deadline; otherwise it waits for the next. No
 * check waits past its own deadline: one the service's pause would hold
 * past it fails at once with the refusal that asked for the pause (its
 * wait then ends on time, as a wait alone pauses to its deadline), and one
 * the pace would send past it ends at its deadline, unsent
 * (`CheckNotSentError`).
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

/** What the checks are made from: one service, the run's clock and signal, the waits' pace. */
export interface StatusChecksOptions {
  service: Pick<Service, 'getByIds'>;
  clock: Clock;
  signal?: AbortSignal;
  /** The waits' schedule; `DEFAULT_WAIT` when absent. */
  wait?: Omit<WaitOptions, 'timeoutMs'>;
}

/** A check whose deadline came before the pace let it leave: its wait ends, not live. */
export class CheckNotSentError extends ActionError {
  override name = 'CheckNotSentError';
}

/** One agent's check, until a request answers it. */
interface Asked {
  id: string;
  /** When the check may take no longer: when it was asked, plus its timeout. */
  deadline: number;
  /** Told when the request that answers it leaves. */
  sent: ((at: number) => void) | undefined;
  resolve: (deployment: Deployment | undefined) => void;
  reject: (error: unknown) => void;
}

/** A request under way: the ids it holds, when it left and ends at the latest, the checks it answers. */
interface Batch {
  ids: ReadonlySet<string>;
  sentAt: number;
  endsBy: number;
  checks: Asked[];
}

export class StatusChecks {
  readonly #service: Pick<Service, 'getByIds'>;
  readonly #clock: Clock;
  readonly #signal: AbortSignal | undefined;
  readonly #wait: Omit<WaitOptions, 'timeoutMs'>;
  #schedule: Schedule;
  /** No request before this (a pause the service asked for)... */
  #heldUntil = Number.NEGATIVE_INFINITY;
  /** ...by this refusal. */
  #heldBy: ServiceError | undefined;
  #queued: Asked[] = [];
  /** Each id asked lately, and when last. */
  readonly #lately = new Map<string, number>();
  readonly #underWay = new Set<Batch>();
  #pumping = false;

  constructor(options: StatusChecksOptions) {
    this.#service = options.service;
    this.#clock = options.clock;
    this.#signal = options.signal;
    this.#wait = options.wait ?? DEFAULT_WAIT;
    this.#schedule = startSchedule(this.#wait, this.#clock.now());
  }

  /** A wait's check (`RunDependencies.statusCheck`): the deployment as the next request lists it. */
  readonly check: StatusCheck = (id, timeoutMs, sent) =>
    new Promise((resolve, reject) => {
      const now = this.#clock.now();
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

  /** Sends the queued checks as the pace allows, until none is left. */
  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      while (this.#queued.length > 0) {
        // The checks asked at the same moment leave together.
        await nextTurn();
        const { lastCheckAt, intervalMs } = this.#schedule;
        const now = this.#clock.now();
        const waitMs = Math.max(lastCheckAt + intervalMs, this.#heldUntil) - now;
        if (waitMs <= 0) {
          this.#send();
          continue;
        }
        const nearest = Math.min(...this.#queued.map((asked) => asked.deadline));
        await this.#clock.sleep(Math.max(0, Math.min(waitMs, nearest - now)), this.#signal);
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
    const now = this.#clock.now();
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

  /** One request a hundred ids: the queued checks' first, then those asked lately. */
  #send(): void {
    const now = this.#clock.now();
    this.#schedule = checkStarted(this.#schedule, this.#wait, now);
    const checks = this.#queued.splice(0);
    for (const [id, at] of this.#lately) {
      if (now - at > 2 * this.#wait.maxIntervalMs) this.#lately.delete(id);
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

  /** The request's answer to each check it serves, or its failure to each. */
  async #answer(batch: Batch, timeoutMs: number): Promise<void> {
    try {
      const found = await this.#service.getByIds([...batch.ids], timeoutMs);
      this.#underWay.delete(batch);
      this.#schedule = answered(this.#schedule);
      for (const asked of batch.checks) {
        const answer = found.get(asked.id);
        // A record that cannot be taken is that agent's answer alone, as if it had asked alone.
        if (answer instanceof ServiceError) asked.reject(answer);
        else asked.resolve(answer);
      }
    } catch (error) {
      this.#underWay.delete(batch);
      if (error instanceof ServiceError) {
        this.#schedule = refused(this.#schedule, refusalOf(error), this.#wait);
        const until = this.#clock.now() + this.#schedule.slowdownMs;
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
