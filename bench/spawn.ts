/**
 * The bench runs the bundled action the way the tests do
 * (test/support/run-action.ts: INPUT_* variables with action.yml defaults,
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, the run's event, the spawn
 * time taken just before `spawn`), with optional Node flags (e.g. `--import`
 * of the peak-memory hook). Other scripts (the ECS anchor, the bundle of an
 * earlier commit, `node -e 0`) run in exactly the same environment. The
 * command (dist/cli.js) runs as test/cli/run-cli.ts runs it: arguments, only
 * the environment given (plus PATH and HOME), a folder of its own, stdout
 * and stderr piped.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI } from '../test/cli/run-cli.ts';
import { ROOT } from '../test/support/action.ts';
import {
  BUNDLE,
  NODE24,
  bundleOf,
  startAction,
  type ActionRun,
  type RunOptions,
} from '../test/support/run-action.ts';

export { BUNDLE, CLI, NODE24 };

/**
 * The ECS deploy action's committed bundle (../shared/reference/anchors/README.md): the
 * side-by-side start-up comparison. Undefined when this checkout has no ../shared next to it.
 */
export const ANCHOR = ((file) => (existsSync(file) ? file : undefined))(
  path.join(ROOT, '..', 'shared', 'reference', 'anchors', 'ecs-deploy-task-definition.dist.js'),
);

const temporary: string[] = [];
process.on('exit', () => {
  for (const directory of temporary) rmSync(directory, { recursive: true, force: true });
});

function temporaryDirectory(prefix: string): string {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  temporary.push(directory);
  return directory;
}

/**
 * `dist/` of an earlier commit (`git show COMMIT:dist/...`) in a temporary folder, removed when
 * the bench exits: the "before" of a before/after. A string saying why when git cannot give it.
 */
export function bundleAt(commit: string): { path: string; kb: number } | string {
  const show = (file: string) =>
    execFileSync('git', ['show', `${commit}:dist/${file}`], {
      cwd: ROOT,
      maxBuffer: 64 * 2 ** 20,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  try {
    const bundle = show('index.js');
    const directory = temporaryDirectory(`bench-${commit}-`);
    writeFileSync(path.join(directory, 'index.js'), bundle);
    // The bundle is an ES module only with its package.json beside it.
    writeFileSync(path.join(directory, 'package.json'), show('package.json'));
    return { path: path.join(directory, 'index.js'), kb: bundle.length / 1000 };
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return `git show ${commit}:dist/index.js failed${stderr ? `: ${stderr.split('\n')[0]}` : ''}`;
  }
}

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
    hookPath = path.join(temporaryDirectory('bench-hook-'), 'peak-memory.mjs');
    writeFileSync(hookPath, PEAK_MEMORY_HOOK);
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
  /** The run's event (GITHUB_EVENT_NAME, GITHUB_REF, GITHUB_SHA, the payload file). */
  event?: RunOptions['event'];
  /** Extra environment variables (GITHUB_API_URL, a GitHub input not in action.yml yet). */
  env?: Record<string, string>;
  /**
   * The sub-action run: its action.yml's defaults, its entry (`plan/action.yml`: dist/plan.js,
   * `retire/action.yml`: dist/retire.js, `sweep/action.yml`: dist/sweep.js).
   */
  action?: 'plan/action.yml' | 'retire/action.yml' | 'sweep/action.yml';
  /** Files to write into the workspace first (a manifest): relative path → content. */
  files?: Record<string, string>;
}

const peakRss = (stderr: string) => {
  const rss = /^PEAK_RSS_KB=(\d+)$/m.exec(stderr);
  return rss === null ? undefined : Number(rss[1]);
};

/** Spawns `NODE24 ...nodeArgs ...script` in a step's environment, as the tests do, and times it. */
async function timedSpawn(
  script: string[],
  given: Record<string, string>,
  options: SpawnOptions,
): Promise<Timed> {
  const run = await startAction(given, {
    argv: [...(options.nodeArgs ?? []), ...script],
    killAfterMs: options.killAfterMs ?? 120_000,
    event: options.event,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.action === undefined ? {} : { action: options.action }),
    ...(options.files === undefined ? {} : { files: options.files }),
  }).finished;
  return { ...run, peakRssKb: peakRss(run.stderr) };
}

/** Runs dist/index.js (or the sub-action's entry) with these inputs (its action.yml's defaults applied). */
export function runBundle(given: Record<string, string>, options: SpawnOptions = {}) {
  return timedSpawn([bundleOf(options.action)], given, options);
}

/**
 * Runs another script (the ECS anchor, an earlier bundle) in the same environment as
 * `runBundle(given)`: the same INPUT_* variables, which a script that declares other inputs
 * ignores.
 */
export function runScript(
  script: string,
  given: Record<string, string>,
  options: SpawnOptions = {},
) {
  return timedSpawn([script], given, options);
}

/** Runs `node -e 0` on the same binary, in the same kind of environment. */
export function runBareNode(options: SpawnOptions = {}) {
  return timedSpawn(['-e', '0'], {}, options);
}

/** A run of the command: what it printed, its exit, and its times. */
export interface CommandRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Date.now() just before spawn, and when the process exited (comparable with the emulator's times). */
  spawnedAt: number;
  exitedAt: number;
  /** From PEAK_RSS_KB= on stderr. */
  peakRssKb: number | undefined;
}

/**
 * Runs `NODE24 ...nodeArgs dist/cli.js ...args` with only `env` (plus PATH and HOME) in a
 * temporary folder of its own, stdout and stderr piped (so the command writes for a pipe: a
 * listing as tab-separated lines).
 */
export function runCommand(
  args: string[],
  env: Record<string, string>,
  options: Pick<SpawnOptions, 'nodeArgs' | 'killAfterMs'> = {},
): Promise<CommandRun> {
  const directory = mkdtempSync(path.join(tmpdir(), 'bench-cli-'));
  const spawnedAt = Date.now();
  const child = spawn(NODE24, [...(options.nodeArgs ?? []), CLI, ...args], {
    cwd: directory,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: directory, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exitedAt = 0;
  child.on('exit', () => (exitedAt = Date.now()));
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 120_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      clearTimeout(killer);
      rmSync(directory, { recursive: true, force: true });
      resolve({
        exitCode,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr,
        spawnedAt,
        exitedAt,
        peakRssKb: peakRss(stderr),
      });
    });
  });
}
