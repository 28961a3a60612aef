/**
 * What every step of the run is given rather than imports: the service, the
 * clock, the logger, the cancellation signal and, where it runs, log groups.
 * The adapter (src/github/) supplies the runner's side through the pipeline;
 * tests pass a fake clock and the real client pointed at the emulator.
 */
import type { Clock, Logger } from '../../common/runtime.js';
import type { Service } from '../../service/endpoints.js';
import type { Deployment } from '../../service/schemas.js';
import type { EventSink, RunStep } from './events.js';
import type { WaitOptions } from './pace.js';

/** Runs a phase of the run in a log group named `name`. */
export type Group = <T>(name: string, phase: () => Promise<T>) => Promise<T>;

export interface RunDependencies {
  service: Service;
  logger: Logger;
  clock: Clock;
  /** Aborted when the run is cancelled. */
  signal?: AbortSignal;
  /** Log groups; without them a phase runs as it is. */
  group?: Group;
  /** The schedule of a wait's checks; `DEFAULT_WAIT` when absent. */
  wait?: Omit<WaitOptions, 'timeoutMs'>;
  /** Called with each deployment a wait sees, so that outputs follow the status. */
  onPoll?: (deployment: Deployment) => void;
  /** Told what happens (a phase starts, a wait sees a change); nothing when absent. */
  events?: EventSink;
}

/** Runs a phase in a log group named `name`; the phase is the `step` event's. */
export type StepGroup = <T>(name: string, step: RunStep, phase: () => Promise<T>) => Promise<T>;

/** The dependencies' log groups, or a phase run without one; each start is a `step` event. */
export function inGroup(dependencies: Pick<RunDependencies, 'group' | 'events'>): StepGroup {
  const group: Group = dependencies.group ?? ((_name, phase) => phase());
  return (name, step, phase) => {
    dependencies.events?.({ kind: 'step', step, message: name });
    return group(name, phase);
  };
}
