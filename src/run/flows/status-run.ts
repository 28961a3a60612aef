/**
 * `deploy-agent status`: the deployment named exactly `name`, reported as the deploy reports
 * one it reuses; it never creates nor changes anything, and asks nothing of it but to be live.
 */
import { ActionError } from '../../common/errors.js';
import { untrusted } from '../../common/runtime.js';
import type { StatusAsked, StatusRequest } from '../../inputs/status-inputs.js';
import type { Deployment } from '../../service/schemas.js';
import { RunEvents } from '../ports/events.js';
import type { Liveness } from '../ports/findings.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { findDeployment } from '../decisions/find.js';
import { decideLive, ONLY_LIVE } from '../decisions/goal.js';
import { healthNotMade } from '../decisions/health.js';
import { flatSummary, type DeployedResult, type DeploymentSummary } from '../ports/summaries.js';
import { outputsOf, type Outputs } from '../decisions/report.js';
import { stepFailure } from '../decisions/green.js';
import { noteHealth, waitForLive, withHealth } from './live-wait.js';
import { inSlot, type SharedWork } from '../decisions/shared-work.js';
import { RunEnding } from './run-record.js';
import { runEach } from './deploy-run.js';
import { dependenciesOf, maskValues } from './setup.js';

type SetOutputs = (outputs: Outputs, deployment: DeploymentSummary | undefined) => void;

class StatusRecord extends RunEnding {
  /** The deployment as first found: reused, and asked nothing. */
  #found?: DeployedResult;
  readonly #request: StatusRequest;
  readonly #setOutputs: SetOutputs;

  constructor(request: StatusRequest, setOutputs: SetOutputs) {
    super();
    this.#request = request;
    this.#setOutputs = setOutputs;
  }

  /** The first deployment seen is the one found. */
  seen(deployment: Deployment, liveness: Liveness): void {
    const found = (this.#found ??= { deployment, created: false });
    this.deployment = deployment;
    this.liveness = liveness;
    const assessment = { live: liveness.live, drift: [], health: liveness.health };
    const outputs = outputsOf(found, deployment, assessment, this.#request.dashboardUrl);
    this.#setOutputs(outputs, this.summary(undefined));
  }

  /** The summary, as the deploy's of a deployment it reused; none when no deployment has the name. */
  summary(commit: string | undefined): DeploymentSummary | undefined {
    const deployment = this.deployment;
    if (deployment === undefined) return undefined;
    const { name, dashboardUrl } = this.#request;
    return {
      spec: { name, source: deployment.source, dryRun: false, dashboardUrl },
      result: this.#found,
      deployment,
      liveness: this.liveness,
      healthNotMade: healthNotMade(this.#request, this.liveness),
      drift: [],
      failure: this.failure,
      commit,
    };
  }
}

/** Looks up, and waits when asked; why the step fails (`stepFailure`); throws when it cannot go on. */
async function lookUp(
  request: StatusRequest,
  io: RunnerIO,
  events: RunEvents,
  record: StatusRecord,
  share: SharedWork | undefined,
): Promise<string | undefined> {
  const { logger } = events;
  const { name } = request;
  maskValues(request, io);
  const dependencies = { ...dependenciesOf(request, io, events), ...share?.dependencies };
  // Among several agents, a few look up at once; a waiting agent holds no slot.
  const found = await inSlot(share, () => findDeployment(name, dependencies));
  if (found === undefined) {
    throw new ActionError(`No deployment is named '${name}' (names match exactly, case included).`);
  }
  // Decided once for the deployment found; the wait decides it for each one it sees.
  const goal = withHealth(ONLY_LIVE, request, dependencies, io.proxy);
  const liveness = await decideLive(found, goal);
  record.seen(found, liveness);
  if (!request.waitForReady) noteHealth(request, liveness, logger, dependencies.service.words);
  const last = request.waitForReady
    ? await waitForLive(request, found, liveness, goal, {
        ...dependencies,
        onPoll: (seen, verdict) => record.seen(seen, verdict),
      })
    : { deployment: found, liveness, failure: undefined };
  record.seen(last.deployment, last.liveness);
  const failure = stepFailure(
    { name, liveness: last.liveness, waitFailure: last.failure },
    { waits: request.waitForReady, onDrift: 'warn' },
    dependencies.service.words,
  );
  if (failure !== undefined) return failure;
  const live = last.liveness.live ? 'live' : `not live: ${last.liveness.missing}`;
  logger.info(
    `deployment '${name}': ${last.deployment.id} (${untrusted(last.deployment.status)}), ${live}`,
  );
  return undefined;
}

/** `share`: one agent's run among several. */
export async function status(
  request: StatusRequest,
  io: RunnerIO,
  share?: SharedWork,
): Promise<RunOutcome> {
  const events = new RunEvents(io.views, io.redact);
  const record = new StatusRecord(request, (outputs, deployment) =>
    events.emit({ kind: 'outputs', outputs, ...(deployment && { deployment }) }),
  );
  await record.settle(() => lookUp(request, io, events, record, share), io.redact);
  await events.settled();
  const summary = record.summary(io.run.commit);
  return record.outcome(summary && flatSummary(summary));
}

/** `status` of every agent asked for, its outputs and summary a deploy's; never throws. */
export async function runStatus(asked: StatusAsked, io: RunnerIO): Promise<RunOutcome> {
  // An agent whose deployment was not found shows its name and why (no source: status does
  // not know it then).
  return runEach(
    asked,
    io,
    (agent, own, share) => status(agent.spec, own, share),
    ({ spec }) => ({
      name: spec.name,
      source: 'codehost',
      dryRun: false,
      dashboardUrl: spec.dashboardUrl,
    }),
  );
}
