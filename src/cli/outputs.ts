/**
 * What a run writes for machines outside GitHub: `--json` and GitLab's dotenv report (`--dotenv`),
 * from a row of outputs a deployment (or plan), flat for a run of one, keyed by agent for a
 * manifest. The values arrive redacted by structure (every secret value in `deployment` and `drift`
 * is `***`); nothing here redacts by substring, so a secret `true` cannot turn `created` into `***`.
 */
import { keyedPlanOutputs, planEntry, plansByKey } from '../run/decisions/plan-outputs.js';
import { manifestLiveness, outputsOf, redactDeployment } from '../run/decisions/report.js';
import type { EventView } from '../run/ports/events.js';
import type { DeploymentEntry, SkippedEntry } from '../run/ports/findings.js';
import type { PlanReport } from '../run/ports/progress.js';
import type { AgentPlanPart, DeploymentSummary } from '../run/ports/summaries.js';
import { DOTENV_LIMIT_VARIABLES, dotenvReport, type DotenvLeftOut } from './dotenv.js';
import { environmentName } from './option-table.js';

export type Row = Readonly<Record<string, unknown>>;

/** About GitHub's deployment record: the action's alone. */
const ACTION_ONLY_OUTPUTS = new Set(['github-deployment-id']);
/** The plan's verdict, the deployment, its details last. */
const JSON_ORDER = (
  'action changes deployment-id status created live healthy health-status commit-sha ' +
  'latest-revision-id active-revision-id repo-url repo-ref url dashboard-url drift deployment plan'
).split(' ');

function ordered(row: Row): [string, unknown][] {
  const rank = (name: string) => {
    const index = JSON_ORDER.indexOf(name);
    return index < 0 ? JSON_ORDER.length : index;
  };
  return Object.entries(row)
    .filter(([name, value]) => value !== undefined && !ACTION_ONLY_OUTPUTS.has(name))
    .sort(([a], [b]) => rank(a) - rank(b));
}

/** The deploy's outputs, typed (`healthy` null when not checked); none before the deployment was found or created. */
function deploymentRow({ result, deployment, liveness, spec, drift = [] }: DeploymentSummary): Row {
  if (result === undefined) return {};
  const live = liveness?.live === true;
  const health = liveness?.health;
  return {
    ...outputsOf(result, deployment, { live, drift, health }, spec.dashboardUrl),
    created: result.created,
    live,
    healthy: health === undefined ? null : health.ok,
    drift,
    ...(deployment && { deployment: redactDeployment(deployment) }),
  };
}

export function outputsJson(row: Row, error?: string): Record<string, unknown> {
  return { ...Object.fromEntries(ordered(row)), ...(error === undefined ? {} : { error }) };
}

/** As docs/command.md names them. */
const DOTENV_NAMES: Readonly<Record<string, string>> = {
  'deployment-id': 'id',
  // The plan's verdict: DEPLOYMENT_ACTION would say nothing of a plan.
  action: 'plan-action',
};

/**
 * `DEPLOYMENT_` + the output's name (`commit-sha` → `DEPLOYMENT_COMMIT_SHA`),
 * never an input's `DEPLOY_`: GitLab lets a dotenv report's variables override
 * a later job's, so `DEPLOY_DASHBOARD_URL` would become the next job's input.
 */
export function dotenvName(output: string): string {
  return `DEPLOYMENT_${environmentName(DOTENV_NAMES[output] ?? output)}`;
}

function dotenvValue(value: unknown): string {
  return ['string', 'number', 'boolean'].includes(typeof value) ? String(value) : '';
}

/** Each output of the row in order, but the JSON ones (`drift`, `deployment`, `plan`) and the empty ones. */
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

interface ManifestRows {
  agents: readonly { key: string; entry?: DeploymentEntry; row: Row; error?: string }[];
  /** null: no agent deployed. */
  live: boolean | null;
  healthy: boolean | null;
}

const isSkipped = (entry: DeploymentEntry | undefined): entry is SkippedEntry =>
  entry !== undefined && 'skipped' in entry;

/** Each agent's object by key: every field of the action's entry (so one `jq` reads both), then its row. */
export function keyedJson(manifest: ManifestRows, error?: string): Record<string, unknown> {
  const deployments = manifest.agents.map(({ key, entry, row, error: failure }) => [
    key,
    isSkipped(entry) ? entry : { ...entry, ...outputsJson(row, failure) },
  ]);
  return {
    deployments: Object.fromEntries(deployments),
    live: manifest.live,
    healthy: manifest.healthy,
    ...(error === undefined ? {} : { error }),
  };
}

