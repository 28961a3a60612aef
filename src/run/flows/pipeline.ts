/**
 * The run as a pipeline: plan → deploy → wait → report. Each step is
 * a function that returns a value; what is known so far is kept in one
 * `RunRecord` (run-record.ts), which sets the outputs as soon as they are known and is what
 * the job summary is written from, whether the run succeeded or not.
 */
import { ActionError } from '../../common/errors.js';
import { isRedactable } from '../../common/redact.js';
import { untrusted, type Logger } from '../../common/runtime.js';
import { plural, shortSha } from '../../common/text.js';
import type { Plan } from '../../inputs/plan.js';
import type { RemedyWords } from '../../service/answers.js';
import { ServiceClient } from '../../service/client.js';
import { Service } from '../../service/endpoints.js';
import { proxyDispatcher } from '../../service/proxy.js';
import type { Deployment } from '../../service/schemas.js';
import { inGroup, type RunDependencies } from '../ports/dependencies.js';
import { RunEvents } from '../ports/events.js';
import { DEFAULT_WAIT } from '../ports/pace.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { deploy } from '../steps/deploy.js';
import { showValue } from '../steps/drift.js';
import { assess, blockedRemedy, blockedText, livenessFor, type Goal } from '../steps/goal.js';
import type { Liveness } from '../steps/live.js';
import { dryRunReport } from '../steps/report.js';
import { waitUntilLive } from '../steps/wait.js';
import { RunRecord } from './run-record.js';

/** What the steps are given: the service over HTTP, and the run's channel as their log and sink. */
export function dependenciesOf(
  plan: Pick<Plan, 'apiUrl' | 'headers'>,
  io: RunnerIO,
  events: RunEvents,
): RunDependencies {
  const { clock, signal } = io;
  const { logger } = events;
  const client = new ServiceClient({
    baseUrl: plan.apiUrl,
    headers: plan.headers,
    clock,
    logger,
    signal,
    redact: io.redact,
    dispatcher: proxyDispatcher(io.proxy),
    ...(io.pace === undefined ? {} : { retry: io.pace.retry }),
    ...(io.words === undefined ? {} : { words: io.words }),
  });
  return {
    service: new Service(client, logger, { mask: io.mask }),
    logger,
    clock,
    signal,
    events: events.emit,
    ...(io.pace === undefined ? {} : { wait: io.pace.wait }),
  };
}

/** Why a targeted commit is drift: the deployment will not build it. */
const BUILD_OFF = 'build_on_push is off: the service will not build this commit';

/**
 * One warning a difference. A difference in what runs (behaviour 21) fails
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
    const note = entry === goal.unbuilt ? ` (${BUILD_OFF})` : '';
    logger.warning(
      `drift: ${untrusted(entry.field)}: the step wants ${showValue(entry.wanted)}, the deployment has ${showValue(entry.live)}${note}`,
    );
  }
  const rest = drift.filter((entry) => !blocked.includes(entry));
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

/** Says which commit is live when another one superseded the target. */
function noteSuperseded(goal: Goal, verdict: Liveness, logger: Logger): void {
  if (!verdict.live || verdict.supersededBy === undefined || goal.target === undefined) return;
  const newer =
    goal.orders.of(verdict.supersededBy) === 'newer' ? 'a newer commit' : 'a newer push';
  logger.info(
    `commit ${shortSha(goal.target.sha)} was superseded by ${newer}: commit ${shortSha(untrusted(verdict.supersededBy))} is live instead`,
  );
}

/** Without a wait (not asked for, or a dry run): says when the target is not live yet. */
function noteLiveness(plan: Plan, deployment: Deployment, goal: Goal, logger: Logger): void {
  if (plan.waitForReady) logger.info('dry run: not waiting');
  const verdict = livenessFor(deployment, goal);
  noteSuperseded(goal, verdict, logger);
  // A deployment that will never run the target was already said so, in a warning.
  if (!verdict.live && goal.target !== undefined && goal.blocked.length === 0) {
    logger.notice(`commit ${shortSha(goal.target.sha)} is not live yet: ${verdict.missing}`);
  }
}

/** Waits, in a log group, until the deployment is live; the deployment as it ends up. */
export async function waitForLive(
  plan: Plan,
  deployment: Deployment,
  goal: Goal,
  dependencies: RunDependencies,
): Promise<Deployment> {
  const { logger } = dependencies;
  const what = goal.target === undefined ? '' : ` with commit ${shortSha(goal.target.sha)}`;
  const { deployment: live, verdict } = await inGroup(dependencies)(
    `Waiting until '${plan.name}' is live${what}`,
    'wait',
    () =>
      waitUntilLive(
        deployment,
        goal,
        { ...(dependencies.wait ?? DEFAULT_WAIT), timeoutMs: plan.waitTimeoutSeconds * 1000 },
        dependencies,
      ),
  );
  noteSuperseded(goal, verdict, logger);
  logger.info(`'${plan.name}' is live`);
  return live;
}

/**
 * Masks every sensitive value of the plan; one warning for each secret too
 * short or common to hide in text (`4`, `true`): it is sent, outputs redact
 * it by structure, but the service's own messages may show it.
 */
export function maskPlan(plan: Plan, io: RunnerIO, logger: Logger): void {
  for (const value of plan.sensitiveValues) io.mask(value);
  for (const secret of plan.secrets) {
    if (isRedactable(secret.value)) continue;
    logger.warning(
      `the value of secret ${secret.name} is too short or common to redact in text: outputs hide it, but it cannot be hidden in the service's own messages. Prefer a longer value if it is sensitive.`,
    );
  }
}

/** The plan's warnings (a `deployment_type` the action does not know), once each, before any request. */
export function warnOfPlan(plan: Plan, logger: Logger): void {
  for (const warning of plan.warnings) logger.warning(warning);
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
  record.deployed(result, goal);
  if (plan.dryRun) logger.info(dryRunReport(result));
  const found = result.deployment;
  const waits = found !== undefined && plan.waitForReady && !plan.dryRun;
  if (found !== undefined && !plan.dryRun) {
    record.reported = true;
    events.emit({ kind: 'deployed', report: record.report('deploying', waitingFor(goal, waits)) });
  }
  reportDrift(plan, goal, waits, logger, dependencies.service.words);
  if (found !== undefined && !waits) noteLiveness(plan, found, goal, logger);
  const deployment = waits
    ? await waitForLive(plan, found, goal, {
        ...dependencies,
        onPoll: (seen) => record.seen(seen),
      })
    : found;
  record.seen(deployment);
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
  return { failure, stack, summary: record.summary(io.run.commit, io.redact) };
}
