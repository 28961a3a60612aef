/**
 * dist/cli.js in a pseudo-terminal of a given width (util-linux `script`, as
 * a person's terminal runs it): stdout and stderr are the terminal, so the
 * command draws its table and its live line. Returns what the terminal
 * received, byte for byte (the terminal turns `\n` into `\r\n`), and the
 * command's exit status (`script -e` passes it on), so that a test sees a
 * run that failed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CLI } from '../cli/run-cli.ts';
import { NODE24, KILL_AFTER_MS } from './run-action.ts';

const quoted = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/** What a run in the terminal showed, and how the command exited (null: it was killed). */
export interface TerminalRun {
  screen: string;
  exitCode: number | null;
}

/** How `execFile` fails: the exit status, or the signal when it was killed. */
interface Failed {
  stdout?: string;
  code?: unknown;
}

/** Runs the command in a terminal `columns` wide; killed after `killAfterMs` (below a test's 20 s). */
export async function runInTerminal(
  args: string[],
  {
    columns,
    env,
    killAfterMs = KILL_AFTER_MS,
  }: { columns: number; env: Record<string, string>; killAfterMs?: number },
): Promise<TerminalRun> {
  const folder = mkdtempSync(path.join(tmpdir(), 'cli-tty-'));
  try {
    const script = path.join(folder, 'run.sh');
    const command = [NODE24, CLI, ...args].map(quoted).join(' ');
    writeFileSync(script, `stty cols ${columns} rows 40\nexec ${command}\n`);
    // Not a synchronous spawn: the emulator answers from this process.
    const child = promisify(execFile)('script', ['-qec', `bash ${script}`, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', HOME: folder, ...env },
      cwd: folder,
      encoding: 'utf8',
      timeout: killAfterMs,
      killSignal: 'SIGKILL',
    });
    child.child.stdin?.end();
    return await child.then(
      ({ stdout }) => ({ screen: stdout, exitCode: 0 }),
      (error: Failed) => ({
        screen: error.stdout ?? '',
        exitCode: typeof error.code === 'number' ? error.code : null,
      }),
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
