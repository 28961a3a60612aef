/**
 * The retire as a run: the preview's deployment looked up by its exact name
 * (read-only), its outputs, the adapter told to retire it where it showed it
 * (GitHub's records and the comment), one log line and what its summary
 * shows (src/views/ renders it). Nothing here deletes or stops
 * anything, and nothing says so: the service's interface has no delete, and
 * the deployment keeps running until someone deletes it in the service.
 */
import { ActionError, describeError } from '../../common/errors.js';
import { untrusted, type Logger } from '../../common/runtime.js';
import type { RetireRequest } from '../../inputs/retire-inputs.js';
import { pickOne } from '../decisions/deploy.js';
import { inGroup } from '../ports/dependencies.js';
import { withEvents, type RunEvents } from '../ports/events.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { dependenciesOf } from './setup.js';
import type { RetiredDeployment, RetireReport } from '../ports/progress.js';
import type { RetireSummary } from '../ports/summaries.js';
import { dashboardUrlOf } from '../decisions/report.js';

/** The names of the retire step's outputs, as retire/action.yml declares them. */
export const RETIRE_OUTPUT_NAMES = [
  'deployment-id',
  'status',
  'dashboard-url',
  'retired',
  // A manifest's, keyed by agent (retire-agents.ts).
  'deployments',
] as const;
export type RetireOutputs = Partial<Record<(typeof RETIRE_OUTPUT_NAMES)[number], string>>;

/** The one log line: what still exists in the service, and where to delete it. */
function logLine(name: string, found: RetiredDeployment | undefined, logger: Logger): void {
  if (found === undefined) {
    logger.notice(
      `retire: no deployment is named '${name}' in the service; nothing is left to delete there`,
    );
    return;
  }
  const { deployment, dashboardUrl } = found;
  const status = untrusted(deployment.status);
  logger.info(
    deployment.status === 'AWAITING_DELETE'
      ? `retire: '${name}' is deployment ${deployment.id} (${status}): a deletion was asked for in the service; ${dashboardUrl === undefined ? `its id there is ${deployment.id}` : `see ${dashboardUrl}`}`
      : `retire: '${name}' is deployment ${deployment.id} (${status}): it still exists in the service and keeps running until someone deletes ${dashboardUrl === undefined ? `deployment ${deployment.id} there (this step cannot: the service's interface has no delete)` : `it there: ${dashboardUrl}`}`,
  );
}

/** Runs the retire; never throws: how it ended is in the outcome. */
export async function runRetire(request: RetireRequest, io: RunnerIO): Promise<RunOutcome> {
  return withEvents(io, (events) => retire(request, io, events));
}

/** The retire's steps: the deployment looked up, the adapter asked to retire it. */
async function retire(
  request: RetireRequest,
  io: RunnerIO,
  events: RunEvents,
): Promise<RunOutcome> {
  const { logger } = events;
  const outputs = (values: RetireOutputs) => events.emit({ kind: 'outputs', outputs: values });
  try {
    for (const value of request.sensitiveValues) io.mask(value);
    const dependencies = dependenciesOf(request, io, events);
    const { name } = request;
    const deployment = await inGroup(dependencies)(
      `Looking for deployment '${name}'`,
      'find',
      async () => pickOne(await dependencies.service.findByName(name), name, logger),
    );
    const dashboardUrl =
      deployment === undefined ? undefined : dashboardUrlOf(request.dashboardUrl, deployment);
    const found: RetiredDeployment | undefined =
      deployment === undefined
        ? undefined
        : { deployment, ...(dashboardUrl === undefined ? {} : { dashboardUrl }) };
    const report: RetireReport = { name, deployments: found === undefined ? [] : [found] };
    outputs({
      'deployment-id': deployment?.id ?? '',
      status: deployment?.status ?? '',
      'dashboard-url': dashboardUrl ?? '',
    });
    logLine(name, found, logger);
    const retirement = await io.retired?.(report);
    outputs({ retired: String(retirement?.inactive ?? 0) });
    const summary: RetireSummary = {
      kind: 'retire',
      report,
      ...(retirement === undefined ? {} : { retirement }),
    };
    return { summary };
  } catch (error) {
    return {
      failure: io.redact(
        `${describeError(error)}\nNothing on GitHub was changed: re-run the job to retire the preview.`,
      ),
      ...(error instanceof Error && !(error instanceof ActionError) ? { stack: error.stack } : {}),
    };
  }
}
