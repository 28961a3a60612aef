/** The run as a pipeline: spec → deploy → wait → report, each step feeding one `RunRecord`. */
import { untrusted, type Logger } from '../../common/runtime.js';
import { shortSha } from '../../common/text.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import type { RemedyWords } from '../../service/answers.js';
import type { RunDependencies } from '../ports/dependencies.js';
import type { Deployment } from '../../service/schemas.js';
import { RunEvents } from '../ports/events.js';
import { inSlot, type SharedWork } from '../decisions/shared-work.js';
import type { Liveness } from '../ports/findings.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { flatSummary } from '../ports/summaries.js';
import { deploy } from '../decisions/deploy.js';
import { showValue } from '../decisions/drift.js';
import { assess, blockedIn, decideLive, type Goal } from '../decisions/goal.js';
import { neverLive, stepFailure, unappliedFields, unappliedLine } from '../decisions/green.js';
import { dryRunReport } from '../decisions/report.js';
import { noteHealth, noteSuperseded, waitForLive, withHealth } from './live-wait.js';
import { RunRecord } from './run-record.js';
import { dependenciesOf, maskAndWarn } from './setup.js';

/** Why a targeted commit is drift: the deployment will not build it. */
const BUILD_OFF = 'build_on_push is off: the service will not build this commit';

/**
 * One warning a difference; then, when the step goes on, that the deployment will never run
 * what the step asks for, and which differences were not applied.
 */
function reportDrift(
  goal: Goal,
  failure: string | undefined,
  { logger, words, name }: { logger: Logger; words: RemedyWords; name: string },
): void {
  for (const entry of goal.drift) {
    const note = entry.kind === 'unbuilt' ? ` (${BUILD_OFF})` : '';
    logger.warning(
      `drift: ${untrusted(entry.field)}: ${words.asker} wants ${showValue(entry.wanted)}, the deployment has ${showValue(entry.live)}${note}`,
    );
  }
  if (failure !== undefined) return;
  if (blockedIn(goal.drift).length > 0) logger.warning(neverLive(name, goal));
  const fields = unappliedFields(goal);
  if (fields.length > 0) logger.info(unappliedLine(fields));
}

/** Without a wait (not asked for, or a dry run): the target not live yet, a health check not made. */
function noteLiveness(
  spec: DeploySpec,
  goal: Goal,
  liveness: Liveness,
  { logger, service }: Pick<RunDependencies, 'logger' | 'service'>,
): void {
  if (spec.waitForReady) logger.info('dry run: not waiting');
  noteSuperseded(goal, liveness, logger);
  // A deployment that will never run the target was already said so, in a warning.
  const unsaid = goal.target !== undefined && blockedIn(goal.drift).length === 0;
  if (!liveness.live && liveness.health === undefined && unsaid && goal.target !== undefined) {
    logger.notice(`commit ${shortSha(goal.target.sha)} is not live yet: ${liveness.missing}`);
  }
  noteHealth(spec, liveness, logger, service.words);
}

function waitingFor(goal: Goal, waits: boolean): string | undefined {
  if (!waits) return undefined;
  return goal.target === undefined
    ? 'the deployment to be live'
    : `commit ${shortSha(goal.target.sha)} to be live`;
}

/** Why the step fails on this deployment (`stepFailure`), or undefined; throws when it cannot go on. */
async function steps(
  spec: DeploySpec,
  io: RunnerIO,
  events: RunEvents,
  record: RunRecord,
  share: { release: () => void; dependencies?: Partial<RunDependencies> },
): Promise<string | undefined> {
  const { logger } = events;
  maskAndWarn(spec, io, logger);
  const dependencies = { ...dependenciesOf(spec, io, events), ...share.dependencies };
  const result = await deploy(spec, dependencies, {
    onRequest: (request) => record.requested(request),
    onCreated: (created) => record.created(created),
  });
  const { words } = dependencies.service;
  // A dry run checks nothing of the deployment's address.
  const asked = spec.dryRun ? { ...spec, health: undefined } : spec;
  const goal = withHealth(
    await assess(spec, result, logger, io.commitOrder, words),
    asked,
    dependencies,
    io.proxy,
  );
  const found = result.deployment;
  // Decided once for the deployment found or created; the wait decides it for each one it sees.
  const liveness = found && (await decideLive(found, goal));
  record.deployed(result, goal, liveness);
  if (spec.dryRun) logger.info(dryRunReport(result));
  const policy = {
    waits: found !== undefined && spec.waitForReady && !spec.dryRun,
    onDrift: spec.onDrift,
  };
  tellDeployed(record, events, waitingFor(goal, policy.waits));
  const early = stepFailure({ name: spec.name, goal }, policy, words);
  reportDrift(goal, early, { logger, words, name: spec.name });
  if (early !== undefined) return early;
  if (liveness !== undefined && !policy.waits) noteLiveness(spec, goal, liveness, dependencies);
  share.release();
  const last =
    policy.waits && found !== undefined && liveness !== undefined
      ? await waitForLive(spec, found, liveness, goal, {
          ...dependencies,
          onPoll: (seen, verdict) => record.seen(seen, verdict),
        })
      : { deployment: found, liveness, failure: undefined };
  record.seen(last.deployment, last.liveness);
  const failure = stepFailure(
    { name: spec.name, goal, liveness: last.liveness, waitFailure: last.failure },
    policy,
    words,
  );
  const { deployment } = last;
  if (failure === undefined && deployment !== undefined) {
    logger.info(finalLine(spec.name, result.created, deployment));
  }
  return failure;
}

/** The deploy's last line; the vetted `custom_url` is absent when withheld for holding a secret. */
function finalLine(name: string, created: boolean, deployment: Deployment): string {
  const url = deployment.source_config.custom_url;
  const at = url === undefined || url === null || url === '' ? '' : ` at ${untrusted(url)}`;
  return `${created ? 'created' : 'reused'} '${name}': ${deployment.id} (${untrusted(deployment.status)})${at}`;
}

/** Tells the views, once, that the run has a deployment: they are then told how it ends. */
function tellDeployed(record: RunRecord, events: RunEvents, waitingFor?: string): void {
  if (!record.toReport()) return;
  events.emit({ kind: 'deployed', report: record.report('deploying', waitingFor) });
}

/** Deploys what the spec asks for; never throws. `share`: one agent's run among several. */
export async function pipeline(
  spec: DeploySpec,
  io: RunnerIO,
  share?: SharedWork,
): Promise<RunOutcome> {
  const events = new RunEvents(io.views, io.redact);
  const record = new RunRecord(spec, (outputs, deployment) =>
    events.emit({ kind: 'outputs', outputs, deployment }),
  );
  // Freed before the wait (a waiting agent holds none), and at the end.
  const dependencies = share?.dependencies;
  await inSlot(share, (release) =>
    record.settle(() => steps(spec, io, events, record, { release, dependencies }), io.redact),
  );
  // A deployment this run created exists whatever failed after its create was answered (the
  // look-up after it, a cancel): the adapter is told of it, so GitHub's record names it too.
  tellDeployed(record, events);
  if (record.reported) events.emit({ kind: 'finished', report: record.report(record.stage) });
  await events.settled();
  return record.outcome(flatSummary(record.summary(io.run.commit)));
}
