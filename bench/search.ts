/**
 * Section 3, search cost: an exact-name search whose match comes after 1,000 or 10,000 partial
 * matches, at 0 and 5 ms emulator latency, with the peak memory of the action process.
 * **Budgets: the action's own time ≤ 2 ms per page (10,000 matches); peak RSS within 20 MB from
 * 1,000 to 10,000.** Alone: `node script/node24.mjs bench/search.ts [--quick]`.
 */
import { startEmulator } from '../test/emulator/emulator.ts';
import {
  API_KEY,
  PAGE_LIMIT,
  QUICK,
  SEARCH_NAME,
  count,
  failureNote,
  isSearch,
  judge,
  mb,
  median,
  ms,
  ownTimePerPage,
  pause,
  progress,
  runAlone,
  searchInputs,
  seedSearch,
  since,
  table,
} from './common.ts';
import { peakMemoryHook, runBareNode, runBundle } from './spawn.ts';

const SEARCH_RUNS = QUICK ? 1 : 3;

interface SearchResult {
  partial: number;
  latencyMs: number;
  floor: number;
  pages: number[];
  totalMs: number[];
  firstMs: number[];
  endMs: number[];
  perPageMs: number[];
  gapMs: number[];
  ownMs: number[];
  peakKb: number[];
  notes: Set<string>;
}

async function searchCase(partial: number, latencyMs: number): Promise<SearchResult> {
  progress(`search: ${count(partial)} partial matches, ${latencyMs} ms latency`);
  const emu = await startEmulator({ apiKey: API_KEY, latencyMs });
  const floor = seedSearch(emu, partial);
  const result: SearchResult = {
    partial,
    latencyMs,
    floor,
    pages: [],
    totalMs: [],
    firstMs: [],
    endMs: [],
    perPageMs: [],
    gapMs: [],
    ownMs: [],
    peakKb: [],
    notes: new Set(),
  };
  for (let i = 0; i < SEARCH_RUNS; i++) {
    await pause(100);
    const from = emu.requests.length;
    const run = await runBundle(searchInputs(emu), {
      nodeArgs: ['--import', peakMemoryHook()],
      killAfterMs: 120_000,
    });
    const requests = since(emu, from);
    const pages = requests.filter(isSearch).length;
    const total = run.exitedAt - run.spawnedAt;
    const first = (requests[0]?.time ?? NaN) - run.spawnedAt;
    const last = requests.at(-1)?.time ?? NaN;
    if (run.exitCode !== 0) result.notes.add(failureNote(run));
    if (run.outputs.created !== 'false') result.notes.add('the exact match was not reused');
    result.pages.push(pages);
    result.totalMs.push(total);
    result.firstMs.push(first);
    result.endMs.push(run.exitedAt - last);
    result.perPageMs.push((total - first - pages * latencyMs) / pages);
    result.gapMs.push((last - (requests[0]?.time ?? NaN)) / (pages - 1) - latencyMs);
    result.ownMs.push(ownTimePerPage(requests));
    if (run.peakRssKb !== undefined) result.peakKb.push(run.peakRssKb);
  }
  await emu.close();
  return result;
}

/**
 * The same pages fetched by a plain `fetch` + `JSON.parse` loop in the bench process (which also
 * hosts the emulator): what serving and moving one page costs without the action.
 */
async function plainFetchPerPage(partial: number): Promise<{ perPageMs: number; pageKb: number }> {
  const emu = await startEmulator({ apiKey: API_KEY });
  seedSearch(emu, partial);
  const times: number[] = [];
  let bytes = 0;
  let fetched = 0;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    let offset = 0;
    let pages = 0;
    for (;;) {
      const query = new URLSearchParams({
        name_contains: SEARCH_NAME,
        limit: String(PAGE_LIMIT),
        offset: String(offset),
      });
      const response = await fetch(`${emu.url}/v2/deployments?${query.toString()}`, {
        headers: { 'x-api-key': API_KEY },
      });
      const text = await response.text();
      const page = JSON.parse(text) as { resources: { name: string }[] };
      bytes += Buffer.byteLength(text);
      fetched++;
      pages++;
      if (page.resources.some((d) => d.name === SEARCH_NAME)) break;
      offset += page.resources.length;
    }
    times.push((performance.now() - started) / pages);
  }
  await emu.close();
  return { perPageMs: median(times), pageKb: bytes / fetched / 1000 };
}

