/**
 * The bounded read of a user's file: a file over the cap, an endless pipe,
 * a pipe that never ends, and what fits, read whole.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BoundedReadError, KIB, readBounded } from '../../src/inputs/bounded-read.ts';
import { endlessFifo } from '../support/endless-fifo.ts';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'bounded-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

function failure(read: () => unknown): BoundedReadError {
  try {
    read();
  } catch (error) {
    if (error instanceof BoundedReadError) return error;
    throw error;
  }
  throw new Error('expected a BoundedReadError');
}

describe('readBounded', () => {
  it('reads a file that fits, up to the cap exactly', () => {
    const file = path.join(directory, 'fits');
    writeFileSync(file, 'é'.repeat(KIB / 2));
    expect(readBounded(file, { cap: KIB })).toBe('é'.repeat(KIB / 2));
  });

  it('refuses a regular file one byte over the cap', () => {
    const file = path.join(directory, 'big');
    writeFileSync(file, 'x'.repeat(KIB + 1));
    const error = failure(() => readBounded(file, { cap: KIB }));
    expect(error.reason).toBe('too-large');
    expect(error.message).toBe('it is larger than 1 KiB');
  });

  it('stops an endless FIFO at the cap rather than reading on', () => {
    const fifo = endlessFifo();
    try {
      expect(failure(() => readBounded(fifo.path, { cap: 64 * KIB })).reason).toBe('too-large');
    } finally {
      fifo.close();
    }
  });

  it('gives up on a pipe that is never closed, at the deadline', async () => {
    const fifo = path.join(directory, 'quiet');
    execFileSync('mkfifo', [fifo]);
    // A writer that opens the FIFO and then writes nothing, for longer than the deadline.
    const writer = spawn('sh', ['-c', 'exec sleep 30 > "$0"', fifo], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      const error = failure(() => readBounded(fifo, { cap: KIB, deadlineMs: 300 }));
      expect(error.reason).toBe('too-slow');
      expect(error.message).toMatch(/within 0\.3 s/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it('gives up on a FIFO that no writer opens, at the deadline, rather than blocking', () => {
    const fifo = path.join(directory, 'lonely');
    execFileSync('mkfifo', [fifo]);
    const error = failure(() => readBounded(fifo, { cap: KIB, deadlineMs: 200 }));
    expect(error.message).toMatch(/nothing came through it within 0\.2 s/);
  });

  it('reads a pipe whose writer writes a little and closes it', () => {
    const fifo = path.join(directory, 'short');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'sleep 0.2; printf key > "$0"', fifo], { stdio: 'ignore' });
    try {
      expect(readBounded(fifo, { cap: KIB })).toBe('key');
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it('passes on what the file system says (no such file, a directory)', () => {
    expect(() => readBounded(path.join(directory, 'missing'), { cap: KIB })).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
    expect(() => readBounded(directory, { cap: KIB })).toThrow(
      expect.objectContaining({ code: 'EISDIR' }),
    );
  });
});
