/**
 * A plan's outputs: one row a deployment (`planEntry`), flat, or keyed for a manifest
 * (`plans`; `action`: `fail` when any would fail, else the one all agree on, else `mixed`).
 * An agent with no plan made is no verdict: `action` and `changes` then say nothing.
 */
import type { PlanAction, Verdict } from '../ports/findings.js';
import type { AgentPlanPart } from '../ports/summaries.js';
import { dashboardUrlOf } from './report.js';

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
            changes: verdict.changes.map(({ field, wanted, live }) => ({ field, wanted, live })),
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
