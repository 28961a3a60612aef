/**
 * What a wait tells the views (a line of the log each): a `waiting` event at
 * each change (status, revision, commit) and, while nothing changes, one at
 * least every `heartbeatMs`: while a check is in flight too, which may take
 * up to a request's timeout. A `status_change` goes with each change, and a
 * `wait_over` ends the wait.
 */
import type { Clock } from '../../common/runtime.js';
import type { Deployment } from '../../service/schemas.js';
import type { EventSink, RunEvent } from '../ports/events.js';
import { latestCommit } from './live.js';

/** Where the wait is: the deployment it last saw, and what it still misses. */
export interface WaitState {
  deployment: Deployment;
  missing: string;
  /** `missing` in a word or two (the verdict's `briefly`), when the verdict has it. */
  briefly?: string | undefined;
}

/** What the log says changed: the status, the revisions, the commit. */
function progressKey(deployment: Deployment): string {
  const { status, latest_revision_id: latest, active_revision_id: active } = deployment;
  return JSON.stringify([status, latest, active, latestCommit(deployment) ?? null]);
}

type WaitOutcome = Extract<RunEvent, { kind: 'wait_over' }>['outcome'];

export class Heartbeat {
  readonly #clock: Clock;
  readonly #heartbeatMs: number;
  readonly #events: EventSink | undefined;
  readonly #started: number;
  /** The last line said: the state it showed, and when. */
  #shown: { key: string; at: number } | undefined;

  constructor(clock: Clock, heartbeatMs: number, events: EventSink | undefined, started: number) {
    this.#clock = clock;
    this.#heartbeatMs = heartbeatMs;
    this.#events = events;
    this.#started = started;
  }

  /** The state's line and its `status_change`, when the last line showed another state (or none was said). */
  show(state: WaitState): void {
    if (this.#shown !== undefined && this.#shown.key === progressKey(state.deployment)) return;
    this.say(state);
    this.#changed(state.deployment, state.missing);
  }

  /** The wait is over, live: the change that made it live is one too, when a line showed the deployment before. */
  live(deployment: Deployment): void {
    if (this.#shown !== undefined && this.#shown.key !== progressKey(deployment)) {
      this.#changed(deployment, '');
    }
    this.#events?.({ kind: 'wait_over', outcome: 'live' });
  }

  /** The wait is over, not live; `end`, to return. */
  over<E>(outcome: Exclude<WaitOutcome, 'live'>, end: E): E {
    this.#events?.({ kind: 'wait_over', outcome });
    return end;
  }

  /**
   * The line of the wait's state; `note` says why the next check comes later
   * than usual, or that the service has not answered the one in flight.
   */
  say(state: WaitState, note?: string): void {
    this.#events?.({
      kind: 'waiting',
      waitingFor: state.missing,
      ...(state.briefly === undefined ? {} : { briefly: state.briefly }),
      elapsedMs: this.#clock.now() - this.#started,
      ...(note === undefined ? {} : { note }),
    });
    this.#shown = { key: progressKey(state.deployment), at: this.#clock.now() };
  }

  /** The deployment's state as it is now, to the events' sink. */
  #changed(deployment: Deployment, waitingFor: string): void {
    this.#events?.({
      kind: 'status_change',
      status: deployment.status,
      latestRevisionId: deployment.latest_revision_id ?? null,
      activeRevisionId: deployment.active_revision_id ?? null,
      waitingFor,
    });
  }

  /**
   * Awaits `work` with a line whenever the heartbeat is due meanwhile: a
   * timer on the clock, so that a pause and a check the service does not
   * answer (it may block for the request's whole timeout) are alike. `note`
   * says, when the line is due, why nothing changed (if it knows).
   */
  async beating<T>(
    state: WaitState,
    work: () => Promise<T>,
    note?: () => string | undefined,
  ): Promise<T> {
    const clock = this.#clock;
    const since = clock.now();
    // Due as the work starts: said now, as a plain line.
    if ((this.#shown?.at ?? since) + this.#heartbeatMs <= since) this.say(state);
    let cancel = () => {};
    const arm = () => {
      const beat = Math.max(0, (this.#shown?.at ?? since) + this.#heartbeatMs - clock.now());
      cancel = clock.timer(beat, () => {
        this.say(state, note?.());
        arm();
      });
    };
    arm();
    try {
      return await work();
    } finally {
      cancel();
    }
  }
}
