/**
 * The action's outputs, written for machines outside GitHub: one JSON object
 * on stdout (`--json`) and `KEY=value` lines for GitLab's dotenv report
 * (`--dotenv`). The outputs arrive already redacted by their structure (the
 * core replaces every secret value in `deployment` and `drift` by `***`);
 * nothing here redacts by substring, so that a secret `true` cannot turn
 * `created` into `***`.
 */
import { DOTENV_LIMIT_VARIABLES, dotenvRefusal, withinLimits } from './dotenv.js';
import { environmentName } from './options.js';

/** The outputs as the core sets them: each a string. */
export type OutputTexts = Readonly<Partial<Record<string, string>>>;

/** Outputs about GitHub (its deployment record): the action's alone. */
const ACTION_ONLY_OUTPUTS = new Set(['github-deployment-id']);
/** The order of the JSON object's fields: the plan's verdict, the deployment, its details last. */
const JSON_ORDER = [
  'action',
  'changes',
  'deployment-id',
  'status',
  'created',
  'live',
  'healthy',
  'health-status',
  'commit-sha',
  'latest-revision-id',
  'active-revision-id',
  'repo-url',
  'repo-ref',
  'url',
  'dashboard-url',
  'drift',
  'deployment',
  'plan',
];

function ordered(outputs: OutputTexts): [string, string | undefined][] {
  const rank = (name: string) => {
    const index = JSON_ORDER.indexOf(name);
    return index < 0 ? JSON_ORDER.length : index;
  };
  return Object.entries(outputs).sort(([a], [b]) => rank(a) - rank(b));
}

const BOOLEAN_OUTPUTS = new Set(['created', 'live']);
/** Outputs that are JSON text: objects in `--json`, and left out of `--dotenv`. */
const JSON_OUTPUTS = new Set(['drift', 'deployment', 'plan']);

function parsedJson(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // The core writes these as JSON; text that is not is kept as text rather than lost.
    return name === 'drift' ? [] : null;
  }
}

/**
 * The JSON object `--json` prints: each known output (`created` and `live`
 * as booleans, `healthy` too or null when not checked, `drift` as an array, `deployment` as an object, the others as
 * strings; the plan's `plan` as an object), and `error` when the run failed.
 */
export function outputsJson(outputs: OutputTexts, error?: string): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  for (const [name, text] of ordered(outputs)) {
    if (text === undefined || ACTION_ONLY_OUTPUTS.has(name)) continue;
    if (BOOLEAN_OUTPUTS.has(name)) json[name] = text === 'true';
    // Not checked: null, as the manifest's entries say it.
    else if (name === 'healthy') json[name] = text === '' ? null : text === 'true';
    else if (JSON_OUTPUTS.has(name)) json[name] = text === '' ? null : parsedJson(name, text);
    else json[name] = text;
  }
  if (error !== undefined) json.error = error;
  return json;
}

/** Outputs whose variable is not DEPLOYMENT_ + their name (the names docs/command.md gives them). */
const DOTENV_NAMES: Readonly<Record<string, string>> = {
  'deployment-id': 'id',
  // The plan's verdict: DEPLOYMENT_ACTION would say nothing of a plan.
  action: 'plan-action',
};

/**
 * An output's variable: `DEPLOYMENT_` + its name upper-cased, `-` as `_`
 * (`deployment-id` → `DEPLOYMENT_ID`; `commit-sha` → `DEPLOYMENT_COMMIT_SHA`;
 * `action` → `DEPLOYMENT_PLAN_ACTION`). Never an input's `DEPLOY_` variable:
 * GitLab lets a dotenv report's variables override a later job's, so an
 * output named `DEPLOY_DASHBOARD_URL` would become the next job's input.
 */
export function dotenvName(output: string): string {
  return `DEPLOYMENT_${environmentName(DOTENV_NAMES[output] ?? output)}`;
}

/** An output `--dotenv` leaves out, and why in plain words (never its value). */
export interface DotenvSkip {
  name: string;
  variable: string;
  reason: string;
}

/**
 * The outputs as a dotenv report GitLab accepts and reads back exactly:
 * `KEY=value` lines, no blank line, no comment, no JSON value (so no
 * `drift`, `deployment` nor `plan`), no empty value (an unset variable reads the
 * same in a later job), and no value GitLab would change or expand
 * (`dotenvRefusal`), within GitLab's limits (`withinLimits`: at most
 * `maxKeys` variables, under 5 KB).
 */
export function outputsDotenv(
  outputs: OutputTexts,
  maxKeys: number = DOTENV_LIMIT_VARIABLES,
): { text: string; skipped: DotenvSkip[] } {
  const variables: [string, string][] = [];
  const skipped: DotenvSkip[] = [];
  for (const [name, text] of ordered(outputs)) {
    if (
      text === undefined ||
      text === '' ||
      ACTION_ONLY_OUTPUTS.has(name) ||
      JSON_OUTPUTS.has(name)
    ) {
      continue;
    }
    const refusal = dotenvRefusal(text);
    if (refusal === undefined) variables.push([dotenvName(name), text]);
    else skipped.push({ name, variable: dotenvName(name), reason: refusal });
  }
  const { text, leftOut } = withinLimits(variables, maxKeys);
  for (const { variable, reason } of leftOut) {
    const name = Object.keys(outputs).find((each) => dotenvName(each) === variable) ?? variable;
    skipped.push({ name, variable, reason });
  }
  return { text, skipped };
}
