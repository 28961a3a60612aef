/**
 * Waiting until a deployment is READY: poll `deployment_ids=ID` with a
 * growing interval, up to a deadline, tolerating a few failed polls.
 */
import { ActionError } from './errors.js';
import type { Clock, Logger, ServiceClient } from './client.js';
import { ServiceError } from './client.js';
import { DeploymentListSchema, type Deployment, type DeploymentStatus } from './schemas.js';

export interface WaitOptions {
  timeoutMs: number;
  /** The first interval; each next one is `growth` times longer, up to `maxIntervalMs`. */
  initialIntervalMs: number;
  maxIntervalMs: number;
  growth: number;
  /** Failed polls in a row that are tolerated before the wait fails. */
  maxFailedPolls: number;
}

export const DEFAULT_WAIT: Omit<WaitOptions, 'timeoutMs'> = {
  initialIntervalMs: 1_000,
  maxIntervalMs: 15_000,
  growth: 2,
  maxFailedPolls: 5,
};

/** What a status means to the wait. */
export function classifyStatus(status: DeploymentStatus): 'ready' | 'failed' | 'pending' {
  switch (status) {
    case 'READY':
      return 'ready';
    case 'AWAITING_DELETE':
      return 'failed';
    case 'AWAITING_DATABASE':
    case 'UNUSED':
    case 'UNKNOWN':
      return 'pending';
  }
}

/** The wait ended without READY; carries the last deployment seen. */
export class WaitError extends ActionError {
  override name = 'WaitError';
  readonly deployment: Deployment;

  constructor(message: string, deployment: Deployment) {
    super(message);
    this.deployment = deployment;
  }
}

export interface WaitDependencies {
  client: ServiceClient;
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal;
  /** Called with each deployment seen, so that outputs follow the status. */
  onPoll?: (deployment: Deployment) => void;
}

/** A poll whose answer does not list the deployment (yet): tolerated like a failed poll. */
class NotListedError extends ActionError {
  override name = 'NotListedError';
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

async function poll(
  client: ServiceClient,
  id: string,
  timeoutMs: number,
): Promise<Deployment | undefined> {
  const list = await client.request({
    method: 'GET',
    path: '/v2/deployments',
    query: { deployment_ids: id },
    schema: DeploymentListSchema,
    // A failed poll is retried by the next poll, not inside this one.
    attempts: 1,
    timeoutMs,
  });
  return list.resources.find((deployment) => deployment.id === id);
}

export async function waitForReady(
  initial: Deployment,
  options: WaitOptions,
  dependencies: WaitDependencies,
): Promise<Deployment> {
  const { client, clock, logger, signal } = dependencies;
  const started = clock.now();
  const deadline = started + options.timeoutMs;
  let deployment = initial;
  let interval = options.initialIntervalMs;
  let lastCheck = started;
  let failedPolls = 0;
  for (let polls = 0; ;) {
    const verdict = classifyStatus(deployment.status);
    if (verdict === 'ready') return deployment;
    if (verdict === 'failed') {
      throw new WaitError(
        `Deployment '${deployment.name}' (${deployment.id}) is ${deployment.status}: it is being deleted and will not become READY.`,
        deployment,
      );
    }
    const remaining = deadline - clock.now();
    if (remaining <= 0) {
      throw new WaitError(
        `Deployment '${deployment.name}' (${deployment.id}) is not READY after ${seconds(options.timeoutMs)} (${polls} checks; last status ${deployment.status}). Raise wait-timeout, or look at the deployment in the service.`,
        deployment,
      );
    }
    // Intervals run from the start of one check to the start of the next.
    const delay = Math.max(0, Math.min(interval - (clock.now() - lastCheck), remaining));
    logger.info(
      `waiting for READY: ${deployment.status} after ${seconds(clock.now() - started)}; next check in ${seconds(delay)}`,
    );
    await clock.sleep(delay, signal);
    lastCheck = clock.now();
    interval = Math.min(options.maxIntervalMs, interval * options.growth);
    polls++;
    try {
      // The last check may not outlast the deadline by more than a second.
      const seen = await poll(client, deployment.id, Math.max(1_000, deadline - clock.now()));
      if (seen === undefined) {
        throw new NotListedError(
          `GET /v2/deployments?deployment_ids=${deployment.id} does not list the deployment`,
        );
      }
      deployment = seen;
      failedPolls = 0;
      dependencies.onPoll?.(deployment);
    } catch (error) {
      const tolerated =
        (error instanceof ServiceError && error.transient) || error instanceof NotListedError;
      if (!tolerated || !(error instanceof ActionError)) throw error;
      failedPolls++;
      if (failedPolls > options.maxFailedPolls) {
        throw new WaitError(
          `Gave up waiting for '${deployment.name}' (${deployment.id}) after ${failedPolls} failed checks in a row; the last: ${error.message}`,
          deployment,
        );
      }
      logger.warning(
        `check ${polls} failed (${failedPolls} of ${options.maxFailedPolls} tolerated in a row): ${error.message}`,
      );
    }
  }
}
