/**
 * What every step of the run is given rather than imports: the service, the
 * clock, the logger and the events' sink (both the run's one channel,
 * events.ts), the cancellation signal. The flows make them from what the
 * runner gives (`RunnerIO`); tests pass a fake clock and the real client
 * pointed at the emulator.
 */
import type { Clock, Logger } from '../../common/runtime.js';
import type { Judgement } from '../../service/address-check.js';
import type { Service } from '../../service/endpoints.js';
import type { ProxySettings } from '../../service/proxy.js';
import type { Deployment, Repository } from '../../service/schemas.js';
import type { EventSink, Phase } from './events.js';
import type { Liveness } from './findings.js';
import type { WaitOptions } from './pace.js';

/**
 * A wait's status check: the deployment as listed now, undefined when the
 * answer does not list it. `sent` is told when the request that answers it
 * left (a check shared with other agents' may wait its turn first).
 */
export type StatusCheck = (
  id: string,
  timeoutMs: number,
  sent?: (at: number) => void,
) => Promise<Deployment | undefined>;

/** What one agent's health check sends: its headers, and its bounds. */
export interface AddressAsk {
  headers: Readonly<Record<string, string>>;
  proxy?: ProxySettings;
  signal?: AbortSignal;
  /** How long this agent may wait for the answer. */
  timeoutMs: number;
}

/** An answer to a health check, and when that check started: the same `at`, the same answer. */
export interface AddressAnswer {
  at: number;
  judgement: Judgement;
}

/** A health check's answer for this tick, shared by the agents that check the address (run/decisions/address-pace.ts). */
export type AddressCheck = (address: string, ask: AddressAsk) => Promise<AddressAnswer>;

export interface RunDependencies {
  service: Service;
  /** The wait's checks when several agents share them; `service.getById` when absent. */
  statusCheck?: StatusCheck;
  /** An integration's repositories when several agents share the listing; `service.listRepositories` when absent. */
  repositories?: (integrationId: string) => Promise<Repository[]>;
  /** The health checks of addresses when several agents share them; the agent's own when absent. */
  addressCheck?: AddressCheck;
  logger: Logger;
  clock: Clock;
  /** Aborted when the run is cancelled. */
  signal?: AbortSignal;
  /** The schedule of a wait's checks; `DEFAULT_WAIT` when absent. */
  wait?: Omit<WaitOptions, 'timeoutMs'>;
  /** Called with each deployment a wait's check sees, and how live it is, so that outputs follow the status. */
  onPoll?: (deployment: Deployment, liveness: Liveness) => void;
  /** Told what happens (a phase starts and ends, a wait sees a change); nothing when absent. */
  events?: EventSink;
  /** The run's redaction, for text it cuts (a health check's excerpt) before the views see it. */
  redact?: (text: string) => string;
}

/**
 * Phases as events, which the views make log groups: runs a phase headed `name`, a `phase`
 * event as it starts, a `phase_over` as it ends, however.
 */
export function inGroup({ events }: Pick<RunDependencies, 'events'>) {
  return async <T>(name: string, phase: Phase, work: () => Promise<T>): Promise<T> => {
    events?.({ kind: 'phase', phase, message: name, grouped: true });
    try {
      return await work();
    } finally {
      events?.({ kind: 'phase_over', phase, grouped: true });
    }
  };
}
