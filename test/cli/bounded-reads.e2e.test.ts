/**
 * dist/cli.js given files that never end or are far too large (issue 25):
 * `--api-key-file` on a FIFO fed by an endless writer, a 2 MiB
 * `--secrets-file`, a 2 MiB `--config`. Each ends within seconds with exit 2
 * and a message naming the option, and no request reaches the service.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { endlessFifo } from '../support/endless-fifo.ts';
import { NODE24, KILL_AFTER_MS } from '../support/run-action.ts';
import { CLI, runCli } from './run-cli.ts';

const KEY = 'cli-api-key-0123456789';
const DOCKER = ['--name', 'agent', '--source', 'external_docker', '--image-uri', 'reg/agent:1'];
const TWO_MIB = 2 * 1024 * 1024;
/** A safety net well past "a few seconds": a run killed by it fails on its exit code. */

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
});
afterEach(async () => {
  await emu.close();
});

describe('bounded reads', () => {
  it('stops --api-key-file on an endless FIFO at 64 KiB: exit 2, no request', async () => {
    const fifo = endlessFifo();
    try {
      const run = await runCli(['deploy', ...DOCKER, '--api-key-file', fifo.path], {
        env: { DEPLOY_API_URL: emu.url },
        killAfterMs: KILL_AFTER_MS,
      });

      expect(run.signal).toBeNull();
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain(
        `--api-key-file ${fifo.path}: cannot read it: it is larger than 64 KiB`,
      );
      expect(emu.requests).toEqual([]);
    } finally {
      fifo.close();
    }
  });

  it('refuses a 2 MiB --secrets-file: exit 2, no request', async () => {
    const lines = 'A_SECRET=value\n'.repeat(Math.ceil(TWO_MIB / 15));

    const run = await runCli(['deploy', ...DOCKER, '--secrets-file', 'secrets.env'], {
      env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY },
      files: { 'secrets.env': lines },
      killAfterMs: KILL_AFTER_MS,
    });

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      '--secrets-file secrets.env: cannot read it: it is larger than 1 MiB',
    );
    expect(emu.requests).toEqual([]);
  });

  it('refuses a 2 MiB --config file: exit 2, no request', async () => {
    const huge = `{"source_config": {}}${' '.repeat(TWO_MIB)}`;

    const run = await runCli(['deploy', ...DOCKER, '--config', 'huge.json'], {
      env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY },
      files: { 'huge.json': huge },
      killAfterMs: KILL_AFTER_MS,
    });

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(
      /--config: file 'huge\.json' cannot be read: it is larger than 1 MiB/,
    );
    expect(emu.requests).toEqual([]);
  });

  it('still reads a key piped to /dev/stdin', async () => {
    // A shell's pipe on stdin (node's own 'pipe' stdio is a socket, which /dev/stdin cannot open).
    const pipeKey = ['sh', '-c', 'printf "%s\\n" "$KEY_TEXT" | exec "$0" "$@"', NODE24, CLI];
    const run = await runCli(['deploy', ...DOCKER, '--api-key-file', '/dev/stdin'], {
      env: { DEPLOY_API_URL: emu.url, KEY_TEXT: KEY },
      killAfterMs: KILL_AFTER_MS,
      command: pipeKey,
    });

    expect(run.stderr).not.toContain('--api-key-file');
    expect(run.exitCode).toBe(0);
    expect(emu.requests[0]?.headers['x-api-key']).toBe(KEY);
  });
});
