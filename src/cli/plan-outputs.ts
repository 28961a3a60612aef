/**
 * What a plan of several agents writes for machines outside GitHub, from
 * each agent's plan: one `--json` object whose `plans` is the plan step's
 * `plans` (each agent's plan by key, `error` when its plan fails), with the
 * manifest's `action` and `changes` (the total); and a dotenv report of the
 * manifest's `DEPLOYMENT_PLAN_ACTION` and `DEPLOYMENT_CHANGES`, then each
 * agent's id and status (a plan has no URL and no liveness), the most
 * useful first, so that GitLab's limit on the number of variables cuts the
 * least useful. A plan of one deployment writes its outputs (outputs.ts).
 */
import { plansByKey } from '../run/decisions/plan-outputs.js';
import type { AgentPlanPart } from '../run/ports/summaries.js';
import { agentVariable } from './agents-outputs.js';
import { dotenvReport, type DotenvLeftOut } from './dotenv.js';
import { dotenvName, type OutputTexts } from './outputs.js';

/** The `--json` object: the manifest's `action` and `changes`, `plans` by key, `error` when it failed. */
export function plansJson(
  outputs: OutputTexts,
  plans: readonly AgentPlanPart[],
  error?: string,
): Record<string, unknown> {
  return {
    action: outputs.action ?? '',
    changes: outputs.changes ?? '',
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
  outputs: OutputTexts,
  plans: readonly AgentPlanPart[],
  maxKeys: number,
): { text: string; skipped: DotenvLeftOut[] } {
  const each = (part: 'ID' | 'STATUS', field: 'id' | 'status') =>
    plans.map(({ key, summary }): [string, string] => [
      agentVariable(key, part),
      summary?.verdict.deployment?.[field] ?? '',
    ]);
  const variables: [string, string][] = [
    [dotenvName('action'), outputs.action ?? ''],
    [dotenvName('changes'), outputs.changes ?? ''],
    ...each('ID', 'id'),
    ...each('STATUS', 'status'),
  ];
  return dotenvReport(variables, maxKeys);
}
