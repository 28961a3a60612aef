/**
 * What a plan writes for machines outside GitHub, from its verdicts: one
 * row a deployment (`planEntry`), flat for a plan of one (`planRow`: the
 * outputs of outputs.ts), or keyed for a manifest: one `--json` object
 * whose `plans` is the plan step's `plans` (each agent's plan by key,
 * `error` when its plan fails), with the manifest's `action` and `changes`
 * (the total); and a dotenv report of the manifest's
 * `DEPLOYMENT_PLAN_ACTION` and `DEPLOYMENT_CHANGES`, then each agent's id
 * and status (a plan has no URL and no liveness), the most useful first, so
 * that GitLab's limit on the number of variables cuts the least useful.
 */
import { keyedPlanOutputs, planEntry, plansByKey } from '../run/decisions/plan-outputs.js';
import type { PlanReport } from '../run/ports/progress.js';
import type { AgentPlanPart } from '../run/ports/summaries.js';
import { dotenvReport, type DotenvLeftOut } from './dotenv.js';
import { agentVariable, dotenvName, type Row } from './outputs.js';

/** A plan of one deployment as its outputs' values: `changes` as text, as the action's output. */
export function planRow({ verdict, dashboardUrl }: PlanReport): Row {
  const entry = planEntry(verdict, dashboardUrl);
  return { ...entry, changes: String(entry.changes) };
}

/** The `--json` object: the manifest's `action` and `changes`, `plans` by key, `error` when it failed. */
export function plansJson(
  plans: readonly AgentPlanPart[],
  error?: string,
): Record<string, unknown> {
  const { action, changes } = keyedPlanOutputs(plans);
  return {
    action: action ?? '',
    changes: changes ?? '',
    plans: plansByKey(plans),
    ...(error === undefined ? {} : { error }),
  };
}

/**
 * The report GitLab accepts and reads back exactly, at most `maxKeys`
 * variables, under 5 KB: `DEPLOYMENT_PLAN_ACTION`, `DEPLOYMENT_CHANGES`,
 * then each agent's `_ID`, then each agent's `_STATUS` (agents in the
 * manifest's order); no empty value; each variable left out with why.
 */
export function plansDotenv(
  plans: readonly AgentPlanPart[],
  maxKeys: number,
): { text: string; skipped: DotenvLeftOut[] } {
  const { action, changes } = keyedPlanOutputs(plans);
  const each = (part: 'ID' | 'STATUS', field: 'id' | 'status') =>
    plans.map(({ key, summary }): [string, string] => [
      agentVariable(key, part),
      summary?.verdict.deployment?.[field] ?? '',
    ]);
  const variables: [string, string][] = [
    [dotenvName('action'), action ?? ''],
    [dotenvName('changes'), changes ?? ''],
    ...each('ID', 'id'),
    ...each('STATUS', 'status'),
  ];
  return dotenvReport(variables, maxKeys);
}
