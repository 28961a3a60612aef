/**
 * The run as a pipeline: spec → deploy → wait → report. Each step is
 * a function that returns a value; what is known so far is kept in one
 * `RunRecord` (run-record.ts), which sets the outputs as soon as they are known and is what
 * the job summary is written from, whether the run succeeded or not.
 */
import { ActionError } from '../../common/errors.js';
import { untrusted, type Logger } from '../../common/runtime.js';
import { plural, shortSha } from '../../common/text.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import type { RemedyWords } from '../../service/answers.js';
import type { RunDependencies } from '../ports/dependencies.js';
import type { Deployment } from '../../service/schemas.js';
import { RunEvents } from '../ports/events.js';
import type { Liveness } from '../ports/findings.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { deploy } from '../decisions/deploy.js';
import { showValue } from '../decisions/drift.js';
import {
  assess,
  blockedIn,
  blockedRemedy,
  blockedText,
  decideLive,
  type Goal,
} from '../decisions/goal.js';
import { dryRunReport } from '../decisions/report.js';
import { noteHealth, noteSuperseded, waitForLive, withHealth } from './live-wait.js';
import { RunRecord } from './run-record.js';
import { dependenciesOf, maskSpec, warnOfSpec } from './setup.js';

/** Why a targeted commit is drift: the deployment will not build it. */
const BUILD_OFF = 'build_on_push is off: the service will not build this commit';

/**
 * One warning a difference. A difference in what runs (the reused deployment never runs what the step asks for) fails
 * the step at once when it waits, else it is one more warning; `on-drift:
 * fail` fails on every difference, what runs included, after all are reported and before any wait; `on-drift: warn`
 * lets the rest pass with a line.
 */
function reportDrift(
  spec: DeploySpec,
  goal: Goal,
  waits: boolean,
  logger: Logger,
  words: RemedyWords,
): void {
  const { drift } = goal;
  const blocked = blockedIn(drift);
  for (const entry of drift) {
    const note = entry.kind === 'unbuilt' ? ` (${BUILD_OFF})` : '';
    logger.warning(
      `drift: ${untrusted(entry.field)}: ${words.asker} wants ${showValue(entry.wanted)}, the deployment has ${showValue(entry.live)}${note}`,
    );
  }
  const rest = drift.filter((entry) => !entry.blocks);
  const fields = rest.map((entry) => untrusted(entry.field)).join(', ');
  const advice = `The service cannot update a deployment: change ${plural(rest.length, 'it', 'them')} in the service, or deploy under a new name.`;
  const fails = spec.onDrift === 'fail';
  if (blocked.length > 0) {
    const message = `Deployment '${spec.name}' is not live and will not be: ${blockedText(goal)}. ${blockedRemedy(goal)}`;
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
      `Deployment '${spec.name}' differs from what ${words.asker} asks for (${words.onDriftFail}): ${fields}. ${advice}`,
    );
  }
  logger.info(
    `${rest.length} ${plural(rest.length, 'difference')} not applied: ${fields}. ${advice}`,
  );
}

/**
 * Without a wait (not asked for, or a dry run): says when the target is not
 * live yet, and that a health check asked for was not made then.
 */
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

/** What the step waits for, said once the deployment is found or created. */
function waitingFor(goal: Goal, waits: boolean): string | undefined {
  if (!waits) return undefined;
  return goal.target === undefined
    ? 'the deployment to be live'
    : `commit ${shortSha(goal.target.sha)} to be live`;
}

/**
 * What the run of one agent among several shares with the others: a slot to
 * find or create in (a few agents at once), and the dependencies made once
 * for all of them (one status request a check for every waiting agent, the
 * repository listing once).
 */
export interface SharedWork {
  /** Resolves once a slot is free, to the function that frees it. */
  take(): Promise<() => void>;
  dependencies: Partial<RunDependencies>;
}

/** A run's hold on a shared slot: freed before the wait (a waiting agent holds none), and at the end. */
async function slotOf(share: SharedWork | undefined): Promise<() => void> {
  if (share === undefined) return () => undefined;
  const release = await share.take();
  let held = true;
  return () => {
    if (held) release();
    held = false;
  };
}

