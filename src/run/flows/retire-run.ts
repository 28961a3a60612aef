/**
 * The retire as a run (contract v1.3, `retire`, behaviour 20): the preview's
 * deployment looked up by its exact name (read-only), its outputs, the
 * adapter told to retire it where it showed it (GitHub's records and the
 * comment), one log line and the job summary. Nothing here deletes or stops
 * anything, and nothing says so: the service's interface has no delete, and
 * the deployment keeps running until someone deletes it in the service.
 */
import { ActionError, describeError } from '../../common/errors.js';
import { htmlCode, htmlLink, htmlText } from '../../common/github-text.js';
import { untrusted, type Logger } from '../../common/runtime.js';
import { boundedSummary } from '../../common/summary.js';
import type { RetireRequest } from '../../inputs/retire-inputs.js';
import { pickOne } from '../steps/deploy.js';
import { inGroup } from '../ports/dependencies.js';
import { withEvents, type RunEvents } from '../ports/events.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { dependenciesOf } from './service-access.js';
import type { RetiredDeployment, RetireReport, Retirement } from '../ports/progress.js';
import { cellOf, dashboardUrlOf, labelledTable } from '../steps/report.js';

/** The names of the retire step's outputs, as retire/action.yml declares them. */
export const RETIRE_OUTPUT_NAMES = ['deployment-id', 'status', 'dashboard-url', 'retired'] as const;
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

/** What the retire did on GitHub, one row each. */
function gitHubRows(retirement: Retirement | undefined): [string, string][] {
  if (retirement === undefined)
    return [['GitHub', htmlText('nothing was changed (no github-token or no repository)')]];
  const rows: [string, string][] = [];
  if (retirement.environment !== undefined) {
    const listed = `${retirement.found}${retirement.more ? '+' : ''}`;
    const already = retirement.alreadyInactive ?? 0;
    rows.push([
      `GitHub deployments of ${htmlCode(retirement.environment)}`,
      htmlText(
        `${retirement.inactive} of ${listed} marked inactive${already > 0 ? ` (${already} already were)` : ''}`,
      ),
    ]);
  }
  const comment = {
    rewritten: 'rewritten to say the preview is retired',
    unchanged: 'already says the preview is retired',
    none: 'none to rewrite',
    failed: 'not rewritten (see the warning in the log)',
    skipped: 'not asked for',
  }[retirement.comment];
  rows.push(['Pull request comment', htmlText(comment)]);
  return rows;
}

/** The job summary of a retire, as HTML (service text escaped by the one GitHub-text module). */
export function retireSummaryHtml(
  { name, deployments }: RetireReport,
  retirement: Retirement | undefined,
  redact: (text: string) => string,
): string {
  const code = cellOf(redact, (value) => htmlCode(value));
  // The retire step's preview has its one deployment, or none.
  const { deployment, dashboardUrl } = deployments[0] ?? {};
  const parts = [`<h2>⚫ Preview retired: ${code(name)}</h2>`];
  if (deployment === undefined) {
    parts.push(
      `<p>${htmlText(`No deployment is named '${redact(name)}' in the service: nothing is left to delete there.`)}</p>`,
    );
  } else {
    parts.push(
      `<p>${htmlText(
        deployment.status === 'AWAITING_DELETE'
          ? 'The preview is retired on GitHub. In the service, a deletion of its deployment was asked for (its status says so).'
          : 'The preview is retired on GitHub. Its deployment still exists in the service, and keeps running (and costing) until someone deletes it there: this step cannot delete it.',
      )}</p>`,
    );
  }
  const link =
    dashboardUrl === undefined ? undefined : htmlLink('open it in the dashboard', dashboardUrl);
  const rows: [string, string][] = [
    ...(deployment === undefined
      ? []
      : ([
          ['Deployment', code(deployment.id)],
          ['Status', code(deployment.status)],
          ['Delete it', link ?? htmlText(`in the service, by its id ${deployment.id}`)],
        ] as [string, string][])),
    ...gitHubRows(retirement),
  ];
  parts.push(labelledTable(rows));
  return boundedSummary(parts);
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
    return { summary: retireSummaryHtml(report, retirement, io.redact) };
  } catch (error) {
    return {
      failure: io.redact(
        `${describeError(error)}\nNothing on GitHub was changed: re-run the job to retire the preview.`,
      ),
      ...(error instanceof Error && !(error instanceof ActionError) ? { stack: error.stack } : {}),
    };
  }
}
