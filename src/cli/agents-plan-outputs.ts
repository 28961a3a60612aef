/**
 * What a plan of several agents writes for machines outside GitHub: one
 * `--json` object whose `plans` is the plan step's `plans` output (each
 * agent's plan by key, `error` when its plan fails), with the manifest's
 * `action` and `changes` (the total); and a dotenv report of the manifest's
 * `DEPLOYMENT_PLAN_ACTION` and `DEPLOYMENT_CHANGES`, then each agent's id
 * and status (a plan has no URL and no liveness), the most useful first,
 * so that GitLab's limit on the number of variables cuts the least useful.
 */
import { agentVariable } from './agents-outputs.js';
import { dotenvReport, type DotenvLeftOut } from './dotenv.js';
import { dotenvName, type OutputTexts } from './outputs.js';

/** One agent's entry of the `plans` output, as far as the dotenv report reads it. */
type PlanEntry = Readonly<Record<string, unknown>>;

/** The `plans` output, parsed; empty when there is none yet (or it is not JSON). */
function plansOf(text: string | undefined): Record<string, PlanEntry> {
  if (text === undefined || text === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, PlanEntry>)
      : {};
  } catch {
    return {};
  }
}

/** The `--json` object: the manifest's `action` and `changes`, `plans` by key, `error` when it failed. */
export function agentsPlanJson(outputs: OutputTexts, error?: string): Record<string, unknown> {
  return {
    action: outputs.action ?? '',
    changes: outputs.changes ?? '',
    plans: plansOf(outputs.plans),
    ...(error === undefined ? {} : { error }),
  };
}

/** An entry's text field, or empty. */
function textOf(entry: PlanEntry, field: string): string {
  const value = entry[field];
  return typeof value === 'string' ? value : '';
}

/**
 * The report GitLab accepts and reads back exactly, at most `maxKeys`
 * variables, under 5 KB: `DEPLOYMENT_PLAN_ACTION`, `DEPLOYMENT_CHANGES`,
 * then each agent's `_ID`, then each agent's `_STATUS` (agents in the
 * manifest's order); no empty value; each variable left out with why.
 */
export function agentsPlanDotenv(
  outputs: OutputTexts,
  maxKeys: number,
): { text: string; skipped: DotenvLeftOut[] } {
  const plans = Object.entries(plansOf(outputs.plans));
  const each = (part: 'ID' | 'STATUS', field: string) =>
    plans.map(([key, entry]): [string, string] => [agentVariable(key, part), textOf(entry, field)]);
  const variables: [string, string][] = [
    [dotenvName('action'), outputs.action ?? ''],
    [dotenvName('changes'), outputs.changes ?? ''],
    ...each('ID', 'deployment-id'),
    ...each('STATUS', 'status'),
  ];
  return dotenvReport(variables, maxKeys);
}
