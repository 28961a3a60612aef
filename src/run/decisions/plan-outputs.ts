/**
 * What a plan hands to later steps, rendered from its verdicts: one row a
 * deployment (`planEntry`), laid out flat for a step without `agents`
 * (`plan` as one line of JSON, `action`, `changes`, the deployment's id,
 * status and dashboard), or keyed for a manifest: `plans`, one line of JSON
 * keyed by agent (each agent's row, `error` when its plan fails), `changes`
 * the total, and `action`: `fail` when any agent's deploy would fail, else
 * the one action all agree on, else `mixed`. A plan that could not be made
 * for an agent is no verdict: the manifest's `action` and `changes` then say
 * nothing, rather than speak for it.
 */
import type { PlanAction, Verdict } from '../ports/findings.js';
import type { AgentPlanPart } from '../ports/summaries.js';
import { dashboardUrlOf } from './report.js';

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

/** One deployment's plan as data: what the deploy would do, to what, with which differences. */
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
            changes: verdict.changes.map(({ field, wanted, live }) => ({ field, wanted, live })),
            reason: verdict.reason ?? null,
          },
  };
}

/** The flat outputs of a verdict: `plan` as one line of JSON, secrets by name only. */
export function planOutputs(verdict: Verdict, dashboardUrl: string | undefined): PlanOutputs {
  const { plan, action, changes, ...rest } = planEntry(verdict, dashboardUrl);
  return { plan: JSON.stringify(plan), action, changes: String(changes), ...rest };
}

/** Each agent's row of the keyed `plans`, by key, in the manifest's order. */
export function plansByKey(
  parts: readonly AgentPlanPart[],
): Record<string, Record<string, unknown>> {
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

/** The manifest's action from each agent's, or undefined when one has none. */
function actionOf(actions: readonly (PlanAction | undefined)[]): PlanAction | 'mixed' | undefined {
  if (actions.some((action) => action === undefined)) return undefined;
  if (actions.includes('fail')) return 'fail';
  const [first] = actions;
  return actions.every((action) => action === first) ? first : 'mixed';
}

/** The keyed outputs of a manifest's plans, in the manifest's order. */
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
