/** What every flow does before its first request: mask, warn, and make the steps' dependencies. */
import { isRedactable } from '../../common/redact.js';
import type { Logger } from '../../common/runtime.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import type { ServiceAccess } from '../../inputs/service-access.js';
import { wordsOf } from '../../inputs/run-description.js';
import { ServiceClient } from '../../service/client.js';
import { Service } from '../../service/endpoints.js';
import { proxyDispatcher } from '../../service/proxy.js';
import type { RunDependencies } from '../ports/dependencies.js';
import type { RunEvents } from '../ports/events.js';
import type { RunnerIO } from '../ports/runner.js';

export function dependenciesOf(
  access: Pick<ServiceAccess, 'apiUrl' | 'headers'>,
  io: RunnerIO,
  events: RunEvents,
): RunDependencies {
  const { clock, signal } = io;
  const { logger } = events;
  const client = new ServiceClient({
    baseUrl: access.apiUrl,
    headers: access.headers,
    clock,
    logger,
    signal,
    redact: io.redact,
    dispatcher: proxyDispatcher(io.proxy),
    ...(io.pace === undefined ? {} : { retry: io.pace.retry }),
    words: wordsOf(io.run),
  });
  return {
    service: new Service(client, logger, { mask: io.mask, redact: io.redact }),
    logger,
    clock,
    signal,
    events: events.emit,
    redact: io.redact,
    ...(io.pace === undefined ? {} : { wait: io.pace.wait }),
  };
}

/** The api key, the header values (and a spec's secret values). */
export function maskValues(sensitive: Pick<ServiceAccess, 'sensitiveValues'>, io: RunnerIO): void {
  for (const value of sensitive.sensitiveValues) io.mask(value);
}

/**
 * Masks every sensitive value of the spec; one warning for each secret too short or common to
 * hide in text (`4`, `true`: outputs redact it by structure, the service's messages may show
 * it), then the spec's own warnings (a `deployment_type` the action does not know).
 */
export function maskAndWarn(spec: DeploySpec, io: RunnerIO, logger: Logger): void {
  maskValues(spec, io);
  for (const secret of spec.secrets) {
    if (isRedactable(secret.value)) continue;
    logger.warning(
      `the value of secret ${secret.name} is too short or common to redact in text: outputs hide it, but it cannot be hidden in the service's own messages. Prefer a longer value if it is sensitive.`,
    );
  }
  for (const warning of spec.warnings) logger.warning(warning);
}
