/**
 * What a run writes for machines outside GitHub, rendered from its values:
 * one JSON object on stdout (`--json`) and `KEY=value` lines for GitLab's
 * dotenv report (`--dotenv`). One row a deployment (`deploymentRow`: its
 * outputs as values), laid out flat for a run of one, or keyed by agent for
 * a manifest: `deployments` holds each agent's entry (the action's
 * `deployments` output) and its row, `live` and `healthy` the manifest's;
 * its report is `DEPLOYMENT_LIVE` and four variables an agent, the most
 * useful first, so that GitLab's limit on the number of variables cuts the
 * least useful. A plan's row is `planRow`; a plan of several agents writes
 * the plan step's `plans` by key with the manifest's `action` and `changes`
 * (the total), and as variables those two, then each agent's id and status
 * (a plan has no URL and no liveness). The values arrive redacted by their
 * structure (every secret value in `deployment` and `drift` is `***`);
 * nothing here redacts by substring, so that a secret `true` cannot turn
 * `created` into `***`.
 */
import { keyedPlanOutputs, planEntry, plansByKey } from '../run/decisions/plan-outputs.js';
import { redactDeployment, repositoryOf, dashboardUrlOf } from '../run/decisions/report.js';
import type { DeploymentEntry } from '../run/ports/findings.js';
import type { PlanReport } from '../run/ports/progress.js';
import type { AgentPlanPart, DeploymentSummary } from '../run/ports/summaries.js';
import { DOTENV_LIMIT_VARIABLES, dotenvReport, type DotenvLeftOut } from './dotenv.js';
import { environmentName } from './options.js';

/** A deployment's (or a plan's) outputs as values, by output name. */
export type Row = Readonly<Record<string, unknown>>;

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

/** The row's outputs in the JSON object's order, without those about GitHub. */
function ordered(row: Row): [string, unknown][] {
  const rank = (name: string) => {
    const index = JSON_ORDER.indexOf(name);
    return index < 0 ? JSON_ORDER.length : index;
  };
  return Object.entries(row)
    .filter(([name, value]) => value !== undefined && !ACTION_ONLY_OUTPUTS.has(name))
    .sort(([a], [b]) => rank(a) - rank(b));
}

/**
 * One deployment's row from its result as far as known: the outputs the
 * deploy sets, `created` and `live` as booleans, `healthy` too or null when
 * not checked, `drift` as an array, `deployment` as an object; none before
 * the deployment was found or created.
 */
export function deploymentRow(known: DeploymentSummary): Row {
  const { result, deployment: latest, liveness, spec } = known;
  if (result === undefined) return {};
  const health = liveness?.health;
  const repository = repositoryOf(result);
  const deployment = latest && {
    'deployment-id': latest.id,
    status: latest.status,
    'commit-sha': latest.source_revision_config.repo_commit_sha ?? '',
    'latest-revision-id': latest.latest_revision_id ?? '',
    'active-revision-id': latest.active_revision_id ?? '',
    url: latest.source_config.custom_url ?? '',
    'dashboard-url': dashboardUrlOf(spec.dashboardUrl, latest) ?? '',
    deployment: redactDeployment(latest),
  };
  return {
    ...deployment,
    created: result.created,
    live: liveness?.live === true,
    healthy: health === undefined ? null : health.ok,
    'health-status': String(health?.status ?? ''),
    'repo-url': repository.url ?? '',
    'repo-ref': repository.ref ?? '',
    drift: known.drift ?? [],
  };
}

/** The `--json` object of a run of one: its row in order, and `error` when the run failed. */
export function outputsJson(row: Row, error?: string): Record<string, unknown> {
  return { ...Object.fromEntries(ordered(row)), ...(error === undefined ? {} : { error }) };
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

/** A value as a dotenv report writes it: text, a number or a boolean; '' for the others. */
function dotenvValue(value: unknown): string {
  return ['string', 'number', 'boolean'].includes(typeof value) ? String(value) : '';
}

/**
 * The report of a run of one, as GitLab accepts and reads it back exactly
 * (`dotenvReport`): each output of its row in order but the JSON ones
 * (`drift`, `deployment`, `plan`) and the empty ones; each left out with why.
 */
export function outputsDotenv(
  row: Row,
  maxKeys: number = DOTENV_LIMIT_VARIABLES,
): { text: string; skipped: (DotenvLeftOut & { name: string })[] } {
  const names = ordered(row).map(([name, value]) => [name, dotenvValue(value)] as const);
  const { text, skipped } = dotenvReport(
    names.map(([name, value]) => [dotenvName(name), value]),
    maxKeys,
  );
  const nameOf = (variable: string) =>
    names.find(([name]) => dotenvName(name) === variable)?.[0] ?? variable;
  return { text, skipped: skipped.map((each) => ({ name: nameOf(each.variable), ...each })) };
}

/**
 * A manifest: every agent in its order (its entry in the action's `deployments`, its row, why it
 * failed), whether all are live, whether those checked answered.
 */
export interface ManifestRows {
  agents: readonly { key: string; entry?: DeploymentEntry; row: Row; error?: string }[];
  live: boolean;
  healthy: boolean | null;
}

/**
 * The `--json` object of a manifest: each agent's object by key (every field
 * of the action's entry, so that the same `jq` reads both, then its row and
 * `error`), `live`, `healthy`, and `error` when the run failed.
 */
export function keyedJson(manifest: ManifestRows, error?: string): Record<string, unknown> {
  const deployments = manifest.agents.map(({ key, entry, row, error: failure }) => [
    key,
    { ...entry, ...outputsJson(row, failure) },
  ]);
  return {
    deployments: Object.fromEntries(deployments),
    live: manifest.live,
    healthy: manifest.healthy,
    ...(error === undefined ? {} : { error }),
  };
}

/** The output each of an agent's variables holds, by the end of the variable's name. */
const AGENT_PARTS = { ID: 'deployment-id', URL: 'url', STATUS: 'status', LIVE: 'live' } as const;

/** An agent's variable: `DEPLOYMENT_AGENT_` + its key upper-cased, `-` as `_`, + what it holds. */
export function agentVariable(key: string, part: keyof typeof AGENT_PARTS): string {
  return `DEPLOYMENT_AGENT_${environmentName(key)}_${part}`;
}

/**
 * The report of a manifest, in the order variables are kept when GitLab's
 * limit cuts: `DEPLOYMENT_LIVE` (and `DEPLOYMENT_HEALTHY` when an agent was
 * checked), then each agent's id and URL, then each agent's status and
 * whether it is live (agents in the manifest's order; `false` until its run
 * says otherwise); each variable left out with why.
 */
export function keyedDotenv(
  manifest: ManifestRows,
  maxKeys: number,
): { text: string; skipped: DotenvLeftOut[] } {
  const variables = (parts: readonly (keyof typeof AGENT_PARTS)[]) =>
    manifest.agents.flatMap(({ key, row }) =>
      parts.map((part): [string, string] => [
        agentVariable(key, part),
        part === 'LIVE' ? String(row.live === true) : dotenvValue(row[AGENT_PARTS[part]]),
      ]),
    );
  const healthy: [string, string][] =
    manifest.healthy === null ? [] : [['DEPLOYMENT_HEALTHY', String(manifest.healthy)]];
  return dotenvReport(
    [
      ['DEPLOYMENT_LIVE', String(manifest.live)],
      ...healthy,
      ...variables(['ID', 'URL']),
      ...variables(['STATUS', 'LIVE']),
    ],
    maxKeys,
  );
}

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
