/**
 * What a deploy of several agents writes for machines outside GitHub: one
 * `--json` object whose `deployments` holds, for each agent by key, the
 * action's entry for it in its `deployments` output (`name`, `drift-count`…)
 * and the object a deploy of that agent alone would print (its drift list included,
 * `error` when it failed), with `live` true only when every agent is live;
 * and a dotenv report of `DEPLOYMENT_LIVE` and four variables an agent, the
 * most useful first, so that GitLab's limit on the number of variables cuts
 * the least useful ones.
 */
import type { DeploymentEntry } from '../run/ports/findings.js';
import { dotenvReport, type DotenvLeftOut } from './dotenv.js';
import { environmentName } from './options.js';
import { outputsJson, type OutputTexts } from './outputs.js';

/**
 * One agent's part of the run: the action's entry for it (the manifest's
 * `deployments` output), the outputs its own run set, and why it failed when it did.
 */
export interface AgentOutputs {
  key: string;
  entry?: DeploymentEntry;
  outputs: OutputTexts;
  error?: string;
}

/**
 * The manifest's part of the run: every agent in the manifest's order, whether all are
 * live, and whether every agent checked answered its health check (null: none checked).
 */
export interface ManifestOutputs {
  agents: readonly AgentOutputs[];
  live: boolean;
  healthy: boolean | null;
}

/**
 * The `--json` object: each agent's object by key (every field of the
 * action's entry, so that the same `jq` reads both, then its own outputs),
 * `live`, and `error` when the run failed.
 */
export function agentsJson(manifest: ManifestOutputs, error?: string): Record<string, unknown> {
  const deployments = Object.fromEntries(
    manifest.agents.map((agent) => [
      agent.key,
      { ...agent.entry, ...outputsJson(agent.outputs, agent.error) },
    ]),
  );
  return {
    deployments,
    live: manifest.live,
    healthy: manifest.healthy,
    ...(error === undefined ? {} : { error }),
  };
}

/** An agent's variable: `DEPLOYMENT_AGENT_` + its key upper-cased, `-` as `_`, + what it holds. */
export function agentVariable(key: string, part: 'ID' | 'STATUS' | 'LIVE' | 'URL'): string {
  return `DEPLOYMENT_AGENT_${environmentName(key)}_${part}`;
}

/** What an agent's variables hold, each as `[part of its name, output]`. */
type AgentParts = readonly (readonly ['ID' | 'STATUS' | 'LIVE' | 'URL', string])[];
/** An agent's variables kept first when the limit cuts, then the others. */
const FIRST: AgentParts = [
  ['ID', 'deployment-id'],
  ['URL', 'url'],
];
const THEN: AgentParts = [
  ['STATUS', 'status'],
  ['LIVE', 'live'],
];

/**
 * Every variable of the report in the order they are kept when GitLab's
 * limit cuts: `DEPLOYMENT_LIVE` (and `DEPLOYMENT_HEALTHY` when an agent was
 * checked), then each agent's id and URL, then each
 * agent's status and whether it is live (agents in the manifest's order).
 * An agent's `live` is `false` until its run says otherwise; an output its
 * run did not set is empty.
 */
function agentsVariables(manifest: ManifestOutputs): [string, string][] {
  const valueOf = ({ outputs }: AgentOutputs, output: string) =>
    output === 'live' ? String(outputs.live === 'true') : (outputs[output] ?? '');
  const variables = (parts: AgentParts) =>
    manifest.agents.flatMap((agent) =>
      parts.map(([part, output]): [string, string] => [
        agentVariable(agent.key, part),
        valueOf(agent, output),
      ]),
    );
  const healthy: [string, string][] =
    manifest.healthy === null ? [] : [['DEPLOYMENT_HEALTHY', String(manifest.healthy)]];
  return [
    ['DEPLOYMENT_LIVE', String(manifest.live)],
    ...healthy,
    ...variables(FIRST),
    ...variables(THEN),
  ];
}

/**
 * The report GitLab accepts and reads back exactly: no empty value, no
 * value `dotenvRefusal` refuses, at most `maxKeys` variables, under 5 KB;
 * each variable left out with why.
 */
export function agentsDotenv(
  manifest: ManifestOutputs,
  maxKeys: number,
): { text: string; skipped: DotenvLeftOut[] } {
  return dotenvReport(agentsVariables(manifest), maxKeys);
}
