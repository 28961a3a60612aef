/**
 * The sweep: the previews the listing holds under the name pattern (each agent's pattern's
 * longest literal part searched, GET only), exact matches only: a name two agents' patterns
 * both give (`a` and `a1` under `{agent}{number}`) proves neither, and is left alone. Each
 * preview of a closed or merged pull request is an orphan, reported and retired as retire
 * does, unless a dry run. Only what is proven an orphan is touched; nothing is deleted, and
 * nothing says so: the service's interface has no delete.
 */
import { ActionError } from '../../common/errors.js';
import { failedWith } from './run-record.js';
import { untrusted, type Logger } from '../../common/runtime.js';
import { plural } from '../../common/text.js';
import {
  agentPatterns,
  matchesOf,
  searchTexts,
  type AgentPattern,
  type SweepRequest,
} from '../../inputs/sweep-inputs.js';
import { MAX_PAGES, PAGE_LIMIT } from '../../service/endpoints.js';
import type { Deployment } from '../../service/schemas.js';
import { inGroup } from '../ports/dependencies.js';
import { withEvents, type RunEvents } from '../ports/events.js';
import { MAX_PULL_REQUEST_NUMBER, type PullRequestState } from '../ports/progress.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { dashboardUrlOf } from '../decisions/report.js';
import { dependenciesOf, maskValues } from './setup.js';
import { NOTHING_RETIRED, retireAll } from './sweep-retire.js';
import type { Orphan, Preview, Sweep, SweepSummary, Unknown } from '../ports/summaries.js';

/** As sweep/action.yml declares them. */
export const SWEEP_OUTPUT_NAMES = [
  'orphans',
  'orphan-count',
  'open-count',
  'unknown-count',
  'retired',
] as const;
type SweepOutputs = Partial<Record<(typeof SWEEP_OUTPUT_NAMES)[number], string>>;

/** Oldest close first; keyed, each names its agent. */
function orphansJson(orphans: readonly Orphan[], layout: SweepRequest['layout']): string {
  return JSON.stringify(
    orphans.map((orphan) => ({
      ...(layout === 'keyed' ? { agent: orphan.agent?.key ?? '' } : {}),
      name: orphan.deployment.name,
      'deployment-id': orphan.deployment.id,
      status: orphan.deployment.status,
      'pull-request': orphan.number,
      state: orphan.state,
      'closed-at': orphan.closedAt ?? null,
      'dashboard-url': orphan.dashboardUrl ?? null,
    })),
  );
}

/** At most this many deployments are read a search: the deploy's search's cap. */
const MAX_LISTED = MAX_PAGES * PAGE_LIMIT;

interface FoundPreviews {
  previews: Preview[];
  /** The names more than one agent's pattern gives: left alone. */
  ambiguous: Unknown[];
}

function sorted(deployment: Deployment, patterns: AgentPattern[], found: FoundPreviews): void {
  const matches = matchesOf(patterns, deployment.name);
  const [first] = matches;
  if (first === undefined) return;
  if (matches.length === 1) {
    found.previews.push({ deployment, ...first });
    return;
  }
  const agents = matches.map((match) => `'${match.agent.key}'`).join(' and ');
  found.ambiguous.push({
    deployment,
    digits: first.digits,
    why: `and it is the name of a preview of agents ${agents} alike: no proof of whose it is, left alone`,
  });
}

async function findPreviews(
  request: SweepRequest,
  io: RunnerIO,
  events: RunEvents,
): Promise<FoundPreviews> {
  const dependencies = dependenciesOf(request, io, events);
  const patterns = agentPatterns(request.names, request.agents);
  return inGroup(dependencies)(
    `Looking for previews named '${request.names.text}'`,
    'find',
    async () => {
      const seen = new Set<string>();
      const found: FoundPreviews = { previews: [], ambiguous: [] };
      for (const literal of searchTexts(patterns)) {
        const listed = await dependencies.service.list({ name_contains: literal }, MAX_LISTED);
        if (listed.deployments.length >= MAX_LISTED) {
          throw new ActionError(
            `GET /v2/deployments: more than ${MAX_LISTED} deployments contain '${literal}'; stopped rather than judge the previews from part of the list. Make name-pattern more distinctive.`,
          );
        }
        for (const deployment of listed.deployments) {
          if (seen.has(deployment.id)) continue;
          seen.add(deployment.id);
          sorted(deployment, patterns, found);
        }
      }
      return found;
    },
  );
}

/** Undefined beyond GitHub's `Int` (GitHub would reject the whole query, and so the sweep). */
function askable(digits: string): number | undefined {
  const number = Number(digits);
  return number <= MAX_PULL_REQUEST_NUMBER ? number : undefined;
}

