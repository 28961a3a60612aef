/**
 * Section 6, the fleet: `deploy-agent list --all` (dist/cli.js, stdout piped, so tab-separated
 * lines) over 9,999, 10,000 and 10,001 deployments, around the cap of 10,000, its requests
 * counted and timed, with the peak memory of the command's process; then its peak memory at
 * 1,000 and 10,000 deployments, piped and with `--json`, which write each page as it arrives.
 * **Budgets: the floor of pages; the command's own time ≤ 2 ms per page (the search's budget);
 * peak RSS at 10,000 within 20 MB of 1,000.** Alone:
 * `node script/node24.mjs bench/fleet.ts [--quick]`.
 */
import { startEmulator, type RecordedRequest } from '../test/emulator/emulator.ts';
import {
  API_KEY,
  IMAGE,
  PAGE_LIMIT,
  QUICK,
  count,
  failureNote,
  judge,
  mb,
  median,
  ms,
  ownTimePerPage,
  pageGaps,
  pause,
  progress,
  runAlone,
  since,
  table,
} from './common.ts';
import { peakMemoryHook, runCommand } from './spawn.ts';

const LIST_RUNS = QUICK ? 1 : 3;
/** `--all` reads at most this many deployments (LIST_CAP in src/inputs/fleet-inputs.ts). */
const CAP = 10_000;
/** The warning `list --all` gives on stderr when the cap cuts the list. */
const CUT_WARNING = `more than ${count(CAP)} deployments match`;

const isListing = (r: RecordedRequest) => r.method === 'GET' && r.path === '/v2/deployments';

/**
 * The fewest `GET /v2/deployments` that `list --all` can send for `deployments`: pages of 100,
 * each following the offset; below the cap the list ends at the first page shorter than asked
 * (an empty one after a full last page); at the cap, one more request of limit=1 says whether
 * the list goes on.
 */
const floorOf = (deployments: number) =>
  deployments >= CAP ? CAP / PAGE_LIMIT + 1 : Math.floor(deployments / PAGE_LIMIT) + 1;

interface ListResult {
  deployments: number;
  floor: number;
  pages: number[];
  lines: number[];
  totalMs: number[];
  firstMs: number[];
  endMs: number[];
  ownMs: number[];
  gapMs: number[];
  peakKb: number[];
  pageKb: number;
  notes: Set<string>;
}

async function listCase(deployments: number): Promise<ListResult> {
  progress(`fleet: list --all over ${count(deployments)} deployments`);
  const emu = await startEmulator({ apiKey: API_KEY });
  // As a fleet looks.
  seedFleet(emu, deployments);
  const expected = Math.min(deployments, CAP);
  const result: ListResult = {
    deployments,
    floor: floorOf(deployments),
    pages: [],
    lines: [],
    totalMs: [],
    firstMs: [],
    endMs: [],
    ownMs: [],
    gapMs: [],
    peakKb: [],
    pageKb: NaN,
    notes: new Set(),
  };
  const pageBytes: number[] = [];
  for (let i = 0; i < LIST_RUNS; i++) {
    await pause(100);
    const from = emu.requests.length;
    const run = await runCommand(
      ['list', '--all'],
      { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: API_KEY },
      { nodeArgs: ['--import', peakMemoryHook()] },
    );
    const requests = since(emu, from);
    const pages = requests.filter(isListing).length;
    const lines = run.stdout.split('\n').filter((line) => line !== '').length;
    if (run.exitCode !== 0) result.notes.add(failureNote(run));
    if (requests.some((r) => !isListing(r))) result.notes.add('a request other than the listing');
    if (lines !== expected) result.notes.add(`${count(lines)} lines, not ${count(expected)}`);
    const warned = run.stderr.includes(CUT_WARNING);
    if (deployments > CAP && !warned) result.notes.add('no warning that the cap cuts the list');
    if (deployments <= CAP && warned) result.notes.add('a warning of a cut that did not happen');
    const first = requests[0]?.time ?? NaN;
    result.pages.push(pages);
    result.lines.push(lines);
    result.totalMs.push(run.exitedAt - run.spawnedAt);
    result.firstMs.push(first - run.spawnedAt);
    result.endMs.push(run.exitedAt - (requests.at(-1)?.time ?? NaN));
    result.ownMs.push(ownTimePerPage(requests));
    result.gapMs.push(median(pageGaps(requests)));
    if (run.peakRssKb !== undefined) result.peakKb.push(run.peakRssKb);
    for (const r of requests) {
      if (r.query.limit === String(PAGE_LIMIT) && r.bytesSent !== undefined) {
        pageBytes.push(r.bytesSent);
      }
    }
  }
  result.pageKb = median(pageBytes) / 1000;
  await emu.close();
  return result;
}

/** Peak RSS may grow at most this much from 1,000 to 10,000 deployments. */
const FLAT_MB = 20;

/** The seeded fleet: an image each, with a version, and a secret (its value is never printed). */
function seedFleet(emu: Awaited<ReturnType<typeof startEmulator>>, deployments: number): void {
  emu.seedDeployments(deployments, (i) => ({
    name: `bench-fleet-${i}`,
    source: 'internal_docker',
    source_revision_config: { image_uri: IMAGE },
    image_version: '1.0.0',
    secrets: [{ name: 'OPENAI_API_KEY', value: `sk-bench-fleet-${i}-0123456789abcdef` }],
  }));
}

