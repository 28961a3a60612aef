/**
 * A FIFO fed by a writer that never stops (`yes`), as `--api-key-file <(yes)`
 * gives the command: the shape of input a bounded read must survive.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface EndlessFifo {
  path: string;
  /** Stops the writer and removes the FIFO. */
  close(): void;
}

export function endlessFifo(): EndlessFifo {
  const directory = mkdtempSync(path.join(tmpdir(), 'fifo-'));
  const fifo = path.join(directory, 'endless');
  execFileSync('mkfifo', [fifo]);
  const writer: ChildProcess = spawn('sh', ['-c', 'exec yes > "$0"', fifo], { stdio: 'ignore' });
  writer.on('error', () => undefined);
  return {
    path: fifo,
    close() {
      writer.kill('SIGKILL');
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