/** GitHub's word on a preview's pull request, or why it proves nothing (the end of its log line). */
function proofOf(digits: string, states: ReadonlyMap<number, PullRequestState>) {
  const number = askable(digits);
  if (number === undefined) {
    return `beyond the numbers GitHub gives pull requests (at most ${MAX_PULL_REQUEST_NUMBER}): left alone`;
  }
  const known = states.get(number);
  if (known?.answeredFor !== undefined) {
    return `and GitHub's answer was about #${known.answeredFor}: no proof of how #${digits} stands, left alone`;
  }
  if (known === undefined || known.state === 'unknown') {
    return 'which GitHub does not know: left alone';
  }
  return known;
}

function classify(
  previews: readonly Preview[],
  states: ReadonlyMap<number, PullRequestState>,
  request: SweepRequest,
): Omit<Sweep, 'retired'> {
  const orphans: Orphan[] = [];
  const unknown: Unknown[] = [];
  let open = 0;
  for (const preview of previews) {
    const known = proofOf(preview.digits, states);
    if (typeof known === 'string') unknown.push({ ...preview, why: known });
    else if (known.state === 'open') open++;
    else if (known.state !== 'unknown') {
      const { number, state, closedAt } = known;
      const dashboardUrl = dashboardUrlOf(request.dashboardUrl, preview.deployment);
      orphans.push({ ...preview, number, state, closedAt, dashboardUrl });
    }
  }
  // Oldest close first: the preview that has cost the longest leads.
  orphans.sort((a, b) => (a.closedAt ?? '').localeCompare(b.closedAt ?? ''));
  return { orphans, open, unknown };
}

const agentOf = ({ agent }: Preview, { layout }: SweepRequest): string =>
  layout === 'keyed' ? ` of agent '${agent?.key ?? ''}'` : '';

/** One line an orphan and an unknown number; never a word of deleting or stopping. */
function report(found: Omit<Sweep, 'retired'>, request: SweepRequest, logger: Logger): void {
  for (const { deployment, digits, why } of found.unknown) {
    logger.info(`sweep: '${untrusted(deployment.name)}' names pull request #${digits}, ${why}`);
  }
  for (const orphan of found.orphans) {
    const line = `sweep: '${untrusted(orphan.deployment.name)}'${agentOf(orphan, request)} (${orphan.deployment.id}, ${untrusted(orphan.deployment.status)}) still runs for pull request #${orphan.number}, ${orphan.state}${orphan.closedAt === undefined ? '' : ` ${orphan.closedAt}`}: delete it in the service (${orphan.dashboardUrl ?? `deployment ${orphan.deployment.id} in the service`}); this step cannot`;
    if (request.onOrphans === 'none') logger.info(line);
    else logger.warning(line);
  }
  logger.info(
    `sweep: ${found.orphans.length} ${plural(found.orphans.length, 'orphan')}, ${found.open} open, ${found.unknown.length} unknown`,
  );
}

/** Never throws: how it ended is in the outcome. */
export const runSweep = (request: SweepRequest, io: RunnerIO): Promise<RunOutcome> =>
  withEvents(io, async (events) => {
    const { logger } = events;
    const outputs = (values: SweepOutputs) => events.emit({ kind: 'outputs', outputs: values });
    try {
      maskValues(request, io);
      const { previews, ambiguous } = await findPreviews(request, io, events);
      const numbers = [...new Set(previews.map((preview) => askable(preview.digits)))]
        .filter((number) => number !== undefined)
        .sort((a, b) => a - b);
      let states: ReadonlyMap<number, PullRequestState> = new Map();
      if (numbers.length > 0) {
        if (io.pullRequestStates === undefined) {
          throw new ActionError(
            "The sweep needs the pull requests' states from GitHub, and has no way to ask: set github-token (the default, github.token, with pull-requests: read) on a run of the workflow's repository.",
          );
        }
        states = await io.pullRequestStates(numbers);
      }
      const classified = classify(previews, states, request);
      const found = { ...classified, unknown: [...ambiguous, ...classified.unknown] };
      report(found, request, logger);
      const retired = request.dryRun
        ? NOTHING_RETIRED
        : await retireAll(found.orphans, request, io);
      if (request.dryRun && found.orphans.length > 0)
        logger.info('sweep: a dry run: nothing on GitHub was changed');
      const summary: SweepSummary = {
        kind: 'sweep',
        ...found,
        retired,
        pattern: request.names.text,
        dryRun: request.dryRun,
      };
      outputs({
        orphans: orphansJson(found.orphans, request.layout),
        'orphan-count': String(found.orphans.length),
        'open-count': String(found.open),
        'unknown-count': String(found.unknown.length),
        retired: String(retired.inactive),
      });
      const count = found.orphans.length;
      if (request.onOrphans !== 'fail' || count === 0) return { summary };
      const failure = `${count} ${plural(count, 'preview')} of closed pull requests still ${plural(count, 'runs', 'run')} in the service (on-orphans: fail): ${found.orphans.map((orphan) => `'${untrusted(orphan.deployment.name)}'`).join(', ')}. Delete ${plural(count, 'it', 'them')} there: this step cannot.`;
      return { failure: io.redact(failure), summary };
    } catch (error) {
      return failedWith(error, io.redact, '\nNothing on GitHub was changed.');
    }
  });
