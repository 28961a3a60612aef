/**
 * Section 7, the sweep (sweep/action.yml): dist/sweep.js with sweep/action.yml's
 * defaults, on a schedule, against fresh emulators of the service and of GitHub, over 250 previews
 * (`my-agent-pr-1..250`) of which 25 are orphans (pull requests merged or closed), each with one
 * GitHub deployment in `preview-pr-N` and the bot's preview comment; then a second sweep right
 * after, against the same emulators. **Budgets: the floors: ⌈250/100⌉ = 3 service pages, 3 state
 * queries, for each orphan one inactive status a record and one comment PATCH (50 writes); the
 * second sweep writes nothing.** Alone: `node script/node24.mjs bench/sweep.ts [--quick]`.
 */
import { startEmulator, type Emulator } from '../test/emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
  type GitHubRequest,
} from '../test/emulator/github.ts';
import { WORKFLOW_REPOSITORY } from '../test/support/action.ts';
import { GITHUB_TOKEN, gitHubStep } from '../test/support/github-step.ts';
import {
  API_KEY,
  PAGE_LIMIT,
  QUICK,
  base,
  count,
  failureNote,
  judge,
  median,
  pause,
  progress,
  runAlone,
  sec,
  table,
} from './common.ts';
import { runBundle, type Timed } from './spawn.ts';

const SWEEP_RUNS = QUICK ? 1 : 3;
const PREVIEWS = 250;
/** Every 10th pull request is closed or merged: 25 orphans. */
const isOrphan = (number: number) => number % 10 === 0;
const ORPHANS = Array.from({ length: PREVIEWS }, (_, i) => i + 1).filter(isOrphan).length;
/** GitHub deployment records per orphan (each gets one inactive status). */
const RECORDS = 1;

const PAGE_FLOOR = Math.ceil(PREVIEWS / PAGE_LIMIT);
const STATE_QUERY_FLOOR = Math.ceil(PREVIEWS / 100);
/** For each orphan: one inactive status a record, and its comment rewritten (one PATCH). */
const WRITE_FLOOR = ORPHANS * (RECORDS + 1);
/**
 * The reads of a sweep that retires (or finds retired) every orphan: the token's login once
 * (GraphQL `viewer`), and for each orphan its environment's page of deployments, each record's
 * latest status, and its pull request's page of comments.
 */
const READ_FLOOR = 1 + ORPHANS * (1 + RECORDS + 1);

const previewName = (number: number) => `my-agent-pr-${number}`;
const marker = (name: string) => `<!-- deploy-agent:${name.replaceAll('-', '%2D')} -->`;
/** Distinct close times, so that the orphans' order (oldest close first) is fixed. */
const closedAt = (number: number) =>
  new Date(Date.UTC(2026, 10, 1) + number * 60_000).toISOString();

/**
 * Both emulators as a fleet of previews looks: 250 pull requests (every 10th merged or closed,
 * alternately), a preview deployment for each in the service, and for each its GitHub deployment
 * and the bot's preview comment (the open ones' must stay untouched).
 */
function seedFleet(emu: Emulator, gh: GitHubEmulator) {
  for (let number = 1; number <= PREVIEWS; number++) {
    const state = !isOrphan(number) ? 'open' : number % 20 === 0 ? 'merged' : 'closed';
    gh.seedPullRequest(WORKFLOW_REPOSITORY, number, state, closedAt(number));
    gh.seedDeployments(WORKFLOW_REPOSITORY, `preview-pr-${number}`, RECORDS);
    gh.seedComment(
      WORKFLOW_REPOSITORY,
      number,
      `${marker(previewName(number))}\n### 🟢 \`${previewName(number)}\` is live`,
      GITHUB_ACTIONS_BOT,
    );
  }
  emu.seedDeployments(PREVIEWS, (i) => ({ name: previewName(i + 1) }));
}

