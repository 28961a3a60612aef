/**
 * A good citizen of a pipe: dist/cli.js against the
 * service emulator with its stdout read by a reader that goes away (a real
 * `| head`, or this test closing its end). No stack trace and no `EPIPE` on
 * stderr; the listing stops reading pages and exits 0; a deploy still
 * writes --dotenv and exits as the deploy went.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { NODE24, KILL_AFTER_MS } from '../support/run-action.ts';
import { CLI, startCli } from './run-cli.ts';
import { QUICK } from '../support/quick.ts';

const KEY = 'pipe-api-key-0123456789';

let emu: Emulator;
let directory: string;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
  directory = mkdtempSync(path.join(tmpdir(), 'cli-pipe-'));
});
afterEach(async () => {
  await emu.close();
  rmSync(directory, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: directory,
    DEPLOY_API_URL: emu.url,
    DEPLOY_API_KEY: KEY,
    DEPLOY_AGENT_RETRY_DELAY_MS: '1',
    ...extra,
  };
}

interface Piped {
  /** The command's exit status (bash's PIPESTATUS[0]), not the reader's. */
  exitCode: number;
  /** What the reader printed. */
  read: string;
  stderr: string;
}

/** `node dist/cli.js ARGS | READER` in bash, as a person types it. */
function throughReader(
  args: string[],
  reader: string,
  extra: Record<string, string> = {},
  redirect = '',
): Promise<Piped> {
  const quoted = args.map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`).join(' ');
  const script = `"$NODE" "$CLI" ${quoted} ${redirect} | ${reader}; echo "\${PIPESTATUS[0]}" > status`;
  const child = spawn('bash', ['-c', script], {
    cwd: directory,
    env: env({ NODE: NODE24, CLI, ...extra }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let read = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (read += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(killer);
      const status = readFileSync(path.join(directory, 'status'), 'utf8').trim();
      resolve({ exitCode: Number(status), read, stderr });
    });
  });
}

function expectQuiet(stderr: string): void {
  expect(stderr).not.toContain('EPIPE');
  expect(stderr).not.toMatch(/Unhandled|node:events|\n\s+at /);
}

function listings() {
  return emu.requests.filter((request) => request.path === '/v2/deployments');
}

function seedFleet(count: number): void {
  emu.seedDeployments(count, (i) => ({
    name: `pipe-agent-${i}`,
    image_version: '1.0.0',
    secrets: [{ name: 'OPENAI_API_KEY', value: `sk-pipe-${i}-0123456789abcdef` }],
  }));
}

describe('a reader that goes away', () => {
  it('list --all | head -1: one line, exit 0, no stack trace', async () => {
    seedFleet(1_500);

    const piped = await throughReader(['list', '--all'], 'head -1');

    expect(piped.read.split('\n').filter((line) => line !== '')).toHaveLength(1);
    expect(piped.read).toMatch(/^pipe-agent-0\t/);
    expectQuiet(piped.stderr);
    expect(piped.exitCode).toBe(0);
  });

  it('list --all | head -1 over 50 pages: the listing stops reading pages once its reader has gone', async () => {
    seedFleet(5_000);

    const piped = await throughReader(['list', '--all'], 'head -1');

    expect(piped.exitCode).toBe(0);
    expectQuiet(piped.stderr);
    // A pipe holds a few pages at most: the rest are never asked for.
    expect(listings().length).toBeLessThanOrEqual(10);
  });

  it('list --all --json | head -c 100 over 50 pages: the same, from a JSON array streamed item by item', async () => {
    seedFleet(5_000);

    const piped = await throughReader(['list', '--all', '--json'], 'head -c 100');

    expect(piped.exitCode).toBe(0);
    expectQuiet(piped.stderr);
    expect(listings().length).toBeLessThanOrEqual(10);
  });

  it('list --all --json | head -c 100: exit 0, no stack trace', async () => {
    seedFleet(1_500);

    const piped = await throughReader(['list', '--all', '--json'], 'head -c 100');

    expect(piped.read).toHaveLength(100);
    expect(piped.read.startsWith('[')).toBe(true);
    expectQuiet(piped.stderr);
    expect(piped.exitCode).toBe(0);
  });

  it('deploy --events | head -2: the deploy goes on, --dotenv is written, exit as the deploy went', async () => {
    emu.setOptions({ readyAfterPolls: 4, buildPolls: 2 });

    const piped = await throughReader(
      [
        'deploy',
        '--name',
        'agent',
        '--source',
        'external_docker',
        '--image-uri',
        'reg/agent:1',
        '--wait',
        '--events',
        '--dotenv',
        'deploy.env',
        '--summary',
        'summary.md',
      ],
      'head -2',
      { ...QUICK, DEPLOY_AGENT_HEARTBEAT_MS: '100' },
    );

    expect(piped.read.split('\n').filter((line) => line !== '')).toHaveLength(2);
    expectQuiet(piped.stderr);
    expect(piped.stderr).toContain("'agent' is live");
    expect(piped.exitCode).toBe(0);
    const id = emu.deployments[0]?.id ?? '';
    expect(readFileSync(path.join(directory, 'deploy.env'), 'utf8')).toContain(
      `DEPLOYMENT_ID=${id}`,
    );
    expect(readFileSync(path.join(directory, 'summary.md'), 'utf8')).not.toBe('');
  });

  it('Ctrl-C on deploy --events | jq: the reader gone too, exit 130, --dotenv written, no stack trace', async () => {
    // Never live: the run waits until interrupted.
    emu.setOptions({ readyAfterPolls: 1_000_000 });
    const started = startCli(
      [
        'deploy',
        '--name',
        'agent',
        '--source',
        'external_docker',
        '--image-uri',
        'reg/agent:1',
        '--wait',
        '--events',
        '--dotenv',
        'deploy.env',
      ],
      {
        env: {
          DEPLOY_API_URL: emu.url,
          DEPLOY_API_KEY: KEY,
          ...QUICK,
          DEPLOY_AGENT_HEARTBEAT_MS: '100',
        },
        read: ['deploy.env'],
        killAfterMs: KILL_AFTER_MS,
      },
    );
    const { child } = started;
    // As a terminal's Ctrl-C reaches both: the reader ends (this end closed), the command gets SIGINT.
    // Once the wait began (the deployment exists).
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      const bound = setTimeout(() => reject(new Error(`no wait event in 10 s:\n${seen}`)), 10_000);
      const reader = (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        if (!seen.includes('"step":"wait"')) return;
        clearTimeout(bound);
        child.stdout?.off('data', reader);
        child.stdout?.destroy();
        resolve();
      };
      child.stdout?.on('data', reader);
    });
    child.kill('SIGINT');
    const run = await started.finished;

    expectQuiet(run.stderr);
    expect(run.exitCode).toBe(130);
    expect(run.files['deploy.env']).toContain('DEPLOYMENT_ID=');
  });

  it('list --all 2>&1 >/dev/null | head -1: a closed stderr is ignored the same way', async () => {
    seedFleet(1_500);

    // A debug line a page on stderr, its reader gone after the first.
    const piped = await throughReader(
      ['list', '--all'],
      'head -1',
      { DEPLOY_DEBUG: 'true' },
      '2>&1 >/dev/null',
    );

    expect(piped.read).toMatch(/^debug: GET \/v2\/deployments/);
    expect(piped.exitCode).toBe(0);
    // stdout's reader is still there: the listing reads every page.
    expect(listings()).toHaveLength(16);
  });
});