/** The steps of a run, each feeding the record; throws on any failure. */
async function steps(
  spec: DeploySpec,
  io: RunnerIO,
  events: RunEvents,
  record: RunRecord,
  share: { release: () => void; dependencies?: Partial<RunDependencies> },
): Promise<void> {
  const { logger } = events;
  maskSpec(spec, io, logger);
  warnOfSpec(spec, logger);
  const dependencies = { ...dependenciesOf(spec, io, events), ...share.dependencies };
  const result = await deploy(spec, dependencies, {
    onRequest: (request) => (record.request = request),
    onCreated: (created) => record.created(created),
  });
  // A dry run checks nothing of the deployment's address.
  const asked = spec.dryRun ? { ...spec, health: undefined } : spec;
  const goal = withHealth(
    await assess(spec, result, logger, io.commitOrder, dependencies.service.words),
    asked,
    dependencies,
    io.proxy,
  );
  const found = result.deployment;
  // Decided once for the deployment found or created; the wait decides it for each one it sees.
  const liveness = found && (await decideLive(found, goal));
  record.deployed(result, goal, liveness);
  if (spec.dryRun) logger.info(dryRunReport(result));
  const waits = found !== undefined && spec.waitForReady && !spec.dryRun;
  tellDeployed(record, events, waitingFor(goal, waits));
  reportDrift(spec, goal, waits, logger, dependencies.service.words);
  if (liveness !== undefined && !waits) noteLiveness(spec, goal, liveness, dependencies);
  share.release();
  const last =
    waits && liveness !== undefined
      ? await waitForLive(spec, found, liveness, goal, {
          ...dependencies,
          onPoll: (seen, verdict) => record.seen(seen, verdict),
        })
      : { deployment: found, liveness };
  record.seen(last.deployment, last.liveness);
  const { deployment } = last;
  if (deployment !== undefined) logger.info(finalLine(spec.name, result.created, deployment));
}

/**
 * The deploy's last line: created or reused, the id, the status, and the
 * address when the deployment has one it may publish (the vetted deployment's
 * `custom_url`: none when it was withheld for holding a secret).
 */
function finalLine(name: string, created: boolean, deployment: Deployment): string {
  const url = deployment.source_config.custom_url;
  const at = url === undefined || url === null || url === '' ? '' : ` at ${untrusted(url)}`;
  return `${created ? 'created' : 'reused'} '${name}': ${deployment.id} (${untrusted(deployment.status)})${at}`;
}

/**
 * Tells the views, once, that the run has a deployment (found, or created
 * by it): they are then told how the run ends. A dry run tells nothing.
 */
function tellDeployed(record: RunRecord, events: RunEvents, waitingFor?: string): void {
  if (record.reported || record.deployment === undefined || record.spec.dryRun) return;
  record.reported = true;
  events.emit({ kind: 'deployed', report: record.report('deploying', waitingFor) });
}

/**
 * Deploys what the spec asks for; never throws: how it ended is in the
 * outcome. `share` is given when the run is one agent's among several.
 */
export async function pipeline(
  spec: DeploySpec,
  io: RunnerIO,
  share?: SharedWork,
): Promise<RunOutcome> {
  const events = new RunEvents(io.views, io.redact);
  const record = new RunRecord(spec, (outputs, deployment) =>
    events.emit({ kind: 'outputs', outputs, deployment }),
  );
  const release = await slotOf(share);
  try {
    await steps(spec, io, events, record, { release, dependencies: share?.dependencies });
  } catch (error) {
    record.failed(error, io.redact);
  } finally {
    release();
  }
  // A deployment this run created exists whatever failed after its create was answered (the
  // look-up after it, a cancel): the adapter is told of it, so GitHub's record names it too.
  tellDeployed(record, events);
  if (record.reported) events.emit({ kind: 'finished', report: record.report(record.stage) });
  await events.settled();
  const { failure, stack } = record;
  return { failure, stack, summary: record.summary(io.run.commit) };
}