/** One sweep through dist/sweep.js (sweep/action.yml's defaults), on a schedule. */
function sweep(emu: Emulator, gh: GitHubEmulator): Promise<Timed> {
  const [given, options] = gitHubStep(
    gh,
    {
      ...base(emu),
      'name-pattern': 'my-agent-pr-{number}',
      'environment-pattern': 'preview-pr-{number}',
      'dashboard-url': 'https://console.example/deployments/{id}',
    },
    {},
    { event: { name: 'schedule', ref: 'refs/heads/main', sha: 'a'.repeat(40), payload: {} } },
  );
  return runBundle(given, {
    event: options.event,
    env: options.env ?? {},
    action: 'sweep/action.yml',
  });
}

/** What one sweep cost and did, from the emulators' records of its requests. */
interface SweepCount {
  run: Timed;
  pages: number;
  serviceOther: number;
  stateQueries: number;
  writes: number;
  statusWrites: number;
  commentWrites: number;
  reads: number;
  kinds: string;
}

/** A GitHub request by kind, its ids left out. */
function kindOf(r: GitHubRequest): string {
  if (r.path === '/graphql') {
    const query = (r.body as { query?: unknown } | undefined)?.query;
    return typeof query === 'string' && /\bpullRequest\s*\(/.test(query)
      ? 'POST graphql (states)'
      : typeof query === 'string' && /\bviewer\b/.test(query)
        ? 'POST graphql (viewer)'
        : 'POST graphql';
  }
  return `${r.method} ${r.path.replace(/^\/repos\/[^/]+\/[^/]+/, '').replace(/\/\d+/g, '/N')}`;
}

function kindsOf(requests: GitHubRequest[]): string {
  const kinds = new Map<string, number>();
  for (const r of requests) kinds.set(kindOf(r), (kinds.get(kindOf(r)) ?? 0) + 1);
  return [...kinds].map(([kind, n]) => `${kind} ×${n}`).join(', ') || '(none)';
}

/** Runs one sweep and counts, on both emulators, the requests it sent. */
async function countedSweep(emu: Emulator, gh: GitHubEmulator): Promise<SweepCount> {
  const serviceFrom = emu.requests.length;
  const githubFrom = gh.requests.length;
  const run = await sweep(emu, gh);
  const service = emu.requests.slice(serviceFrom);
  const github = gh.requests.slice(githubFrom);
  const isNew = (r: GitHubRequest) => github.includes(r);
  const writes = gh.writes().filter(isNew);
  const stateQueries = gh.stateQueries().filter(isNew).length;
  const pages = service.filter((r) => r.method === 'GET' && r.path === '/v2/deployments').length;
  return {
    run,
    pages,
    serviceOther: service.length - pages,
    stateQueries,
    writes: writes.length,
    statusWrites: writes.filter((r) =>
      /^\/repos\/[^/]+\/[^/]+\/deployments\/\d+\/statuses$/.test(r.path),
    ).length,
    commentWrites: writes.filter(
      (r) => r.method === 'PATCH' && /\/issues\/comments\/\d+$/.test(r.path),
    ).length,
    reads: github.length - writes.length - stateQueries,
    kinds: kindsOf(github),
  };
}

interface SweepRound {
  first: SweepCount;
  second: SweepCount;
  /** What the outputs and the emulators' state say went wrong ('' none). */
  notes: string[];
}

async function sweepRound(round: number): Promise<SweepRound> {
  progress(`sweep: ${PREVIEWS} previews, ${ORPHANS} orphans, run ${round + 1} of ${SWEEP_RUNS}`);
  const [emu, gh] = await Promise.all([startEmulator({ apiKey: API_KEY }), startGitHubEmulator()]);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
  seedFleet(emu, gh);
  const notes: string[] = [];
  try {
    const first = await countedSweep(emu, gh);
    await pause(100);
    const second = await countedSweep(emu, gh);
    for (const [which, { run }, retired] of [
      ['first', first, ORPHANS],
      ['second', second, 0],
    ] as const) {
      if (run.exitCode !== 0) notes.push(`${which} sweep: ${failureNote(run)}`);
      const outputs = {
        'orphan-count': String(ORPHANS),
        'open-count': String(PREVIEWS - ORPHANS),
        'unknown-count': '0',
        retired: String(retired * RECORDS),
      };
      for (const [name, expected] of Object.entries(outputs)) {
        if (run.outputs[name] !== expected) {
          notes.push(`${which} sweep: ${name} ${run.outputs[name] ?? '(none)'}, not ${expected}`);
        }
      }
    }
    if (second.run.outputs.orphans !== first.run.outputs.orphans) {
      notes.push('the second sweep reported other orphans than the first');
    }
    // Exactly the orphans retired: their records inactive, their comments rewritten.
    const retiredRecords = gh.deployments.filter((record) => gh.stateOf(record.id) === 'inactive');
    const wrongRecords = retiredRecords.filter(
      (record) => !isOrphan(Number(record.environment.replace('preview-pr-', ''))),
    ).length;
    if (retiredRecords.length !== ORPHANS * RECORDS || wrongRecords > 0) {
      notes.push(
        `${retiredRecords.length} GitHub deployments inactive (${wrongRecords} of open pull requests), not ${ORPHANS * RECORDS}`,
      );
    }
    const rewritten = gh.comments.filter((comment) => comment.body.includes('retired'));
    if (rewritten.length !== ORPHANS || rewritten.some((comment) => !isOrphan(comment.issue))) {
      notes.push(`${rewritten.length} comments say retired, not the ${ORPHANS} orphans'`);
    }
    return { first, second, notes };
  } finally {
    await Promise.all([emu.close(), gh.close()]);
  }
}

/** One value when every run agrees, else the range. */
function spread(values: number[]): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? count(low) : `${count(low)}–${count(high)}`;
}

