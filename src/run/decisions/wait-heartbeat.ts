/**
 * What a wait tells the views: a `waiting` event (and a `status_change`) at each change of
 * status, revision or commit, and while nothing changes one every `heartbeatMs`, a check in
 * flight included (it may take a request's whole timeout); a `wait_over` ends it.
 */
import type { Clock } from '../../common/runtime.js';
import type { Deployment } from '../../service/schemas.js';
import type { EventSink, RunEvent } from '../ports/events.js';
import { latestCommit } from './live.js';

export interface WaitState {
  deployment: Deployment;
  missing: string;
  briefly?: string | undefined;
}

function progressKey(deployment: Deployment): string {
  const { status, latest_revision_id: latest, active_revision_id: active } = deployment;
  return JSON.stringify([status, latest, active, latestCommit(deployment) ?? null]);
}

type WaitOutcome = Extract<RunEvent, { kind: 'wait_over' }>['outcome'];

interface HeartbeatOf {
  clock: Clock;
  heartbeatMs: number;
  events: EventSink | undefined;
  started: number;
}

export class Heartbeat {
  readonly #wait: HeartbeatOf;
  #shown: { key: string; at: number } | undefined;

  constructor(wait: HeartbeatOf) {
    this.#wait = wait;
  }

  show(state: WaitState): void {
    if (this.#shown !== undefined && this.#shown.key === progressKey(state.deployment)) return;
    this.say(state);
    this.#changed(state.deployment, state.missing);
  }

  /** The change that made it live is one too, when a line showed the deployment before. */
  live(deployment: Deployment): void {
    if (this.#shown !== undefined && this.#shown.key !== progressKey(deployment)) {
      this.#changed(deployment, '');
    }
    this.#wait.events?.({ kind: 'wait_over', outcome: 'live' });
  }

  over<E>(outcome: Exclude<WaitOutcome, 'live'>, end: E): E {
    this.#wait.events?.({ kind: 'wait_over', outcome });
    return end;
  }

  /** `note`: why the next check is late, or that the one in flight has no answer yet. */
  say(state: WaitState, note?: string): void {
    this.#wait.events?.({
      kind: 'waiting',
      waitingFor: state.missing,
      ...(state.briefly === undefined ? {} : { briefly: state.briefly }),
      elapsedMs: this.#wait.clock.now() - this.#wait.started,
      ...(note === undefined ? {} : { note }),
    });
    this.#shown = { key: progressKey(state.deployment), at: this.#wait.clock.now() };
  }

  #changed(deployment: Deployment, waitingFor: string): void {
    this.#wait.events?.({
      kind: 'status_change',
      status: deployment.status,
      latestRevisionId: deployment.latest_revision_id ?? null,
      activeRevisionId: deployment.active_revision_id ?? null,
      waitingFor,
    });
  }

  /** Awaits `work`, a line whenever the heartbeat is due: a timer, so a pause and an unanswered check are alike. */
  async beating<T>(
    state: WaitState,
    work: () => Promise<T>,
    note?: () => string | undefined,
  ): Promise<T> {
    const clock = this.#wait.clock;
    const since = clock.now();
    // Due as the work starts: said now, as a plain line.
    if ((this.#shown?.at ?? since) + this.#wait.heartbeatMs <= since) this.say(state);
    let cancel = () => {};
    const arm = () => {
      const beat = Math.max(0, (this.#shown?.at ?? since) + this.#wait.heartbeatMs - clock.now());
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
