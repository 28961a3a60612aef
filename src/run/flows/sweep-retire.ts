/**
 * The sweep's orphans retired on GitHub as retire does: one retirement a group (one
 * environment marking, one comment rewrite naming each of its deployments); with a manifest,
 * then the manifest's one comment of that pull request, rewritten once, as the retire step
 * with the manifest leaves it.
 */
import { environmentOf, type SweepRequest } from '../../inputs/sweep-inputs.js';
import type { AgentRetireReport, RetireReport, Retirement } from '../ports/progress.js';
import type { RunnerIO } from '../ports/runner.js';
import type { Orphan, Retired } from '../ports/summaries.js';

export const NOTHING_RETIRED: Retired = {
  inactive: 0,
  comments: 0,
  byThisRun: 0,
  already: 0,
  failed: 0,
  nothing: 0,
};

/** Which of `Retired`'s counts a pull request's orphans go to. */
function retiredAs(
  retirement: Retirement | undefined,
): Exclude<keyof Retired, 'inactive' | 'comments'> {
  if (retirement === undefined) return 'nothing';
  const already = retirement.alreadyInactive ?? 0;
  if (retirement.comment === 'failed' || retirement.found > retirement.inactive + already) {
    return 'failed';
  }
  if (retirement.inactive > 0 || retirement.comment === 'rewritten') return 'byThisRun';
  if (already > 0 || retirement.comment === 'unchanged') return 'already';
  return 'nothing';
}

/**
 * What an orphan is retired with: its environment, else its pull request (and agent). With a
 * manifest, an environment without `{agent}` is every agent's preview's of the pull request.
 */
function retiredWith(orphan: Orphan, request: SweepRequest): string {
  const { environments } = request;
  if (environments !== undefined) return environmentOf(environments, orphan.number, orphan.agent);
  return `${orphan.number}\u0000${orphan.agent?.key ?? ''}`;
}

/** The orphans in groups retired together, in the order of their first, each deployment id once. */
function inGroups(orphans: readonly Orphan[], request: SweepRequest): Orphan[][] {
  const groups = new Map<string, Map<string, Orphan>>();
  for (const orphan of orphans) {
    const key = retiredWith(orphan, request);
    const group = groups.get(key) ?? new Map<string, Orphan>();
    if (!group.has(orphan.deployment.id)) group.set(orphan.deployment.id, orphan);
    groups.set(key, group);
  }
  return [...groups.values()].map((group) => [...group.values()]);
}

/** The groups by pull request, in the order of their first (a group is of one pull request). */
function byPullRequest(groups: readonly Orphan[][]): Map<number, Orphan[][]> {
  const pulls = new Map<number, Orphan[][]>();
  for (const group of groups) {
    const [first] = group;
    if (first === undefined) continue;
    pulls.set(first.number, [...(pulls.get(first.number) ?? []), group]);
  }
  return pulls;
}

function reportOf(group: readonly Orphan[], number: number, request: SweepRequest): RetireReport {
  const [first] = group;
  const agents = [...new Set(group.map((orphan) => orphan.agent?.key ?? ''))];
  return {
    name: [...new Set(group.map((orphan) => orphan.deployment.name))].join(', '),
    deployments: group.map(({ deployment, dashboardUrl }) => ({ deployment, dashboardUrl })),
    pullRequest: number,
    ...(request.environments === undefined || first === undefined
      ? {}
      : { environment: environmentOf(request.environments, number, first.agent) }),
    ...(request.layout === 'keyed' ? { agents } : {}),
  };
}

/**
 * The manifest's one comment of pull request `number` rewritten once: a report for every
 * agent, its orphans' deployments (maybe none). Undefined without a manifest or a way to say.
 */
async function manifestComment(
  groups: readonly Orphan[][],
  number: number,
  request: SweepRequest,
  io: RunnerIO,
): Promise<Retirement['comment'] | undefined> {
  if (request.layout !== 'keyed' || io.retired === undefined) return undefined;
  const orphans = groups.flat();
  const reports: AgentRetireReport[] = request.agents.map((agent) => ({
    key: agent.key,
    report: reportOf(
      orphans.filter((orphan) => orphan.agent?.key === agent.key),
      number,
      request,
    ),
  }));
  const retirements = await io.retired({ layout: 'keyed', reports });
  return [...retirements.values()][0]?.comment;
}

/** What retiring the orphans did, each orphan counted once. */
export async function retireAll(
  orphans: readonly Orphan[],
  request: SweepRequest,
  io: RunnerIO,
): Promise<Retired> {
  const retired = { ...NOTHING_RETIRED };
  for (const [number, groups] of byPullRequest(inGroups(orphans, request))) {
    const retirements: (Retirement | undefined)[] = [];
    for (const group of groups) {
      const report = reportOf(group, number, request);
      const retirement = await io.retired?.({ layout: 'flat', reports: [{ key: '', report }] });
      retirements.push(retirement?.get(''));
    }
    const comment = await manifestComment(groups, number, request, io);
    if (comment === 'rewritten') retired.comments += 1;
    groups.forEach((group, at) => {
      const own = retirements[at];
      const retirement =
        comment === undefined ? own : { found: 0, inactive: 0, more: false, ...own, comment };
      retired.inactive += own?.inactive ?? 0;
      if (comment === undefined && own?.comment === 'rewritten') retired.comments += 1;
      retired[retiredAs(retirement)] += group.length;
    });
  }
  return retired;
}
