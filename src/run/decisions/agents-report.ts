/**
 * What a deploy of several agents hands to later steps: `deployments`, one
 * line of JSON keyed by agent, small whatever the manifest (a count of the
 * differences, not their list, which the summary and the command's `--json`
 * hold), and `live`, true only when every agent is live.
 */
import type { Outputs } from './report.js';

/** One agent in the `deployments` output. */
export interface AgentEntry {
  /** The deployment's name. */
  name: string;
  'deployment-id': string;
  status: string;
  created: boolean;
  live: boolean;
  'commit-sha': string;
  url: string;
  'dashboard-url': string;
  /** How many differences the deployment has from what the step asks for. */
  'drift-count': number;
  /** Whether the deployment answered its health check; null when none was made. */
  healthy: boolean | null;
  /** The health check's last HTTP status; empty when none was made. */
  'health-status': string;
  /** The GitHub deployment recorded for the agent; empty when none was. */
  'github-deployment-id': string;
  /** Why the agent failed; only for a failed agent. */
  error?: string;
}

/** How many entries an output's JSON list holds; 0 when it holds none or is no list. */
function countOf(json: string | undefined): number {
  if (json === undefined || json === '') return 0;
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.length : 0;
}

/** An agent's entry from the outputs its run set so far, and its failure once it failed. */
export function agentEntry(name: string, outputs: Outputs, failure?: string): AgentEntry {
  return {
    name,
    'deployment-id': outputs['deployment-id'] ?? '',
    status: outputs.status ?? '',
    created: outputs.created === 'true',
    live: outputs.live === 'true',
    'commit-sha': outputs['commit-sha'] ?? '',
    url: outputs.url ?? '',
    'dashboard-url': outputs['dashboard-url'] ?? '',
    'drift-count': countOf(outputs.drift),
    healthy:
      outputs.healthy === undefined || outputs.healthy === '' ? null : outputs.healthy === 'true',
    'health-status': outputs['health-status'] ?? '',
    'github-deployment-id': '',
    ...(failure === undefined ? {} : { error: failure }),
  };
}

/** The manifest's outputs from every agent's entry, in the manifest's order. */
export function agentsOutputs(entries: ReadonlyMap<string, AgentEntry>): {
  deployments: string;
  live: string;
  healthy: string;
} {
  const all = [...entries.values()];
  const checked = all.filter((entry) => entry.healthy !== null);
  return {
    deployments: JSON.stringify(Object.fromEntries(entries)),
    live: String(all.length > 0 && all.every((entry) => entry.live)),
    // Empty when no agent was checked; else true only when every agent checked answered.
    healthy: checked.length === 0 ? '' : String(checked.every((entry) => entry.healthy === true)),
  };
}
