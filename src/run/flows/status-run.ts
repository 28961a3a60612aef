/**
 * `deploy-agent status` as a run: the deployment named exactly `name`, looked
 * up over the same service client, wait and outputs as the deploy, reported
 * as the deploy would report it; it never creates nor changes anything.
 */
import { ActionError } from '../../common/errors.js';
import { untrusted } from '../../common/runtime.js';
import type { Plan } from '../../inputs/plan.js';
import { inGroup } from '../ports/dependencies.js';
import { RunEvents } from '../ports/events.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { CommitOrders } from '../steps/commit-order.js';
import { buildCreateRequest, pickOne, type DeployResult } from '../steps/deploy.js';
import type { Goal } from '../steps/goal.js';
import { dependenciesOf, maskPlan, waitForLive } from './pipeline.js';
import { RunRecord } from './run-record.js';

/** `deploy-agent status`: the deployment named exactly `name`, reported as `deploy` would. */
export async function status(plan: Plan, io: RunnerIO): Promise<RunOutcome> {
  const events = new RunEvents(io.views, io.redact);
  const { logger } = events;
  const record = new RunRecord(plan, (outputs) => events.emit({ kind: 'outputs', outputs }), {
    sourceFromDeployment: true,
  });
  try {
    maskPlan(plan, io, logger);
    const dependencies = dependenciesOf(plan, io, events);
    const found = await inGroup(dependencies)(
      `Looking for deployment '${plan.name}'`,
      'find',
      async () => pickOne(await dependencies.service.findByName(plan.name), plan.name, logger),
    );
    if (found === undefined) {
      throw new ActionError(
        `No deployment is named '${plan.name}' (names match exactly, case included).`,
      );
    }
    // What `deploy` would have found: a reused deployment, nothing asked of it but to be live.
    const result: DeployResult = {
      deployment: found,
      created: false,
      request: { ...buildCreateRequest(plan), source: found.source },
    };
    // No target, so no commit order to ask (the command has no GitHub API).
    const goal: Goal = {
      seenRevisions: new Set(),
      drift: [],
      blocked: [],
      orders: new CommitOrders(undefined, undefined, undefined, logger),
    };
    record.deployed(result, goal);
    const deployment = plan.waitForReady
      ? await waitForLive(plan, found, goal, {
          ...dependencies,
          onPoll: (seen) => record.seen(seen),
        })
      : found;
    record.seen(deployment);
    const verdict = record.liveness;
    const live = verdict === undefined || verdict.live ? 'live' : `not live: ${verdict.missing}`;
    logger.info(
      `deployment '${plan.name}': ${deployment.id} (${untrusted(deployment.status)}), ${live}`,
    );
  } catch (error) {
    record.failed(error, io.redact);
  }
  await events.settled();
  const { failure, stack } = record;
  return { failure, stack, summary: record.summary(io.run.commit, io.redact) };
}
