/**
 * The manifest's one comment once its previews are retired: the comment the
 * deploy step wrote (its marker, so a reopened pull request's next deploy
 * finds it again) rewritten to say every agent's preview is retired, a row
 * per agent with where its deployment, which still exists in the service,
 * is deleted. An agent whose lookup failed says so; an agent an earlier
 * body listed that the manifest no longer holds keeps its row. It never
 * says a deployment was deleted or stopped. Written through the one
 * GitHub-text module.
 */
import { markdownCode, markdownLink } from '../../common/github-text.js';
import type { AgentRetireReport, RetiredDeployment } from '../../run/ports/progress.js';
import { listedAgents, manifestIdentity, manifestMarker } from './agents-comment.js';
import type { ManifestOnGitHub } from './agents-records.js';
import { rowsWithin } from './comment.js';

export interface RetiredManifest {
  manifest: ManifestOnGitHub;
  /** Each agent looked up; an agent of the manifest absent here could not be. */
  reports: readonly AgentRetireReport[];
  /** How the pull request stands: merged, closed without merging, or open (unknown). */
  pullRequestState?: 'merged' | 'closed' | 'open' | undefined;
  runUrl?: string | undefined;
}

type Redact = (text: string) => string;

const WHY = {
  merged: 'This pull request was merged, so its previews are retired',
  closed: 'This pull request was closed, so its previews are retired',
  open: 'These previews are retired',
};

const HEAD = [
  '| Agent | Deployment | Id in the service | Status | Delete it |',
  '| --- | --- | --- | --- | --- |',
];

/** An agent's cells after its key: its deployments, their statuses, where to delete them. */
function cellsOf(deployments: readonly RetiredDeployment[], redact: Redact): string[] {
  const code = (value: string) => markdownCode(redact(value), 100);
  // In id order: two runs that list them in another order write the same body.
  const sorted = [...deployments].sort((a, b) => a.deployment.id.localeCompare(b.deployment.id));
  if (sorted.length === 0) return ['', '', 'none in the service: nothing to delete'];
  return [
    sorted.map(({ deployment }) => code(deployment.id)).join(', '),
    sorted.map(({ deployment }) => code(deployment.status)).join(', '),
    sorted
      .map(
        ({ deployment, dashboardUrl }) =>
          markdownLink('Dashboard', dashboardUrl) ?? `in the service, id ${code(deployment.id)}`,
      )
      .join(', '),
  ];
}

/** The retired comment's Markdown; `redact` hides secret values in service text first. */
export function retiredManifestBody(
  retired: RetiredManifest,
  previous: string | undefined,
  redact: Redact,
): string {
  const { manifest } = retired;
  const identity = manifestIdentity(manifest);
  const title = markdownCode(redact(identity), 200, false);
  const why = WHY[retired.pullRequestState ?? 'open'];
  const head = [
    manifestMarker(identity),
    `### ⚫ Agents of ${title}: previews retired`,
    '',
    `${why}: this comment no longer says they are live. **A deployment listed here still exists in the service**, and keeps running (and costing) until someone deletes it there: this action cannot delete it (the service's interface has no delete).`,
    '',
    ...HEAD,
  ];
  const reports = new Map(retired.reports.map(({ key, report }) => [key, report]));
  const rows = manifest.agents.map((agent) => {
    const report = reports.get(agent.key);
    const cells =
      report === undefined
        ? ['', '', 'not looked up (the service did not answer): re-run the job']
        : cellsOf(report.deployments, redact);
    return `| ${[markdownCode(agent.key), markdownCode(redact(agent.deploymentName), 100), ...cells].join(' | ')} |`;
  });
  const current = new Set(manifest.agents.map((agent) => agent.key));
  const gone = [...listedAgents(previous)]
    .filter(([key]) => !current.has(key))
    .map(([key, dashboard]) => {
      const where = markdownLink('Dashboard', dashboard);
      const runs = `no longer deployed by this workflow; runs until deleted${where === undefined ? '' : `: ${where}`}`;
      return `| ${markdownCode(key)} |  |  |  | ${runs} |`;
    });
  const footer = markdownLink('Workflow run', retired.runUrl);
  const tail = footer === undefined ? [] : ['', footer];
  const all = [...rows, ...gone];
  const kept = rowsWithin(all, head.join('\n').length + tail.join('\n').length + 200);
  const more =
    kept.length < all.length
      ? ['', `…and ${all.length - kept.length} more: see the job summary.`]
      : [];
  return [...head, ...kept, ...more, ...tail].join('\n') + '\n';
}
