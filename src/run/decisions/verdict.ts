/** The plan's verdict, found by the deploy's own dry run: GET requests only, decided exactly as the deploy would. */
import { ActionError } from '../../common/errors.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import { ServiceError } from '../../service/errors.js';
import { redactDeployment } from './report.js';
import { deploy, NotReusableError } from './deploy.js';
import type { RunDependencies } from '../ports/dependencies.js';
import { shownDrift, type Verdict } from '../ports/findings.js';
import { assess, blockedIn, blockedRemedy, blockedText } from './goal.js';

const UNBUILT_MERGE =
  'build_on_push is off, so the service will not build the merged commit, and a deploy that targets it (commit: auto on the branch the deployment tracks) is not live. Turn build_on_push on for the deployment in the service.';

const merge = (changeRequest: string) =>
  `a plan describes the deploy a merge starts: a push to the branch the deployment tracks, not a commit of the ${changeRequest}`;

/** A failure of the service itself (a 5xx after retries, a 401) is thrown: it says nothing of the deploy. */
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
