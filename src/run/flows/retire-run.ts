/**
 * The retire, of one preview or of a manifest's: each deployment looked up by its exact name
 * (read-only), the adapter told to retire them where it showed them once every one is looked
 * up. Nothing here deletes or stops anything, and nothing says so: the service's interface has
 * no delete, and the deployment keeps running until someone deletes it there.
 */
import { failedWith } from './run-record.js';
import { untrusted, type Logger } from '../../common/runtime.js';
import type { RetireAsked } from '../../inputs/retire-inputs.js';
import { findDeployment } from '../decisions/find.js';
import { withEvents, type RunEvents } from '../ports/events.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { dependenciesOf, maskValues } from './setup.js';
import type {
  AgentRetireReport,
  ReportRetired,
  RetiredDeployment,
  RetireReport,
  Retirement,
} from '../ports/progress.js';
import type { RetiredPreview } from '../ports/summaries.js';
import { dashboardUrlOf } from '../decisions/report.js';
import { runAgents } from './each-agent.js';
import { inSlot } from '../decisions/shared-work.js';

/** As retire/action.yml declares them. */
export const RETIRE_OUTPUT_NAMES = [
  'deployment-id',
  'status',
  'dashboard-url',
  'retired',
  // A manifest's, keyed by agent.
  'deployments',
] as const;
type RetireOutputs = Partial<Record<(typeof RETIRE_OUTPUT_NAMES)[number], string>>;

/** What still exists in the service, and where to delete it. */
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

/** Never throws. */
function retireOne(
  access: Omit<RetireAsked, 'agents' | 'layout' | 'source'>,
  name: string,
  io: RunnerIO,
  retired: ((report: RetireReport) => Promise<Retirement>) | undefined,
): Promise<RunOutcome> {
  return withEvents(io, async (events: RunEvents) => {
    const { logger } = events;
    const outputs = (values: RetireOutputs) => events.emit({ kind: 'outputs', outputs: values });
    try {
      maskValues(access, io);
      const dependencies = dependenciesOf(access, io, events);
      const deployment = await findDeployment(name, dependencies);
      const dashboardUrl = deployment && dashboardUrlOf(access.dashboardUrl, deployment);
      const found = deployment && { deployment, dashboardUrl };
      const report: RetireReport = { name, deployments: found === undefined ? [] : [found] };
      outputs({
        'deployment-id': deployment?.id ?? '',
        status: deployment?.status ?? '',
        'dashboard-url': dashboardUrl ?? '',
      });
      logLine(name, found, logger);
      const retirement = await retired?.(report);
      outputs({ retired: String(retirement?.inactive ?? 0) });
      const preview = { report, ...(retirement === undefined ? {} : { retirement }) };
      return { summary: { kind: 'retire', previews: [preview] } };
    } catch (error) {
      const after = '\nNothing on GitHub was changed: re-run the job to retire the preview.';
      return failedWith(error, io.redact, after);
    }
  });
}

const NOTHING: Retirement = { found: 0, inactive: 0, more: false, comment: 'skipped' };

/** Each one's retirement waits until every one is looked up or over; then one call retires them. */
class RetiredTogether {
  readonly #pending: Set<string>;
  readonly #reports: AgentRetireReport[] = [];
  readonly #all: Promise<ReadonlyMap<string, Retirement>>;
  #start: () => void = () => undefined;

  constructor(asked: Pick<RetireAsked, 'agents' | 'layout'>, hook: ReportRetired) {
    this.#pending = new Set(asked.agents.map(({ key }) => key));
    // None looked up: nothing on GitHub is changed, as for a retire that failed.
    this.#all = new Promise<void>((resolve) => (this.#start = resolve)).then(() =>
      this.#reports.length === 0
        ? new Map<string, Retirement>()
        : hook({ layout: asked.layout, reports: this.#reports }).catch(
            () => new Map<string, Retirement>(),
          ),
    );
  }

  retiredOf(key: string, looked: () => void) {
    return async (report: RetireReport): Promise<Retirement> => {
      looked();
      this.#reports.push({ key, report });
      this.over(key);
      return (await this.#all).get(key) ?? NOTHING;
    };
  }

  over(key: string): void {
    if (!this.#pending.delete(key)) return;
    if (this.#pending.size === 0) this.#start();
  }
}

/** None found: empty. */
function rowOf(summary: RetiredPreview | undefined) {
  const found = summary?.report.deployments[0];
  return {
    'deployment-id': found?.deployment.id ?? '',
    status: found?.deployment.status ?? '',
    'dashboard-url': found?.dashboardUrl ?? '',
    retired: summary?.retirement?.inactive ?? 0,
  };
}

/** The manifest's outputs: `deployments` keyed by agent, `retired` the total, the flat ones empty. */
function keyedOutputs(
  agents: RetireAsked['agents'],
  summaries: readonly (RetiredPreview | undefined)[],
): RetireOutputs {
  const entries = agents.map(({ key, name }, at) => [key, { name, ...rowOf(summaries[at]) }]);
  // An environment several agents share is one set of records: counted once.
  const byEnvironment = new Map<string, number>();
  for (const { retirement } of summaries.flatMap((summary) => summary ?? [])) {
    if (retirement?.environment !== undefined)
      byEnvironment.set(retirement.environment, retirement.inactive);
  }
  const retired = [...byEnvironment.values()].reduce((sum, count) => sum + count, 0);
  return {
    deployments: JSON.stringify(Object.fromEntries(entries)),
    retired: String(retired),
    'deployment-id': '',
    status: '',
    'dashboard-url': '',
  };
}

function summaryOf(outcome: RunOutcome | undefined): RetiredPreview | undefined {
  return outcome?.summary?.kind === 'retire' ? outcome.summary.previews[0] : undefined;
}

/** Never throws: how it ended is in the outcome. */
export async function runRetire(asked: RetireAsked, io: RunnerIO): Promise<RunOutcome> {
  const together = io.retired === undefined ? undefined : new RetiredTogether(asked, io.retired);
  return runAgents(
    asked,
    io,
    async (agent, own, share) => {
      // The slot goes back once the agent is looked up: the others' lookups need it.
      try {
        return await inSlot(share, (release) =>
          retireOne(asked, agent.name, own, together?.retiredOf(agent.key, release)),
        );
      } finally {
        together?.over(agent.key);
      }
    },
    (events) => ({
      access: asked,
      allEnded: (all) =>
        events.emit({ kind: 'outputs', outputs: keyedOutputs(asked.agents, all.map(summaryOf)) }),
      summary: (outcomes) => ({
        kind: 'retire',
        previews: outcomes.flatMap((outcome) => summaryOf(outcome) ?? []),
      }),
    }),
  );
}
