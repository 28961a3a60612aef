/**
 * The plan's verdict, found by the deploy's own dry run (GET requests only, decided exactly
 * as the deploy would), and its outputs: one row a deployment (`planEntry`), flat, or keyed for a manifest
 * (`plans`; `action`: `fail` when any would fail, else the one all agree on, else `mixed`).
 * An agent with no plan made is no verdict: `action` and `changes` then say nothing.
 */
import { ActionError } from '../../common/errors.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import { ServiceError } from '../../service/errors.js';
import type { RunDependencies } from '../ports/dependencies.js';
import { shownDrift, type PlanAction, type Verdict } from '../ports/findings.js';
import type { AgentPlanPart } from '../ports/summaries.js';
import { deploy, NotReusableError } from './deploy.js';
import { assess, blockedIn, blockedRemedy, blockedText } from './goal.js';
import { dashboardUrlOf, redactDeployment } from './report.js';

/** As plan/action.yml declares them. */
export const PLAN_OUTPUT_NAMES = [
  'plan',
  'action',
  'changes',
  'deployment-id',
  'status',
  'dashboard-url',
  'plans',
] as const;
type PlanOutputs = Partial<Record<(typeof PLAN_OUTPUT_NAMES)[number], string>>;

export function planEntry(verdict: Verdict | undefined, dashboardUrl: string | undefined) {
  const deployment = verdict?.deployment;
  return {
    action: verdict?.action ?? '',
    changes: verdict?.changes.length ?? 0,
    'deployment-id': deployment?.id ?? '',
    status: deployment?.status ?? '',
    'dashboard-url':
      deployment === undefined ? '' : (dashboardUrlOf(dashboardUrl, deployment) ?? ''),
    plan:
      verdict === undefined
        ? null
        : {
            action: verdict.action,
            'deployment-id': deployment?.id ?? null,
            changes: verdict.changes.map(shownDrift),
            reason: verdict.reason ?? null,
          },
  };
}

/** Secrets by name only. */
export function planOutputs(verdict: Verdict, dashboardUrl: string | undefined): PlanOutputs {
  const { plan, action, changes, ...rest } = planEntry(verdict, dashboardUrl);
  return { plan: JSON.stringify(plan), action, changes: String(changes), ...rest };
}

export function plansByKey(parts: readonly AgentPlanPart[]) {
  return Object.fromEntries(
    parts.map((part) => [
      part.key,
      {
        name: part.name,
        ...planEntry(part.summary?.verdict, part.summary?.dashboardUrl),
        ...(part.failure === undefined ? {} : { error: part.failure }),
      },
    ]),
  );
}

function actionOf(actions: readonly (PlanAction | undefined)[]): PlanAction | 'mixed' | undefined {
  if (actions.some((action) => action === undefined)) return undefined;
  if (actions.includes('fail')) return 'fail';
  const [first] = actions;
  return actions.every((action) => action === first) ? first : 'mixed';
}

export function keyedPlanOutputs(parts: readonly AgentPlanPart[]): Record<string, string> {
  const verdicts = parts.map((part) => part.summary?.verdict);
  const action = actionOf(verdicts.map((verdict) => verdict?.action));
  const changes = verdicts.reduce((sum, verdict) => sum + (verdict?.changes.length ?? 0), 0);
  return {
    plan: '',
    'deployment-id': '',
    status: '',
    plans: JSON.stringify(plansByKey(parts)),
    action: action ?? '',
    changes: action === undefined ? '' : String(changes),
  };
}

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
  const { logger, service } = dependencies;
  const goal = await assess(dryRun, result, logger, undefined, service.words);
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
