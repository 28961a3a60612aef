/**
 * A retired preview's comment, flat or keyed: the deploy's comment (its
 * marker kept, so a reopened pull request finds it again) rewritten to say
 * the preview is no longer live, that its deployment still exists in the
 * service, and where to delete it. It never says a deployment was deleted
 * or stopped.
 */
import { markdownCode, markdownLink } from '../../common/github-text.js';
import type {
  AgentRetireReport,
  RetiredDeployment,
  RetireReport,
} from '../../run/ports/progress.js';
import type { ManifestOnGitHub } from './deployment-record.js';
import {
  goneAgents,
  keptRows,
  manifestIdentity,
  manifestMarker,
  marker,
  runTail,
} from './comment-marker.js';

export interface RetiredComment extends RetireReport {
  pullRequestState?: 'merged' | 'closed' | 'open' | undefined;
  runUrl?: string;
}

interface RetiredManifest {
  manifest: ManifestOnGitHub;
  /** An agent of the manifest absent here could not be looked up. */
  reports: readonly AgentRetireReport[];
  pullRequestState?: 'merged' | 'closed' | 'open' | undefined;
  runUrl?: string | undefined;
}

type Redact = (text: string) => string;

function why(state: RetiredComment['pullRequestState'], many: boolean): string {
  const its = many ? 'its previews are' : 'its preview is';
  if (state === 'merged' || state === 'closed') {
    return `This pull request was ${state}, so ${its} retired`;
  }
  return many ? 'These previews are retired' : 'This preview is retired';
}

/** In id order: two runs that list them in another order write the same body. */
function byId(deployments: readonly RetiredDeployment[]): RetiredDeployment[] {
  return [...deployments].sort((a, b) => a.deployment.id.localeCompare(b.deployment.id));
}

export function retiredCommentBody(
  comment: RetiredComment,
  redact: (text: string) => string = (text) => text,
): string {
  const name = markdownCode(redact(comment.name), 200, false);
  const lines = [
    marker(comment.name),
    `### ⚫ ${name}: preview retired`,
    '',
    `${why(comment.pullRequestState, false)}: this comment no longer says it is live.`,
    '',
  ];
  const deployments = byId(comment.deployments);
  const [one] = deployments;
  if (one === undefined) {
    lines.push(`No deployment is named ${name} in the service: nothing is left to delete there.`);
  } else if (deployments.length === 1) {
    lines.push(...oneDeployment(one, redact));
  } else {
    lines.push(...severalDeployments(deployments, redact));
  }
  return `${[...lines, ...runTail(comment.runUrl)].join('\n')}\n`;
}

function deleteIt({ deployment, dashboardUrl }: RetiredDeployment, redact: Redact): string {
  return (
    markdownLink('in the dashboard', dashboardUrl) ??
    `in the service, by its id ${markdownCode(redact(deployment.id), 100)}`
  );
}

function oneDeployment(retired: RetiredDeployment, redact: Redact): string[] {
  const code = (value: string) => markdownCode(redact(value), 100);
  const { deployment } = retired;
  return [
    deployment.status === 'AWAITING_DELETE'
      ? `In the service, a deletion of its deployment was asked for: its status is ${code(deployment.status)}.`
      : "**Its deployment still exists in the service**, and keeps running (and costing) until someone deletes it there. This action cannot delete it: the service's interface has no delete.",
    '',
    '| | |',
    '| --- | --- |',
    `| Deployment | ${code(deployment.id)} |`,
    `| Status | ${code(deployment.status)} |`,
    `| Delete it | ${deleteIt(retired, redact)} |`,
  ];
}

/** The service allows several deployments of one name. */
function severalDeployments(deployments: readonly RetiredDeployment[], redact: Redact): string[] {
  const code = (value: string) => markdownCode(redact(value), 100);
  const count = deployments.length;
  const deleting = deployments.every(({ deployment }) => deployment.status === 'AWAITING_DELETE');
  return [
    deleting
      ? `The service holds ${count} deployments of this name. For each, a deletion was asked for: their statuses are ${code('AWAITING_DELETE')}.`
      : `**The service holds ${count} deployments of this name, and they still exist there**: each keeps running (and costing) until someone deletes it. This action cannot delete them: the service's interface has no delete.`,
    '',
    '| Deployment | Status | Delete it |',
    '| --- | --- | --- |',
    ...deployments.map(
      (retired) =>
        `| ${code(retired.deployment.id)} | ${code(retired.deployment.status)} | ${deleteIt(retired, redact)} |`,
    ),
  ];
}

const HEAD = [
  '| Agent | Deployment | Id in the service | Status | Delete it |',
  '| --- | --- | --- | --- | --- |',
];

function cellsOf(deployments: readonly RetiredDeployment[], redact: Redact): string[] {
  const code = (value: string) => markdownCode(redact(value), 100);
  const sorted = byId(deployments);
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

export function retiredManifestBody(
  retired: RetiredManifest,
  previous: string | undefined,
  redact: Redact,
): string {
  const { manifest } = retired;
  const identity = manifestIdentity(manifest);
  const title = markdownCode(redact(identity), 200, false);
  const head = [
    manifestMarker(identity),
    `### ⚫ Agents of ${title}: previews retired`,
    '',
    `${why(retired.pullRequestState, true)}: this comment no longer says they are live. **A deployment listed here still exists in the service**, and keeps running (and costing) until someone deletes it there: this action cannot delete it (the service's interface has no delete).`,
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
  const gone = goneAgents(manifest, previous).map(([key, dashboard]) => {
    const where = markdownLink('Dashboard', dashboard);
    const runs = `no longer deployed by this workflow; runs until deleted${where === undefined ? '' : `: ${where}`}`;
    return `| ${markdownCode(key)} |  |  |  | ${runs} |`;
  });
  const tail = runTail(retired.runUrl);
  return [...head, ...keptRows(head, [...rows, ...gone], tail), ...tail].join('\n') + '\n';
}

/** The workflow run's link, the one line two runs' retired bodies differ by. */
const RUN_LINK = /^\[Workflow run\]\(.*\)$/m;

/** The same body but for the run's link: a second retire or sweep then writes nothing. */
export function sameRetiredBody(current: string, next: string): boolean {
  const withoutRun = (body: string) => body.replace(RUN_LINK, '').trimEnd();
  return withoutRun(current) === withoutRun(next);
}
