/**
 * The plan comment of a manifest: one comment on the pull request for every
 * agent, a row an agent (what its deploy would do, how many differences it
 * would not apply, its dashboard), then each agent's differences, what
 * would fail and any plan not made below. Its hidden marker holds the
 * step's name template (or, without one, the manifest's path), as the
 * deploy's manifest comment does, but a plan's own: adding or removing an
 * agent keeps the comment, and a plan comment is never a deploy's. An agent
 * an earlier plan listed that the manifest no longer holds keeps a row
 * saying the deploy leaves its deployment as it is. Text from the service
 * is data, never Markdown (common/github-text.ts).
 */
import { markdownCode, markdownLink, markdownText } from '../../common/github-text.js';
import { plural } from '../../common/text.js';
import { dashboardUrlOf } from '../../run/decisions/report.js';
import type { PlanNotMade, PlanReport } from '../../run/ports/progress.js';
import { listedAgents } from './agents-comment.js';
import type { ManifestOnGitHub } from './agents-records.js';
import { BODY_BUDGET, COMMENT_LIMIT, encodeName, rowsWithin } from './comment.js';
import { changesLines, verdictLines } from './plan-comment.js';

type Redact = (text: string) => string;

/** One agent's plan as the comment shows it: its key, and its report (a verdict, or none made). */
export interface AgentPlanState {
  key: string;
  deploymentName: string;
  report: PlanReport | PlanNotMade;
}

export function agentsPlanMarker(identity: string): string {
  return `<!-- deploy-agent-agents-plan:${encodeName(identity)} -->`;
}

/** Whether a comment's body is this manifest's plan comment (its marker opens it). */
export function carriesAgentsPlanMarker(
  body: string | null | undefined,
  identity: string,
): boolean {
  return typeof body === 'string' && body.startsWith(agentsPlanMarker(identity));
}

/** What opens an agent's part below the table. */
const DETAILS = '\n#### ';

const HEAD = [
  '| Agent | Deployment | The deploy would | Not applied | Links |',
  '| --- | --- | --- | --- | --- |',
];

/** What the agent's deploy would do, in the row's words. */
function actionCell(report: PlanReport | PlanNotMade, redact: Redact): string {
  if (!('verdict' in report)) return '🚫 no plan made (see below)';
  const { verdict } = report;
  const { deployment } = verdict;
  const found =
    deployment === undefined
      ? ''
      : ` ${markdownCode(redact(deployment.id), 100)} (${markdownCode(redact(deployment.status), 100)})`;
  if (verdict.action === 'create') return '🆕 create';
  if (verdict.action === 'fail') return `❌ fail${found}`;
  return `${verdict.wouldFail === undefined ? '♻️' : '⚠️'} reuse${found}`;
}

function agentRow({ key, deploymentName, report }: AgentPlanState, redact: Redact): string {
  const verdict = 'verdict' in report ? report.verdict : undefined;
  const deployment = verdict?.deployment;
  const dashboard =
    deployment === undefined || !('verdict' in report)
      ? undefined
      : markdownLink('Dashboard', dashboardUrlOf(report.dashboardUrl, deployment));
  const cells = [
    markdownCode(key),
    markdownCode(redact(deploymentName), 100),
    actionCell(report, redact),
    verdict === undefined || verdict.action !== 'reuse' ? '' : String(verdict.changes.length),
    dashboard ?? '',
  ];
  return `| ${cells.join(' | ')} |`;
}

/** The row of an agent an earlier plan listed that the manifest no longer holds. */
function goneRow(key: string, dashboard: string | undefined): string {
  const where = markdownLink('Dashboard', dashboard);
  const cells = [
    markdownCode(key),
    '',
    'nothing: no longer in the manifest, its deployment runs until deleted',
    '',
    where ?? '',
  ];
  return `| ${cells.join(' | ')} |`;
}

