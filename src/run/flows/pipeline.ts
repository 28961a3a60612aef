/**
 * The run as a pipeline: plan → deploy → wait → report. Each step is
 * a function that returns a value; what is known so far is kept in one
 * `RunRecord` (run-record.ts), which sets the outputs as soon as they are known and is what
 * the job summary is written from, whether the run succeeded or not.
 */
import { ActionError } from '../../common/errors.js';
import { untrusted, type Logger } from '../../common/runtime.js';
import { plural, shortSha } from '../../common/text.js';
import type { Plan } from '../../inputs/plan.js';
import type { RemedyWords } from '../../service/answers.js';
import { RunEvents } from '../ports/events.js';
import type { Liveness } from '../ports/findings.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { deploy } from '../steps/deploy.js';
import { showValue } from '../steps/drift.js';
import { assess, blockedRemedy, blockedText, decideLive, type Goal } from '../steps/goal.js';
import { dryRunReport } from '../steps/report.js';
import { noteSuperseded, waitForLive } from './live-wait.js';
import { RunRecord } from './run-record.js';
import { dependenciesOf, maskPlan, warnOfPlan } from './service-access.js';

/** Why a targeted commit is drift: the deployment will not build it. */
const BUILD_OFF = 'build_on_push is off: the service will not build this commit';

/**
 * One warning a difference. A difference in what runs (the reused deployment never runs what the step asks for) fails
 * the step at once when it waits, else it is one more warning; `on-drift:
 * fail` fails on every difference, what runs included ("Corrections
 * (v1.5)"), after all are reported and before any wait; `on-drift: warn`
 * lets the rest pass with a line.
 */
function reportDrift(
  plan: Plan,
  goal: Goal,
  waits: boolean,
  logger: Logger,
  words: RemedyWords,
): void {
  const { drift, blocked } = goal;
  for (const entry of drift) {
    const note = entry.kind === 'unbuilt' ? ` (${BUILD_OFF})` : '';
    logger.warning(
      `drift: ${untrusted(entry.field)}: the step wants ${showValue(entry.wanted)}, the deployment has ${showValue(entry.live)}${note}`,
    );
  }
  const rest = drift.filter((entry) => !entry.blocks);
  const fields = rest.map((entry) => untrusted(entry.field)).join(', ');
  const advice = `The service cannot update a deployment: change ${plural(rest.length, 'it', 'them')} in the service, or deploy under a new name.`;
  const fails = plan.onDrift === 'fail';
  if (blocked.length > 0) {
    const message = `Deployment '${plan.name}' is not live and will not be: ${blockedText(goal)}. ${blockedRemedy(goal)}`;
    if (waits || fails) {
      const also =
        fails && rest.length > 0 ? ` It also differs (${words.onDriftFail}): ${fields}.` : '';
      throw new ActionError(`${message}${also}`);
    }
    logger.warning(message);
  }
  if (rest.length === 0) return;
  if (fails) {
    throw new ActionError(
      `Deployment '${plan.name}' differs from what the step asks for (${words.onDriftFail}): ${fields}. ${advice}`,
    );
  }
  logger.info(
    `${rest.length} ${plural(rest.length, 'difference')} not applied: ${fields}. ${advice}`,
  );
}

/** Without a wait (not asked for, or a dry run): says when the target is not live yet. */
function noteLiveness(plan: Plan, goal: Goal, liveness: Liveness, logger: Logger): void {
  if (plan.waitForReady) logger.info('dry run: not waiting');
  noteSuperseded(goal, liveness, logger);
  // A deployment that will never run the target was already said so, in a warning.
  if (!liveness.live && goal.target !== undefined && goal.blocked.length === 0) {
    logger.notice(`commit ${shortSha(goal.target.sha)} is not live yet: ${liveness.missing}`);
  }
}

/** What the step waits for, said once the deployment is found or created. */
function waitingFor(goal: Goal, waits: boolean): string | undefined {
  if (!waits) return undefined;
  return goal.target === undefined
    ? 'the deployment to be live'
    : `commit ${shortSha(goal.target.sha)} to be live`;
}

/** The steps of a run, each feeding the record; throws on any failure. */
async function steps(
  plan: Plan,
  io: RunnerIO,
  events: RunEvents,
  record: RunRecord,
): Promise<void> {
  const { logger } = events;
  maskPlan(plan, io, logger);
  warnOfPlan(plan, logger);
  const dependencies = dependenciesOf(plan, io, events);
  const result = await deploy(plan, dependencies, (request) => (record.request = request));
  const goal = await assess(plan, result, logger, io.commitOrder);
  const found = result.deployment;
  // Decided once for the deployment found or created; the wait decides it for each one it sees.
  const liveness = found && (await decideLive(found, goal));
  record.deployed(result, goal, liveness);
  if (plan.dryRun) logger.info(dryRunReport(result));
  const waits = found !== undefined && plan.waitForReady && !plan.dryRun;
  if (found !== undefined && !plan.dryRun) {
    record.reported = true;
    events.emit({ kind: 'deployed', report: record.report('deploying', waitingFor(goal, waits)) });
  }
  reportDrift(plan, goal, waits, logger, dependencies.service.words);
  if (liveness !== undefined && !waits) noteLiveness(plan, goal, liveness, logger);
  const last =
    waits && liveness !== undefined
      ? await waitForLive(plan, found, liveness, goal, {
          ...dependencies,
          onPoll: (seen, verdict) => record.seen(seen, verdict),
        })
      : { deployment: found, liveness };
  record.seen(last.deployment, last.liveness);
  const { deployment } = last;
  if (deployment !== undefined) {
    logger.info(
      `${result.created ? 'created' : 'reused'} deployment '${plan.name}': ${deployment.id} (${untrusted(deployment.status)})`,
    );
  }
}

/** Deploys what the plan asks for; never throws: how it ended is in the outcome. */
export async function pipeline(plan: Plan, io: RunnerIO): Promise<RunOutcome> {
  const events = new RunEvents(io.views, io.redact);
  const record = new RunRecord(plan, (outputs) => events.emit({ kind: 'outputs', outputs }));
  try {
    await steps(plan, io, events, record);
  } catch (error) {
    record.failed(error, io.redact);
  }
  if (record.reported) events.emit({ kind: 'finished', report: record.report(record.stage) });
  await events.settled();
  const { failure, stack } = record;
  return { failure, stack, summary: record.summary(io.run.commit) };
}
