/**
 * dist/cli.js in a pseudo-terminal of a given width (util-linux `script`, as
 * a person's terminal runs it): stdout and stderr are the terminal, so the
 * command draws its table and its live line. Returns what the terminal
 * received, byte for byte (the terminal turns `\n` into `\r\n`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CLI } from '../cli/run-cli.ts';
import { NODE24 } from './run-action.ts';

const quoted = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

export async function runInTerminal(
  args: string[],
  { columns, env }: { columns: number; env: Record<string, string> },
): Promise<string> {
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
      timeout: 60_000,
    });
    child.child.stdin?.end();
    return (await child.catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' })))
      .stdout;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