/** What the comment says of an agent below the table, within `share` characters; none when all is said. */
function detailsOf(state: AgentPlanState, redact: Redact, share: number): string[] {
  const { report } = state;
  const head = `${DETAILS.trim()} ${markdownCode(state.key, 100, false)}`;
  if (!('verdict' in report)) {
    return [
      head,
      '',
      `The service failed, so there is no verdict for this agent at ${report.head === undefined ? 'this head' : markdownCode(report.head.slice(0, 7), 40, false)}: what this comment said of it before no longer holds.`,
      '',
      `**Why:** ${markdownText(redact(report.failure), 1_000)}`,
      '',
    ];
  }
  const { verdict } = report;
  const quiet =
    verdict.action === 'create' ||
    (verdict.changes.length === 0 && verdict.wouldFail === undefined);
  if (quiet && verdict.reason === undefined) return [];
  const lines = verdictLines(verdict, redact);
  if (verdict.changes.length > 0) lines.push(...changesLines(verdict, redact, BODY_BUDGET - share));
  return [head, '', ...lines, ''];
}

/** The comment's headline: how many agents, and what their deploys would do. */
function headline(identity: string, states: readonly AgentPlanState[], redact: Redact): string {
  const title = markdownCode(redact(identity), 200, false);
  const actions = states.map(({ report }) =>
    'verdict' in report ? report.verdict.action : 'none',
  );
  const count = (action: string) => actions.filter((one) => one === action).length;
  const changes = states.reduce(
    (sum, { report }) => sum + ('verdict' in report ? report.verdict.changes.length : 0),
    0,
  );
  const parts = [
    count('create') > 0 ? `${count('create')} would be created` : undefined,
    count('reuse') > 0 ? `${count('reuse')} reused` : undefined,
    count('fail') > 0 ? `${count('fail')} would fail` : undefined,
    count('none') > 0 ? `${count('none')} not planned` : undefined,
  ].filter((part) => part !== undefined);
  const mark = count('fail') + count('none') > 0 ? '❌' : changes > 0 ? '⚠️' : '📋';
  const total = `${changes} ${plural(changes, 'difference')} the deploy would not apply`;
  return `### ${mark} Plan of ${states.length} ${plural(states.length, 'agent')} of ${title}: ${parts.join(', ')}; ${total}`;
}

/** The manifest's plan comment; `previous` is its body as found, whose gone agents keep a row. */
export function agentsPlanCommentBody(
  manifest: ManifestOnGitHub,
  states: readonly AgentPlanState[],
  previous: string | undefined,
  parts: { runUrl?: string; redact: Redact },
): string {
  const { redact } = parts;
  const identity = manifest.nameTemplate ?? manifest.source;
  const current = new Set(manifest.agents.map((agent) => agent.key));
  // The agents' rows only: the differences below them are rows of other tables.
  const listed = listedAgents(previous?.split(DETAILS)[0]);
  const gone = [...listed].filter(([key]) => !current.has(key));
  const head = [agentsPlanMarker(identity), headline(identity, states, redact), '', ...HEAD];
  const run = markdownLink('Workflow run', parts.runUrl);
  const tail = run === undefined ? [] : ['', run];
  const all = [
    ...states.map((state) => agentRow(state, redact)),
    ...gone.map(([key, dashboard]) => goneRow(key, dashboard)),
  ];
  const rows = rowsWithin(all, head.join('\n').length + tail.join('\n').length + 200);
  const more =
    rows.length < all.length
      ? ['', `…and ${all.length - rows.length} more: see the job summary.`]
      : [];
  const used = [...head, ...rows, ...more, ...tail].join('\n').length;
  const share = Math.floor((BODY_BUDGET - used - 200) / Math.max(states.length, 1));
  const details = states.flatMap((state) => detailsOf(state, redact, share));
  const body = [...head, ...rows, ...more, '', ...details, ...tail].join('\n') + '\n';
  return body.length < COMMENT_LIMIT ? body : body.slice(0, BODY_BUDGET);
}
