/**
 * The plan as a run: the verdict, its outputs and what its summary shows
 * (src/views/ renders it), and whether the step fails (on `fail`, or on a
 * difference with `on-change: fail`), after the outputs are written. A plan
 * that cannot be made is no verdict: the step fails, and the adapter is
 * told so that its comment stops speaking for an earlier commit.
 */
import { ActionError, CancelledError, describeError } from '../../common/errors.js';
import { untrusted, type Logger } from '../../common/runtime.js';
import { plural } from '../../common/text.js';
import type { PlanRequest } from '../../inputs/plan-inputs.js';
import type { RemedyWords } from '../../service/answers.js';
import { showValue } from '../decisions/drift.js';
import type { RunDependencies } from '../ports/dependencies.js';
import { withEvents, type RunEvents } from '../ports/events.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { dependenciesOf, maskSpec, warnOfSpec } from './setup.js';
import { dashboardUrlOf } from '../decisions/report.js';
import type { Verdict } from '../ports/findings.js';
import type { PlanSummary } from '../ports/summaries.js';
import { verdictOf } from '../decisions/verdict.js';

/** The names of the plan's outputs, as plan/action.yml declares them. */
export const PLAN_OUTPUT_NAMES = [
  'plan',
  'action',
  'changes',
  'deployment-id',
  'status',
  'dashboard-url',
  'plans',
] as const;
export type PlanOutputs = Partial<Record<(typeof PLAN_OUTPUT_NAMES)[number], string>>;

/** `count` differences, the noun agreeing: `1 difference`, `2 differences`. */
const differences = (count: number) => `${count} ${plural(count, 'difference')}`;

/** The outputs of a verdict: `plan` as one line of JSON, secrets by name only. */
export function planOutputs(verdict: Verdict, dashboardUrl: string | undefined): PlanOutputs {
  const { deployment } = verdict;
  const plan = {
    action: verdict.action,
    'deployment-id': deployment?.id ?? null,
    changes: verdict.changes.map(({ field, wanted, live }) => ({ field, wanted, live })),
    reason: verdict.reason ?? null,
  };
  return {
    plan: JSON.stringify(plan),
    action: verdict.action,
    changes: String(verdict.changes.length),
    'deployment-id': deployment?.id ?? '',
    status: deployment?.status ?? '',
    'dashboard-url':
      deployment === undefined ? '' : (dashboardUrlOf(dashboardUrl, deployment) ?? ''),
  };
}

/** The verdict in one log line a difference, and one for the verdict. */
function logVerdict(
  name: string,
  verdict: Verdict,
  logger: Logger,
  words: Pick<RemedyWords, 'asker'>,
): void {
  if (verdict.action === 'create') {
    logger.info(`plan: '${name}' does not exist: the deploy would create it`);
    return;
  }
  if (verdict.action === 'fail') {
    logger.info(`plan: the deploy would fail before creating anything`);
    return;
  }
  for (const { field, wanted, live } of verdict.changes) {
    logger.info(
      `plan: ${untrusted(field)}: ${words.asker} wants ${showValue(wanted)}, the deployment has ${showValue(live)}; not applied`,
    );
  }
  const branch = verdict.tracks?.branch;
  const builds = verdict.tracks?.buildsOnPush === true;
  logger.info(
    `plan: the deploy would reuse ${verdict.deployment?.id ?? ''} with ${differences(verdict.changes.length)} it would not apply` +
      (branch === undefined
        ? ''
        : `; it tracks ${untrusted(branch)}, and a push there ${builds ? 'builds a new revision' : 'builds nothing (build_on_push is off)'}`),
  );
  if (verdict.wouldFail !== undefined) logger.warning(`plan: ${verdict.wouldFail}`);
}

/**
 * Runs the plan; never throws: how it ended is in the outcome. `shared` is
 * what the plans of several agents share (the repository listing once).
 */
export async function runPlan(
  request: PlanRequest,
  io: RunnerIO,
  shared: Partial<RunDependencies> = {},
): Promise<RunOutcome> {
  return withEvents(io, (events) => planned(request, io, events, shared));
}

/** The plan's steps, its verdict or its failure told to the views. */
async function planned(
  { spec, onChange }: PlanRequest,
  io: RunnerIO,
  events: RunEvents,
  shared: Partial<RunDependencies>,
): Promise<RunOutcome> {
  const { logger } = events;
  try {
    maskSpec(spec, io, logger);
    warnOfSpec(spec, logger);
    const dependencies = { ...dependenciesOf(spec, io, events), ...shared };
    // Not a group of its own: the deploy's dry run opens its groups, and GitHub does not nest them.
    const phase = { phase: 'plan', grouped: false } as const;
    events.emit({ kind: 'phase', ...phase, message: `Planning the deploy of '${spec.name}'` });
    const verdict = await verdictOf(spec, dependencies);
    events.emit({ kind: 'phase_over', ...phase });
    events.emit({ kind: 'outputs', outputs: planOutputs(verdict, spec.dashboardUrl) });
    logVerdict(spec.name, verdict, logger, dependencies.service.words);
    const report = {
      name: spec.name,
      verdict,
      ...(spec.dashboardUrl === undefined ? {} : { dashboardUrl: spec.dashboardUrl }),
    };
    events.emit({ kind: 'planned', report });
    const failure =
      verdict.action === 'fail'
        ? io.redact(verdict.reason ?? 'the deploy would fail')
        : onChange === 'fail' && verdict.changes.length > 0
          ? `The deploy of '${spec.name}' would not apply ${differences(verdict.changes.length)} (${dependencies.service.words.onChangeFail}): ${verdict.changes.map((change) => untrusted(change.field)).join(', ')}. The service cannot update a deployment: change ${plural(verdict.changes.length, 'it', 'them')} in the service, or deploy under a new name.`
          : undefined;
    const summary: PlanSummary = { kind: 'plan', ...report };
    return { failure, summary };
  } catch (error) {
    const failure = io.redact(describeError(error));
    // No verdict, and no output: none is known (the dry run fails before it finds a deployment),
    // and `action` or `changes` would speak for a plan that was not made. The comment stops
    // speaking for an earlier commit; a cancelled run was stopped, not refused, and is left alone.
    if (!(error instanceof CancelledError) && !io.signal.aborted) {
      const { head } = io.run;
      events.emit({
        kind: 'planned',
        report: {
          name: spec.name,
          failure,
          ...(head?.kind === 'branch' ? { head: head.sha } : {}),
        },
      });
    }
    return {
      failure,
      ...(error instanceof Error && !(error instanceof ActionError) ? { stack: error.stack } : {}),
    };
  }
}
