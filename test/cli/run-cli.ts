/**
 * Runs the bundled command (dist/cli.js) as a user's shell or CI job does:
 * under Node 24 (or CLI_TEST_NODE), in a folder of its own, with only the environment a test
 * gives it (plus PATH and HOME), so that the CI system the tests run on
 * cannot leak into the run. Reads back stdout, stderr and the files the
 * run wrote.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../support/action.ts';
import { KILL_AFTER_MS, NODE24 } from '../support/run-action.ts';

export const CLI = path.join(ROOT, 'dist', 'cli.js');
/** The Node that runs it: Node 24, or another one to check by hand (CLI_TEST_NODE=path/to/node22). */
const NODE = process.env.CLI_TEST_NODE ?? NODE24;

export interface CliRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The run's folder (its cwd), removed after the run; the files it wrote are read below. */
  files: Record<string, string>;
  /** stdout parsed as JSON when it is one JSON object, else undefined. */
  json: Record<string, unknown> | undefined;
}

export interface CliOptions {
  env?: Record<string, string>;
  /** Files to write into the run's folder first: relative path → content. */
  files?: Record<string, string>;
  /** Files to read back after the run (relative paths); absent ones are left out. */
  read?: string[];
  /** Kills the run after this long (a safety net, not a timing assertion); KILL_AFTER_MS by default. */
  killAfterMs?: number;
  /** The command to run instead of `NODE24 dist/cli.js` (e.g. an installed bin). */
  command?: string[];
  /** The run's folder; by default a new temporary one, removed afterwards. */
  cwd?: string;
}

export interface StartedCli {
  child: ChildProcess;
  finished: Promise<CliRun>;
  stderrSoFar(): string;
}

export function startCli(args: string[], options: CliOptions = {}): StartedCli {
  const own = options.cwd === undefined;
  const directory = options.cwd ?? mkdtempSync(path.join(tmpdir(), 'cli-run-'));
  for (const [file, content] of Object.entries(options.files ?? {})) {
    const target = path.join(directory, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  const [program = NODE, ...programArgs] = options.command ?? [NODE, CLI];
  const child = spawn(program, [...programArgs, ...args], {
    cwd: directory,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: directory, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? KILL_AFTER_MS);
  const finished = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      clearTimeout(killer);
      const files: Record<string, string> = {};
      for (const file of options.read ?? []) {
        const target = path.join(directory, file);
        if (existsSync(target)) files[file] = readFileSync(target, 'utf8');
      }
      if (own) rmSync(directory, { recursive: true, force: true });
      let json: Record<string, unknown> | undefined;
      try {
        const parsed: unknown = JSON.parse(stdout);
        if (typeof parsed === 'object' && parsed !== null) json = parsed as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      resolve({ exitCode, signal, stdout, stderr, files, json });
    });
  });
  return { child, finished, stderrSoFar: () => stderr };
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return startCli(args, options).finished;
}