const AGENT_PARTS = { ID: 'deployment-id', URL: 'url', STATUS: 'status', LIVE: 'live' } as const;

export function agentVariable(key: string, part: keyof typeof AGENT_PARTS | 'SKIPPED'): string {
  return `DEPLOYMENT_AGENT_${environmentName(key)}_${part}`;
}

/**
 * In the order GitLab's limit keeps them: `DEPLOYMENT_LIVE` (`_HEALTHY`), ids and URLs (an
 * unchanged agent's `_SKIPPED` instead), statuses and lives.
 */
export function keyedDotenv(
  manifest: ManifestRows,
  maxKeys: number,
): { text: string; skipped: DotenvLeftOut[] } {
  const variables = (parts: readonly (keyof typeof AGENT_PARTS)[]) =>
    manifest.agents.flatMap(({ key, entry, row }): [string, string][] => {
      if (isSkipped(entry))
        return parts[0] === 'ID' ? [[agentVariable(key, 'SKIPPED'), entry.skipped]] : [];
      return parts.map((part) => [
        agentVariable(key, part),
        part === 'LIVE' ? String(row.live === true) : dotenvValue(row[AGENT_PARTS[part]]),
      ]);
    });
  const healthy: [string, string][] =
    manifest.healthy === null ? [] : [['DEPLOYMENT_HEALTHY', String(manifest.healthy)]];
  return dotenvReport(
    [
      ['DEPLOYMENT_LIVE', manifest.live === null ? '' : String(manifest.live)],
      ...healthy,
      ...variables(['ID', 'URL']),
      ...variables(['STATUS', 'LIVE']),
    ],
    maxKeys,
  );
}

/** `changes` as text, as the action's output. */
function planRow({ verdict, dashboardUrl }: PlanReport): Row {
  const entry = planEntry(verdict, dashboardUrl);
  return { ...entry, changes: String(entry.changes) };
}

function plansJson(plans: readonly AgentPlanPart[], error?: string): Record<string, unknown> {
  const { action, changes } = keyedPlanOutputs(plans);
  return {
    action: action ?? '',
    changes: changes ?? '',
    plans: plansByKey(plans),
    ...(error === undefined ? {} : { error }),
  };
}

/** `DEPLOYMENT_PLAN_ACTION`, `DEPLOYMENT_CHANGES`, then each agent's `_ID`, then each agent's `_STATUS`. */
function plansDotenv(
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

/** A run of one keeps one row (flat); a manifest each agent's row and entry by key (keyed: an agent's `status` is never the run's). */
export class OutputsSeen {
  #layout: 'flat' | 'keyed' = 'flat';
  #row: Row = {};
  #entries: ReadonlyMap<string, DeploymentEntry> = new Map();
  readonly #agents = new Map<string, Row>();
  #plans: readonly AgentPlanPart[] | undefined;

  readonly view: EventView = (event) => {
    const { agent } = event;
    if (event.kind === 'planned' && agent === undefined && 'verdict' in event.report) {
      this.#row = planRow(event.report);
    }
    if (event.kind !== 'outputs') return;
    if (event.plans !== undefined) this.#plans = event.plans;
    if (event.entries !== undefined) this.#entries = event.entries;
    if (agent !== undefined) this.#layout = 'keyed';
    if (event.deployment === undefined) return;
    const row = deploymentRow(event.deployment);
    if (agent === undefined) this.#row = row;
    else this.#agents.set(agent, row);
  };

  /** Its outputs are the manifest's, even before any is set. */
  expectAgents(): void {
    this.#layout = 'keyed';
  }

  /** The manifest's agents in its order, then any other whose run set outputs. */
  #manifest(): ManifestRows {
    const keys = [...new Set([...this.#entries.keys(), ...this.#agents.keys()])];
    const agents = keys.map((key) => {
      const entry = this.#entries.get(key);
      const error = isSkipped(entry) ? undefined : entry?.error;
      return { key, entry, row: this.#agents.get(key) ?? {}, error };
    });
    return { agents, ...manifestLiveness(this.#entries.values()) };
  }

  json(error?: string): Record<string, unknown> {
    if (this.#plans !== undefined) return plansJson(this.#plans, error);
    return this.#layout === 'keyed'
      ? keyedJson(this.#manifest(), error)
      : outputsJson(this.#row, error);
  }

  dotenv(maxKeys: number): { text: string; skipped: DotenvLeftOut[] } {
    if (this.#plans !== undefined) return plansDotenv(this.#plans, maxKeys);
    return this.#layout === 'keyed'
      ? keyedDotenv(this.#manifest(), maxKeys)
      : outputsDotenv(this.#row, maxKeys);
  }
}
