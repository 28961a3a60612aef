/**
 * Reads a file a user named (the command's `--api-key-file` and
 * `--secrets-file`, the `config` input's path) with a cap on its size and a
 * deadline: a path to an endless stream (`<(yes)`, `/dev/zero`, a FIFO whose
 * writer never stops or never closes) would otherwise grow the process until
 * it is killed, or block it forever. At most `cap + 1` bytes are read, in
 * chunks; nothing larger is ever held. Pipes (`<(cmd)`, `/dev/stdin`) are
 * read too, without blocking, until the deadline.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Why a file was not read whole; the caller names the input. */
export class BoundedReadError extends Error {
  override name = 'BoundedReadError';
  readonly reason: 'too-large' | 'too-slow';

  constructor(reason: 'too-large' | 'too-slow', message: string) {
    super(message);
    this.reason = reason;
  }
}

interface BoundedReadOptions {
  /** The most bytes the file may hold. */
  cap: number;
  /** How long a pipe may take to end, in ms (default 5 s). */
  deadlineMs?: number;
}

export const KIB = 1024;
export const MIB = 1024 * KIB;
const DEFAULT_DEADLINE_MS = 5_000;
const CHUNK = 64 * KIB;
/** How long to sleep while a pipe has nothing to read yet. */
const PAUSE_MS = 10;

/** `cap` as a person reads it: `64 KiB`, `1 MiB`. */
function formatSize(bytes: number): string {
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes >= KIB && bytes % KIB === 0) return `${bytes / KIB} KiB`;
  return `${bytes} bytes`;
}

/** Blocks this thread for `ms`: the reads are synchronous, as the inputs' parsers are. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The file's text (UTF-8). Throws `BoundedReadError` when it holds more than
 * `cap` bytes or does not end within the deadline, and the file system's own
 * error (`ENOENT`, `EISDIR`, …) when it cannot be read.
 */
export function readBounded(path: string, options: BoundedReadOptions): string {
  const { cap, deadlineMs = DEFAULT_DEADLINE_MS } = options;
  // Non-blocking: opening a FIFO for reading would otherwise wait for a writer forever.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    // A FIFO read before its writer has opened it reads as empty: wait for the writer too.
    const fifo = fstatSync(fd).isFIFO();
    const deadline = Date.now() + deadlineMs;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.alloc(Math.min(CHUNK, cap + 1 - total));
      let read: number;
      try {
        read = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        read = -1;
      }
      if (read === 0 && !(fifo && total === 0)) break;
      if (read <= 0) {
        if (Date.now() >= deadline) {
          throw new BoundedReadError(
            'too-slow',
            total === 0
              ? `nothing came through it within ${deadlineMs / 1000} s (a pipe with no writer?)`
              : `it did not end within ${deadlineMs / 1000} s (a pipe that is never closed?)`,
          );
        }
        pause(PAUSE_MS);
        continue;
      }
      chunks.push(buffer.subarray(0, read));
      total += read;
      if (total > cap) {
        throw new BoundedReadError('too-large', `it is larger than ${formatSize(cap)}`);
      }
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
