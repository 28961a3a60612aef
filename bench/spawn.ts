/**
 * The bench's own way to run the bundled action: the same process set-up as
 * test/support/run-action.ts (INPUT_* variables with action.yml defaults,
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files), but with everything prepared
 * before the clock starts, the spawn time taken just before `spawn`, and
 * optional Node flags (e.g. `--import` of the peak-memory hook).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BUNDLE,
  NODE24,
  parseOutputFile,
  runnerEnvironment,
  type ActionRun,
} from '../test/support/run-action.ts';

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

/** A run as the tests see it (less the files' text), timed. */
export interface Timed extends Omit<ActionRun, 'outputFile' | 'summary'> {
  /** Date.now() just before spawn (comparable with the emulator's request times). */
  spawnedAt: number;
  /** Date.now() when the process exited. */
  exitedAt: number;
  /** performance.now() from just before spawn to the exit event, in ms. */
  elapsedMs: number;
  /** From PEAK_RSS_KB= on stderr, when the hook was preloaded. */
  peakRssKb: number | undefined;
}

export interface SpawnOptions {
  /** Node flags before the script (e.g. ['--import', peakMemoryHook()]). */
  nodeArgs?: string[];
  /** Safety net: SIGKILL after this long. */
  killAfterMs?: number;
}

/** Spawns `NODE24 ...args` with an action-like environment and times it. */
function timedSpawn(
  args: string[],
  given: Record<string, string> | undefined,
  options: SpawnOptions,
): Promise<Timed> {
  const { directory, workspace, outputPath, env } = runnerEnvironment(given);
  const argv = [...(options.nodeArgs ?? []), ...args];
  return new Promise<Timed>((resolve, reject) => {
    const spawnedAt = Date.now();
    const started = performance.now();
    const child = spawn(NODE24, argv, { env, cwd: workspace, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let exitedAt = 0;
    let elapsedMs = 0;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 120_000);
    child.on('exit', () => {
      elapsedMs = performance.now() - started;
      exitedAt = Date.now();
    });
    child.on('error', (error) => {
      clearTimeout(killer);
      reject(error);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(killer);
      const outputs = parseOutputFile(readFileSync(outputPath, 'utf8'));
      rmSync(directory, { recursive: true, force: true });
      const rss = /^PEAK_RSS_KB=(\d+)$/m.exec(stderr);
      const errorLine = stdout.split('\n').find((line) => line.startsWith('::error::'));
      resolve({
        exitCode,
        signal,
        stdout,
        stderr,
        outputs,
        spawnedAt,
        exitedAt,
        elapsedMs,
        peakRssKb: rss === null ? undefined : Number(rss[1]),
        error: errorLine?.slice(9),
      });
    });
  });
}

/** Runs dist/index.js with these inputs (action.yml defaults applied). */
export function runBundle(given: Record<string, string>, options: SpawnOptions = {}) {
  return timedSpawn([BUNDLE], given, options);
}

/** Runs `node -e 0` on the same binary, in the same kind of environment. */
export function runBareNode(options: SpawnOptions = {}) {
  return timedSpawn(['-e', '0'], undefined, options);
}
