/**
 * The plan comment, with a marker of its own (never a preview's or a
 * deploy's). Flat: one per pull request and deployment name. Keyed: one for
 * the manifest (its marker holds the name template or path, so adding or
 * removing an agent keeps it), a row an agent, then each agent's details; a
 * gone agent keeps its row. Long lists fold and are cut to stay under
 * GitHub's 65,536 characters.
 */
import { markdownCode, markdownLink, markdownText } from '../../common/github-text.js';
import { plural } from '../../common/text.js';
import type { PlanNotMade, PlanReport } from '../../run/ports/progress.js';
import { dashboardUrlOf } from '../../run/decisions/report.js';
import {
  BODY_BUDGET,
  carrying,
  capped,
  encodeName,
  goneAgents,
  keptRows,
  manifestIdentity,
  runTail,
} from './comment-marker.js';
import { changesLines, verdictLines } from './plan-verdict.js';
import { withRunUrl, type GitHubRunContext } from './context.js';
import type { PullRequestComment } from './pr-comment.js';
import type { ManifestOnGitHub } from './deployment-record.js';

type Redact = (text: string) => string;

/** The longest failure a comment shows (the service's message is already shortened). */
const FAILURE_CHARS = 1_000;

export function planMarker(name: string): string {
  return `<!-- deploy-agent-plan:${encodeName(name)} -->`;
}

export const carriesPlanMarker = carrying(planMarker);

export function planCommentBody(
  report: PlanReport & { runUrl?: string },
  redact: Redact = (text) => text,
): string {
  const { verdict } = report;
  const lines = [planMarker(report.name), `### ${planHeadline(report, redact)}`, ''];
  lines.push(...verdictLines(verdict, redact));
  const footer: string[] = [];
  const { deployment } = verdict;
  const links = [
    deployment === undefined
      ? undefined
      : markdownLink('dashboard', dashboardUrlOf(report.dashboardUrl, deployment)),
    markdownLink('workflow run', report.runUrl),
  ].filter((link) => link !== undefined);
  if (links.length > 0) footer.push('', links.join(' · '));
  if (verdict.changes.length > 0) {
    lines.push(...changesLines(verdict, redact, [...lines, ...footer].join('\n').length));
  }
  return capped([...lines, ...footer].join('\n'));
}

function planHeadline({ name: raw, verdict }: PlanReport, redact: Redact): string {
  const name = markdownCode(redact(raw), 200, false);
  const count = verdict.changes.length;
  return {
    create: `🆕 Plan for ${name}: the deploy would create it`,
    reuse:
      count === 0
        ? `✅ Plan for ${name}: the deploy would reuse it, and nothing differs`
        : `⚠️ Plan for ${name}: the deploy would reuse it, and not apply ${count} ${plural(count, 'difference')}`,
    fail: `❌ Plan for ${name}: the deploy would fail`,
  }[verdict.action];
}

/** A plan not made: which head, why, and no verdict, so it never speaks for a commit it did not plan. */
export function planNotMadeBody(
  report: PlanNotMade & { runUrl?: string },
  redact: Redact = (text) => text,
): string {
  const name = markdownCode(redact(report.name), 200, false);
  const head =
    report.head === undefined ? 'this head' : markdownCode(report.head.slice(0, 7), 40, false);
  const lines = [
    planMarker(report.name),
    `### 🚫 Plan for ${name}: the plan for ${head} could not be made`,
    '',
    'The service failed, so there is no verdict for this commit: what this comment said before was about an earlier commit, and no longer holds. Run the plan again once the cause is fixed.',
    '',
    `**Why:** ${markdownText(redact(report.failure), FAILURE_CHARS)}`,
  ];
  const run = markdownLink('workflow run', report.runUrl);
  if (run !== undefined) lines.push('', run);
  return lines.join('\n');
}

/** One write a run; a plan not made names the head it was for: the core's, else `context.sha`. */
export async function writePlanComment(
  comment: PullRequestComment,
  report: PlanReport | PlanNotMade,
  context: Pick<GitHubRunContext, 'sha' | 'runUrl'>,
  redact: (text: string) => string,
): Promise<void> {
  const { sha, runUrl } = context;
  const body = () =>
    'verdict' in report
      ? planCommentBody(withRunUrl(report, runUrl), redact)
      : planNotMadeBody(
          withRunUrl({ ...(sha === '' ? {} : { head: sha }), ...report }, runUrl),
          redact,
        );
  await comment.writeBody(report.name, body);
}

export interface AgentPlanState {
  key: string;
  deploymentName: string;
  report: PlanReport | PlanNotMade;
}

export function keyedPlanMarker(identity: string): string {
  return `<!-- deploy-agent-agents-plan:${encodeName(identity)} -->`;
}

export const carriesKeyedPlanMarker = carrying(keyedPlanMarker);

const DETAILS = '\n#### ';

const HEAD = [
  '| Agent | Deployment | The deploy would | Not applied | Links |',
  '| --- | --- | --- | --- | --- |',
];

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

function goneRow(key: string, dashboard: string | undefined): string {
  const where = markdownLink('Dashboard', dashboard) ?? '';
  return `| ${markdownCode(key)} |  | nothing: no longer in the manifest, its deployment runs until deleted |  | ${where} |`;
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

const COUNTED = {
  create: 'would be created',
  reuse: 'reused',
  fail: 'would fail',
  none: 'not planned',
};

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
  const parts = Object.entries(COUNTED)
    .filter(([action]) => count(action) > 0)
    .map(([action, words]) => `${count(action)} ${words}`);
  const mark = count('fail') + count('none') > 0 ? '❌' : changes > 0 ? '⚠️' : '📋';
  const total = `${changes} ${plural(changes, 'difference')} the deploy would not apply`;
  return `### ${mark} Plan of ${states.length} ${plural(states.length, 'agent')} of ${title}: ${parts.join(', ')}; ${total}`;
}

/** The manifest's plan comment; `previous` is its body as found, whose gone agents keep a row. */
export function keyedPlanCommentBody(
  manifest: ManifestOnGitHub,
  states: readonly AgentPlanState[],
  previous: string | undefined,
  parts: { runUrl?: string; redact: Redact },
): string {
  const { redact } = parts;
  const identity = manifestIdentity(manifest);
  // The agents' rows only: the differences below them are rows of other tables.
  const gone = goneAgents(manifest, previous?.split(DETAILS)[0]);
  const head = [keyedPlanMarker(identity), headline(identity, states, redact), '', ...HEAD];
  const tail = runTail(parts.runUrl);
  const all = [
    ...states.map((state) => agentRow(state, redact)),
    ...gone.map(([key, dashboard]) => goneRow(key, dashboard)),
  ];
  const rows = keptRows(head, all, tail);
  const used = [...head, ...rows, ...tail].join('\n').length;
  const share = Math.floor((BODY_BUDGET - used - 200) / Math.max(states.length, 1));
  const details = states.flatMap((state) => detailsOf(state, redact, share));
  return capped([...head, ...rows, '', ...details, ...tail].join('\n') + '\n');
}