/** Peak RSS (kB, the median of the runs) of `list --all` and `list --all --json` over `deployments`. */
async function memoryCase(deployments: number): Promise<{ lines: number; json: number }> {
  progress(`fleet: peak memory of list --all over ${count(deployments)} deployments`);
  const emu = await startEmulator({ apiKey: API_KEY });
  seedFleet(emu, deployments);
  const peaks = { lines: [] as number[], json: [] as number[] };
  for (let i = 0; i < LIST_RUNS; i++) {
    for (const form of ['lines', 'json'] as const) {
      await pause(100);
      const run = await runCommand(
        ['list', '--all', ...(form === 'json' ? ['--json'] : [])],
        { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: API_KEY },
        { nodeArgs: ['--import', peakMemoryHook()] },
      );
      if (run.exitCode === 0 && run.peakRssKb !== undefined) peaks[form].push(run.peakRssKb);
    }
  }
  await emu.close();
  return { lines: median(peaks.lines), json: median(peaks.json) };
}

/** The memory table: 1,000 against 10,000, each form. */
async function fleetMemory(): Promise<string> {
  const small = await memoryCase(1_000);
  const large = await memoryCase(10_000);
  const rows = (['lines', 'json'] as const).map((form) => {
    const growth = (large[form] - small[form]) / 1024;
    const name = form === 'json' ? '`list --all --json`' : '`list --all` piped (lines)';
    return [
      name,
      mb(small[form]),
      mb(large[form]),
      `**${Number.isNaN(growth) ? 'n/a' : `${growth.toFixed(1)} MB`}**`,
      `≤ ${FLAT_MB} MB`,
      judge(
        growth <= FLAT_MB,
        `fleet: ${name} peak RSS grows ${growth.toFixed(1)} MB from 1,000 to 10,000 deployments (budget ≤ ${FLAT_MB} MB)`,
      ),
    ];
  });
  return [
    `**Streams stay flat.** Peak RSS of the command process at 1,000 and 10,000 deployments (the same fleet, medians of ${LIST_RUNS} run${LIST_RUNS === 1 ? '' : 's'}), piped and with \`--json\`, which write each page as it arrives; only the ids (to list each once) and the secrets' values (for the redactor) grow with the fleet.`,
    '',
    table(['Form', '1,000', '10,000', 'Growth', 'Budget', 'Verdict'], rows),
  ].join('\n');
}

export async function fleetList(): Promise<string> {
  const cases: ListResult[] = [];
  for (const deployments of [9_999, 10_000, 10_001]) cases.push(await listCase(deployments));
  const rows = cases.map((c) => {
    const own = median(c.ownMs);
    const pages = median(c.pages);
    const ok = pages <= c.floor && own <= 2 && c.notes.size === 0;
    return [
      count(c.deployments),
      `${count(pages)} (floor ${count(c.floor)})`,
      count(median(c.lines)),
      ms(median(c.totalMs)),
      ms(median(c.firstMs)),
      ms(median(c.endMs)),
      `**${ms(own)}**`,
      ms(median(c.gapMs)),
      mb(c.peakKb.length === 0 ? undefined : median(c.peakKb)),
      'the floor; ≤ 2 ms/page',
      judge(
        ok,
        `fleet: list --all over ${count(c.deployments)} deployments: ${count(pages)} requests against a floor of ${count(c.floor)}, the command's own time ${ms(own)} per page (budget ≤ 2 ms)${c.notes.size > 0 ? `; ${[...c.notes].join('; ')}` : ''}`,
      ) +
        (pages > c.floor ? ' above floor' : '') +
        [...c.notes].map((note) => ` ${note}`).join(''),
    ];
  });
  const pageKb = cases.find((c) => c.deployments === CAP)?.pageKb ?? NaN;
  return [
    '## 6. The fleet: `list --all`',
    '',
    '`deploy-agent list --all` (dist/cli.js under Node 24, `DEPLOY_API_URL` and ' +
      '`DEPLOY_API_KEY` only, stdout a pipe, so one tab-separated line a deployment) over N ' +
      'deployments, around its cap of 10,000: each an image with a version and a secret, pages ' +
      `of 100 (${pageKb.toFixed(0)} kB of JSON each), 0 ms latency. Medians of ${LIST_RUNS} ` +
      `run${LIST_RUNS === 1 ? '' : 's'}; each checked for exit 0 and one line a deployment ` +
      '(10,000 for 10,001, with the warning that the cap cuts the list on stderr; no warning ' +
      'otherwise). **Requests** are every `GET /v2/deployments` against the floor: 9,999 need ' +
      '100 pages, the last one short, which ends the list; 10,000 need 100 full pages and one ' +
      'request of limit=1 to learn whether the list goes on (101), and so do 10,001, whose ' +
      "answer to it is the warning. **Command's own time per page** is the search's figure: the " +
      'mean time from the emulator handing an answer to the socket to the arrival of the next ' +
      'request (reading, parsing and vetting a page, and sending the next request); for ' +
      'reference, **median page gap** is the median of the same gaps, which the first, cold ' +
      'pages and a pause of the collector do not move. ' +
      '**Last request → exit** holds the rest of the run: the last answer, then registering ' +
      "the last page's lines and exiting (each page is written as it arrives). Peak RSS is " +
      '`maxRSS` of the command process (the hook of section 3).',
    '',
    table(
      [
        'Deployments',
        'Requests',
        'Lines on stdout',
        'Total wall',
        'Spawn → 1st request',
        'Last request → exit',
        "Command's own time per page",
        'Median page gap',
        'Peak RSS',
        'Budget',
        'Verdict',
      ],
      rows,
    ),
    '',
    await fleetMemory(),
  ].join('\n');
}

runAlone(import.meta.url, fleetList);
