/** What every step is given rather than imports: tests pass a fake clock and the real client at the emulator. */
import type { Clock, Logger } from '../../common/runtime.js';
import type { Judgement } from '../../service/address-check.js';
import type { Service } from '../../service/endpoints.js';
import type { ProxySettings } from '../../service/proxy.js';
import type { Deployment, Repository } from '../../service/schemas.js';
import type { EventSink, Phase } from './events.js';
import type { Liveness } from './findings.js';
import type { WaitOptions } from './pace.js';

/**
 * The deployment as listed now (undefined: not listed). `sent` is told when the request left
 * (a check shared with other agents' may wait its turn first).
 */
export type StatusCheck = (
  id: string,
  timeoutMs: number,
  sent?: (at: number) => void,
) => Promise<Deployment | undefined>;

export interface AddressAsk {
  headers: Readonly<Record<string, string>>;
  proxy?: ProxySettings;
  signal?: AbortSignal;
  timeoutMs: number;
}

/** The same `at` (when the check started), the same answer. */
export interface AddressAnswer {
  at: number;
  judgement: Judgement;
}

/** One answer a tick, shared by the agents that check the address (run/decisions/address-pace.ts). */
export type AddressCheck = (address: string, ask: AddressAsk) => Promise<AddressAnswer>;

export interface RunDependencies {
  service: Service;
  /** The next three: shared by several agents; when absent, each agent's own. */
  statusCheck?: StatusCheck;
  repositories?: (integrationId: string) => Promise<Repository[]>;
  addressCheck?: AddressCheck;
  logger: Logger;
  clock: Clock;
  signal?: AbortSignal;
  /** `DEFAULT_WAIT` when absent. */
  wait?: Omit<WaitOptions, 'timeoutMs'>;
  /** Each deployment a wait's check sees, so that outputs follow the status. */
  onPoll?: (deployment: Deployment, liveness: Liveness) => void;
  events?: EventSink;
  /** For text it cuts (a health check's excerpt) before the views see it. */
  redact?: (text: string) => string;
}

/** Runs `work` between a `phase` and a `phase_over` event (the views' log group), however it ends. */
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