export async function searchCost(): Promise<string> {
  const cases: SearchResult[] = [];
  for (const [partial, latency] of [
    [1_000, 0],
    [10_000, 0],
    [1_000, 5],
    [10_000, 5],
  ] as const) {
    cases.push(await searchCase(partial, latency));
  }
  const plain = await plainFetchPerPage(10_000);
  const timeRows = cases.map((c) => {
    const own = median(c.ownMs);
    const pages = median(c.pages);
    // The budget is about the 10,000 case; with 11 pages the first, cold pages dominate.
    const judged = c.partial === 10_000;
    const ok = (!judged || own <= 2) && pages <= c.floor && c.notes.size === 0;
    return [
      count(c.partial),
      `${c.latencyMs} ms`,
      `${count(pages)} (floor ${count(c.floor)})`,
      ms(median(c.totalMs)),
      ms(median(c.firstMs)),
      ms(median(c.endMs)),
      ms(median(c.gapMs)),
      ms(median(c.perPageMs)),
      `**${ms(own)}**`,
      judged ? '≤ 2 ms/page' : 'reference',
      (judged || !ok
        ? judge(
            ok,
            `search: ${count(c.partial)} partial matches at ${c.latencyMs} ms latency: the action's own time is ${ms(own)} per page (budget ≤ 2 ms)${pages > c.floor ? `, ${count(pages)} pages against a floor of ${count(c.floor)}` : ''}${c.notes.size > 0 ? `; ${[...c.notes].join('; ')}` : ''}`,
          )
        : '—') +
        (pages > c.floor ? ' above floor' : '') +
        [...c.notes].map((note) => ` ${note}`).join(''),
    ];
  });
  const at = (partial: number) => cases.find((c) => c.partial === partial && c.latencyMs === 0);
  const small = median(at(1_000)?.peakKb ?? []);
  const large = median(at(10_000)?.peakKb ?? []);
  const growth = (large - small) / 1024;
  const bareKb: number[] = [];
  for (let i = 0; i < 3; i++) {
    const bare = await runBareNode({ nodeArgs: ['--import', peakMemoryHook()] });
    if (bare.peakRssKb !== undefined) bareKb.push(bare.peakRssKb);
  }
  return [
    '## 3. Search cost',
    '',
    `Exact-name search for \`${SEARCH_NAME}\` (internal_docker, so the search is the whole run) ` +
      'whose exact match comes after N partial matches (`name_contains` hits), pages of 100 ' +
      `(${plain.pageKb.toFixed(0)} kB of JSON each). Medians of ${SEARCH_RUNS} run${SEARCH_RUNS === 1 ? '' : 's'}. ` +
      "**Action's own time per page** (the budgeted figure) = the mean time from the emulator " +
      'handing an answer to the socket to the arrival of the next request: the action reading, ' +
      'parsing and validating a page and sending the next request, loopback included; the ' +
      "latency and the emulator's handling are outside it. For reference: **Page-to-page gap** = " +
      '(last − first request arrival) / (pages − 1) − latency, which also holds the emulator’s ' +
      'handling and timer overshoot, and **Per page beyond latency** = (total − ' +
      "spawn-to-first-request − pages × latency) / pages, which also holds the run's ending.",
    '',
    table(
      [
        'Partial matches',
        'Latency',
        'Pages',
        'Total wall',
        'Spawn → 1st request',
        'Last request → exit',
        'Page-to-page gap − latency',
        'Per page beyond latency',
        "Action's own time per page",
        'Budget',
        'Verdict',
      ],
      timeRows,
    ),
    '',
    `Baseline: a plain \`fetch\` + \`JSON.parse\` loop over the same 101 pages (10,000 partial ` +
      `matches, 0 ms), run in the bench process that also hosts the emulator, takes ` +
      `${ms(plain.perPageMs)} per page: that much of each page's cost is the emulator and loopback, not ` +
      'the action.',
    '',
    'Peak memory: `maxRSS` of the action process (preloaded with `--import` of a module that ' +
      'prints `process.resourceUsage().maxRSS` on exit), 0 ms latency, medians as above.',
    '',
    table(
      ['Measure', 'Value', 'Budget', 'Verdict'],
      [
        ['bare `node -e 0` (same hook)', mb(median(bareKb)), 'reference', '—'],
        ['peak RSS, 1,000 partial matches', mb(small), 'reference', '—'],
        ['peak RSS, 10,000 partial matches', mb(large), 'reference', '—'],
        [
          'growth 1,000 → 10,000',
          `${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB`,
          '≤ 20 MB (flat)',
          judge(
            growth <= 20,
            `search: peak RSS grows by ${growth.toFixed(1)} MB from 1,000 to 10,000 partial matches (budget ≤ 20 MB)`,
          ),
        ],
      ],
    ),
  ].join('\n');
}

runAlone(import.meta.url, searchCost);
