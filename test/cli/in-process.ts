/**
 * Runs the command in-process (`main(world)`), as dist/cli.js would, in a
 * folder of its own with only the environment a test gives it: stdout and
 * stderr captured, files read and written for real, no signal. Reads back
 * what it wrote.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.ts';
import { readBounded } from '../../src/inputs/bounded-read.ts';
import { ROOT } from '../support/action.ts';

export interface InProcessRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The files the run wrote that the test asked to read back. */
  files: Record<string, string>;
}

export interface InProcessOptions {
  env?: Record<string, string>;
  /** Files to write into the run's folder first: relative path → content. */
  files?: Record<string, string>;
  /** Files to read back after the run (relative paths); absent ones are left out. */
  read?: string[];
}

export async function runInProcess(
  args: string[],
  options: InProcessOptions = {},
): Promise<InProcessRun> {
  const cwd = mkdtempSync(path.join(tmpdir(), 'cli-in-process-'));
  try {
    for (const [file, content] of Object.entries(options.files ?? {})) {
      mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
      writeFileSync(path.join(cwd, file), content);
    }
    let stdout = '';
    let stderr = '';
    const inside = (file: string) => path.resolve(cwd, file);
    const exitCode = await main({
      args,
      env: { HOME: cwd, ...options.env },
      cwd,
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      readFile: (file, cap) => readBounded(inside(file), { cap }),
      writeFile: (file, text) => writeFileSync(inside(file), text),
      version: () => '0.0.0-test',
      packageDir: ROOT,
      onSignal: () => () => undefined,
      exit: (code) => {
        throw new Error(`exit ${code} at once: no signal is sent in-process`);
      },
    });
    const files: Record<string, string> = {};
    for (const file of options.read ?? []) {
      try {
        files[file] = readFileSync(inside(file), 'utf8');
      } catch {
        // Not written: left out.
      }
    }
    return { exitCode, stdout, stderr, files };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
