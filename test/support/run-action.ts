/**
 * Runs the bundled action (dist/index.js) as the runner does: under Node 24,
 * inputs as INPUT_* variables (hyphens kept) with action.yml defaults
 * applied, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as files, then reads the
 * outputs and the summary back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { node24 } from '../../script/node24-path.mjs';
import { ROOT, WORKFLOW_REPOSITORY, actionYml, withDefaults } from './action.ts';

function requireNode24(): string {
  const binary = node24();
  if (binary === undefined) {
    throw new Error(
      `Node ${process.versions.node} cannot run the bundle: install Node 24 or newer.`,
    );
  }
  return binary;
}

/** The runner's `node24`: the current Node when it is 24 or newer, else the optional package's. */
export const NODE24 = requireNode24();
export const BUNDLE = path.join(ROOT, 'dist', 'index.js');
/**
 * How long a spawned run may take before it is killed, unless a test says otherwise: below the
 * tests' 20 s timeout (vitest.config.ts), so a run that hangs fails its own test with what it
 * printed, and never outlives it.
 */
export const KILL_AFTER_MS = 15_000;
/** The file the runner starts for `action` (an action.yml's path): its `runs.main`, from its folder. */
export function bundleOf(action = 'action.yml'): string {
  return path.join(ROOT, path.dirname(action), actionYml(action).runs.main);
}

export interface ActionRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The outputs, the last value of each (as the runner reads GITHUB_OUTPUT). */
  outputs: Record<string, string>;
  /** Every value written to GITHUB_OUTPUT, in order. */
  outputFile: string;
  summary: string;
  /** The message of the `::error::` command, if any, unescaped. */
  error: string | undefined;
  /** Date.now() just before spawn, and when the process exited (comparable with the emulator's times). */
  spawnedAt: number;
  exitedAt: number;
  /** performance.now() from just before spawn to the exit, in ms. */
  elapsedMs: number;
}

export interface RunOptions {
  /** Extra environment variables (e.g. RUNNER_DEBUG). */
  env?: Record<string, string>;
  /** Files to write into the workspace before the run: relative path → content. */
  files?: Record<string, string>;
  /** Kills the run after this long (a test safety net, not a timing assertion); runAction: KILL_AFTER_MS. */
  killAfterMs?: number;
  /** What Node runs, flags included. Default: the bundle. */
  argv?: string[];
  /**
   * The event the run is for, as the runner gives it: GITHUB_EVENT_NAME, GITHUB_REF,
   * GITHUB_SHA, and the payload in the file GITHUB_EVENT_PATH names.
   */
  event?: { name: string; ref: string; sha: string; payload?: unknown };
  /**
   * Sets an INPUT_* variable for the given inputs only, as a run outside a
   * runner does (`local-action`); by default every declared input has one.
   */
  onlyGiven?: boolean;
  /** The sub-action whose inputs and entry the run uses, e.g. `plan/action.yml`. */
  action?: string;
}

/** Parses the `name<<DELIMITER ... DELIMITER` blocks that core.setOutput appends. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const match = /^([^<]+)<<(.+)$/.exec(lines[index] ?? '');
    if (match === null) continue;
    const [, name, delimiter] = match as unknown as [string, string, string];
    const value: string[] = [];
    for (index++; index < lines.length && lines[index] !== delimiter; index++) {
      value.push(lines[index] ?? '');
    }
    outputs[name] = value.join('\n');
  }
  return outputs;
}

function unescapeCommand(text: string): string {
  return text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

export interface StartedAction {
  child: ChildProcess;
  /** Resolves with the run once the process has exited. */
  finished: Promise<ActionRun>;
  /** Everything printed to stdout so far. */
  stdoutSoFar(): string;
}

/** A step's files and environment, as the runner prepares them. */
interface RunnerEnvironment {
  /** The temporary folder holding everything below; remove it after the run. */
  directory: string;
  workspace: string;
  outputPath: string;
  summaryPath: string;
  env: Record<string, string>;
}