export async function sweepSection(): Promise<string> {
  const rounds: SweepRound[] = [];
  for (let round = 0; round < SWEEP_RUNS; round++) rounds.push(await sweepRound(round));
  const firsts = rounds.map((r) => r.first);
  const seconds = rounds.map((r) => r.second);
  const notes = [...new Set(rounds.flatMap((r) => r.notes))];
  const of = (runs: SweepCount[], key: keyof Omit<SweepCount, 'run' | 'kinds'>) =>
    runs.map((run) => run[key]);
  const worst = (runs: SweepCount[], key: keyof Omit<SweepCount, 'run' | 'kinds'>) =>
    Math.max(...of(runs, key));
  const both = (key: keyof Omit<SweepCount, 'run' | 'kinds'>) =>
    Math.max(worst(firsts, key), worst(seconds, key));
  const pagesOk = both('pages') <= PAGE_FLOOR && both('serviceOther') === 0;
  const queriesOk = both('stateQueries') <= STATE_QUERY_FLOOR;
  const writesOk =
    firsts.every(
      (first) =>
        first.writes === WRITE_FLOOR &&
        first.statusWrites === ORPHANS * RECORDS &&
        first.commentWrites === ORPHANS,
    ) && notes.length === 0;
  const failed = seconds.find((second) => second.run.exitCode !== 0);
  const secondOk = worst(seconds, 'writes') === 0 && failed === undefined;
  const readsOk = both('reads') <= READ_FLOOR;
  const wallFirst = median(firsts.map((first) => first.run.elapsedMs));
  const wallSecond = median(seconds.map((second) => second.run.elapsedMs));
  const rows = [
    [
      '**service pages** (`GET /v2/deployments`)',
      spread(of(firsts, 'pages')),
      spread(of(seconds, 'pages')),
      `the floor, ⌈${PREVIEWS}/${PAGE_LIMIT}⌉ = ${PAGE_FLOOR} (GET only)`,
      judge(
        pagesOk,
        `sweep: ${both('pages')} service pages over ${PREVIEWS} previews (floor ${PAGE_FLOOR})${both('serviceOther') > 0 ? `, and ${both('serviceOther')} other service requests` : ''}`,
      ),
    ],
    [
      "**state queries** (GraphQL, 100 pull requests' states each)",
      spread(of(firsts, 'stateQueries')),
      spread(of(seconds, 'stateQueries')),
      `the floor, ⌈${PREVIEWS}/100⌉ = ${STATE_QUERY_FLOOR}`,
      judge(
        queriesOk,
        `sweep: ${both('stateQueries')} pull request state queries for ${PREVIEWS} previews (floor ${STATE_QUERY_FLOOR})`,
      ),
    ],
    [
      '**GitHub writes**, first sweep (`gh.writes()`)',
      `${spread(of(firsts, 'writes'))} (${spread(of(firsts, 'statusWrites'))} inactive statuses, ${spread(of(firsts, 'commentWrites'))} comment PATCHes)`,
      '—',
      `the floor, ${WRITE_FLOOR}: for each of the ${ORPHANS} orphans ${RECORDS} inactive status a record and 1 comment PATCH; none for the open ones`,
      judge(
        writesOk,
        `sweep: the first sweep's GitHub writes ${spread(of(firsts, 'writes'))} (floor ${WRITE_FLOOR})${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`,
      ),
    ],
    [
      '**GitHub writes, second sweep right after**',
      '—',
      `**${spread(of(seconds, 'writes'))}**`,
      '0 (the orphans already retired: only reported)',
      judge(
        secondOk,
        `sweep: the second sweep wrote ${worst(seconds, 'writes')} times to GitHub (budget 0)${failed === undefined ? '' : `; ${failureNote(failed.run)}`}`,
      ),
    ],
    [
      'GitHub reads (all but the writes and the state queries)',
      spread(of(firsts, 'reads')),
      spread(of(seconds, 'reads')),
      `the floor, ${READ_FLOOR}: the token's login once, and for each orphan 1 page of its environment's deployments, ${RECORDS} latest status a record, 1 page of comments`,
      judge(readsOk, `sweep: ${both('reads')} GitHub reads (floor ${READ_FLOOR})`),
    ],
    ['total wall: spawn → exit (median)', sec(wallFirst), sec(wallSecond), 'reference', '—'],
  ];
  return [
    '## 7. The sweep',
    '',
    `\`sweep/action.yml\` (dist/sweep.js, its action.yml's defaults, \`on-orphans: warn\`) on a ` +
      '`schedule` event, against fresh emulators of the service and of GitHub (`GITHUB_API_URL`, ' +
      `the token a GITHUB_TOKEN), over ${PREVIEWS} previews \`my-agent-pr-1..${PREVIEWS}\` ` +
      '(`name-pattern: my-agent-pr-{number}`, `environment-pattern: preview-pr-{number}`): ' +
      `every 10th pull request merged or closed (${ORPHANS} orphans), the others open; each ` +
      `preview has ${RECORDS} GitHub deployment in \`preview-pr-N\` and the bot's preview ` +
      'comment. Then a **second sweep right after**, against the same emulators, which must ' +
      `write nothing. ${SWEEP_RUNS} run${SWEEP_RUNS === 1 ? '' : 's'} (fresh emulators each); ` +
      'counts are every run’s (a range when they differ), each checked for exit 0, the outputs ' +
      `(${ORPHANS} orphans, ${PREVIEWS - ORPHANS} open, 0 unknown, ${ORPHANS * RECORDS} retired ` +
      'then 0, the same orphans twice), exactly the orphans’ records inactive and their comments ' +
      'rewritten. Requests are counted by the emulators, every attempt included.',
    '',
    table(['Measure', 'First sweep', 'Second sweep', 'Budget', 'Verdict'], rows),
    '',
    `GitHub requests by kind, first sweep: ${firsts[0]?.kinds ?? 'n/a'}.`,
    '',
    `Second sweep: ${seconds[0]?.kinds ?? 'n/a'}.`,
    ...notes.map((note) => `\n⚠️ ${note}`),
  ].join('\n');
}

runAlone(import.meta.url, sweepSection);
