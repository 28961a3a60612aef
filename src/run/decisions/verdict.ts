/**
 * The plan's verdict: what the deploy step would
 * do with these inputs, found by the deploy step's own dry run, so that it
 * sends GET requests only and decides exactly as the deploy would.
 *
 * - `create`: no deployment has the name; the request body the deploy would
 *   send, secret values replaced by `***`.
 * - `reuse`: every difference the deploy would not apply (its drift), the
 *   branch the deployment tracks and whether a push there builds.
 * - `fail`: what the deploy would fail on before a POST, with the deployment
 *   it found, if any.
 */
import { ActionError } from '../../common/errors.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import { ServiceError } from '../../service/errors.js';
import { redactDeployment } from './report.js';
import { deploy, NotReusableError } from './deploy.js';
import type { RunDependencies } from '../ports/dependencies.js';
import { shownDrift, type Verdict } from '../ports/findings.js';
import { assess, blockedIn, blockedRemedy, blockedText } from './goal.js';

/** What a codehost deployment that does not build on push does with the merged commit. */
const UNBUILT_MERGE =
  'build_on_push is off, so the service will not build the merged commit, and a deploy that targets it (commit: auto on the branch the deployment tracks) is not live. Turn build_on_push on for the deployment in the service.';

/** Why the plan targets no commit, in the code host's word for the change (a merge request on GitLab). */
const merge = (changeRequest: string) =>
  `a plan describes the deploy a merge starts: a push to the branch the deployment tracks, not a commit of the ${changeRequest}`;

/**
 * What the deploy step would do with `plan`: its own dry run, with no commit
 * targeted (the merge's deploy is a push to the branch the deployment tracks).
 * A failure of the service itself (a 5xx after retries, a 401) is thrown: it
 * says nothing of what the deploy would do.
 */
export async function verdictOf(spec: DeploySpec, dependencies: RunDependencies): Promise<Verdict> {
  const dryRun: DeploySpec = {
    ...spec,
    dryRun: true,
    waitForReady: false,
    commit: { kind: 'none', reason: merge(dependencies.service.words.changeRequest) },
  };
  let result;
  try {
    result = await deploy(dryRun, dependencies);
  } catch (error) {
    if (error instanceof NotReusableError) {
      return { action: 'fail', deployment: error.deployment, changes: [], reason: error.message };
    }
    if (error instanceof ActionError && !(error instanceof ServiceError)) {
      return { action: 'fail', changes: [], reason: error.message };
    }
    throw error;
  }
  const found = result.deployment;
  if (found === undefined) {
    return { action: 'create', request: redactDeployment(result.request), changes: [] };
  }
  const goal = await assess(
    dryRun,
    result,
    dependencies.logger,
    undefined,
    dependencies.service.words,
  );
  const buildsOnPush = found.source === 'codehost' && found.source_config.build_on_push === true;
  const wouldFail = [
    ...(blockedIn(goal.drift).length === 0 ? [] : [`${blockedText(goal)}. ${blockedRemedy(goal)}`]),
    ...(found.source === 'codehost' && !buildsOnPush ? [UNBUILT_MERGE] : []),
  ];
  return {
    action: 'reuse',
    deployment: found,
    changes: goal.drift.map(shownDrift),
    tracks: { branch: found.source_revision_config.repo_ref ?? undefined, buildsOnPush },
    ...(wouldFail.length === 0
      ? {}
      : { wouldFail: `the deploy on merge would fail: ${wouldFail.join(' ')}` }),
  };
}