/**
 * Makes a workspace (with `files`), empty GITHUB_OUTPUT and GITHUB_STEP_SUMMARY
 * files, and the environment of a step: GITHUB_* variables, then `extraEnv`,
 * then one INPUT_* variable per input (none when `given` is undefined).
 */
function runnerEnvironment(
  given: Record<string, string> | undefined,
  files: Record<string, string> = {},
  extraEnv: Record<string, string> = {},
  event?: RunOptions['event'],
  onlyGiven = false,
  action = 'action.yml',
): RunnerEnvironment {
  const directory = mkdtempSync(path.join(tmpdir(), 'action-run-'));
  const workspace = path.join(directory, 'workspace');
  const outputPath = path.join(directory, 'output');
  const summaryPath = path.join(directory, 'summary');
  writeFileSync(outputPath, '');
  writeFileSync(summaryPath, '');
  for (const [file, content] of Object.entries({ '.keep': '', ...files })) {
    const target = path.join(workspace, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: directory,
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: WORKFLOW_REPOSITORY,
    GITHUB_SHA: 'c0ffee0123456789c0ffee0123456789c0ffee01',
    RUNNER_TEMP: directory,
    ...extraEnv,
  };
  if (event !== undefined) {
    const eventPath = path.join(directory, 'event.json');
    writeFileSync(eventPath, JSON.stringify(event.payload ?? {}));
    Object.assign(env, {
      GITHUB_EVENT_NAME: event.name,
      GITHUB_REF: event.ref,
      GITHUB_SHA: event.sha,
      GITHUB_EVENT_PATH: eventPath,
    });
  }
  const inputs = given === undefined ? {} : onlyGiven ? given : withDefaults(given, action);
  for (const [name, value] of Object.entries(inputs)) {
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  return { directory, workspace, outputPath, summaryPath, env };
}

export function startAction(
  given: Record<string, string>,
  options: RunOptions = {},
): StartedAction {
  const { directory, workspace, outputPath, summaryPath, env } = runnerEnvironment(
    given,
    options.files,
    options.env,
    options.event,
    options.onlyGiven,
    options.action,
  );
  const spawnedAt = Date.now();
  const started = performance.now();
  const entry = bundleOf(options.action);
  const child = spawn(NODE24, options.argv ?? [entry], {
    env,
    cwd: workspace,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exitedAt = 0;
  let elapsedMs = 0;
  child.on('exit', () => {
    elapsedMs = performance.now() - started;
    exitedAt = Date.now();
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer =
    options.killAfterMs === undefined
      ? undefined
      : setTimeout(() => child.kill('SIGKILL'), options.killAfterMs);
  const finished = new Promise<ActionRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      if (killer !== undefined) clearTimeout(killer);
      const outputFile = readFileSync(outputPath, 'utf8');
      const summary = readFileSync(summaryPath, 'utf8');
      rmSync(directory, { recursive: true, force: true });
      const errorLine = stdout.split('\n').find((line) => line.startsWith('::error::'));
      resolve({
        exitCode,
        signal,
        stdout,
        stderr,
        outputs: parseOutputFile(outputFile),
        outputFile,
        summary,
        error: errorLine === undefined ? undefined : unescapeCommand(errorLine.slice(9)),
        spawnedAt,
        exitedAt,
        elapsedMs,
      });
    });
  });
  return { child, finished, stdoutSoFar: () => stdout };
}

export function runAction(
  given: Record<string, string>,
  options: RunOptions = {},
): Promise<ActionRun> {
  return startAction(given, { killAfterMs: KILL_AFTER_MS, ...options }).finished;
}

/**
 * Everything the run printed, except the `::add-mask::` commands (which
 * necessarily carry the values for the runner to mask).
 */
export function printed(run: ActionRun): string {
  return [run.stdout, run.stderr]
    .join('\n')
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
}
