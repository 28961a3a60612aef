/**
 * The bench runs the bundled action the way the tests do
 * (test/support/run-action.ts: INPUT_* variables with action.yml defaults,
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, the spawn time taken just
 * before `spawn`), with optional Node flags (e.g. `--import` of the
 * peak-memory hook).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUNDLE, NODE24, startAction, type ActionRun } from '../test/support/run-action.ts';

export { BUNDLE, NODE24 };

/**
 * Preloaded into the action's process with `--import`: prints the peak
 * resident set size (KiB) on stderr as the process exits. Written to a
 * temporary .mjs file at run time (a .ts preload would make Node load its
 * type stripper, adding ~17 MB and ~30 ms to the process being measured).
 */
const PEAK_MEMORY_HOOK = `process.on('exit', () => {
  process.stderr.write('PEAK_RSS_KB=' + process.resourceUsage().maxRSS + '\\n');
});
`;

let hookPath: string | undefined;

/** The absolute path of the peak-memory preload module (created once). */
export function peakMemoryHook(): string {
  if (hookPath === undefined) {
    const directory = mkdtempSync(path.join(tmpdir(), 'bench-hook-'));
    hookPath = path.join(directory, 'peak-memory.mjs');
    writeFileSync(hookPath, PEAK_MEMORY_HOOK);
    process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
  }
  return hookPath;
}

/** A run as the tests see it, with the peak memory when the hook was preloaded. */
export interface Timed extends ActionRun {
  /** From PEAK_RSS_KB= on stderr. */
  peakRssKb: number | undefined;
}

export interface SpawnOptions {
  /** Node flags before the script (e.g. ['--import', peakMemoryHook()]). */
  nodeArgs?: string[];
  /** Safety net: SIGKILL after this long. */
  killAfterMs?: number;
}

/** Spawns `NODE24 ...nodeArgs ...script` in a step's environment, as the tests do, and times it. */
async function timedSpawn(
  script: string[],
  given: Record<string, string>,
  options: SpawnOptions,
): Promise<Timed> {
  const run = await startAction(given, {
    argv: [...(options.nodeArgs ?? []), ...script],
    killAfterMs: options.killAfterMs ?? 120_000,
  }).finished;
  const rss = /^PEAK_RSS_KB=(\d+)$/m.exec(run.stderr);
  return { ...run, peakRssKb: rss === null ? undefined : Number(rss[1]) };
}

/** Runs dist/index.js with these inputs (action.yml defaults applied). */
export function runBundle(given: Record<string, string>, options: SpawnOptions = {}) {
  return timedSpawn([BUNDLE], given, options);
}

/** Runs `node -e 0` on the same binary, in the same kind of environment. */
export function runBareNode(options: SpawnOptions = {}) {
  return timedSpawn(['-e', '0'], {}, options);
}
