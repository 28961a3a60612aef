/**
 * `deploy-agent --events` (CLI-CONTRACT v1.4, "a stream for tools"):
 * dist/cli.js against the service emulator, its stdout read line by line as
 * a tool reads it. Every line is one JSON object with `event` and `time`;
 * `result` is the last line and the only one, however the run ends: live,
 * a service error, a timeout, a usage error, an interrupt. No secret in it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { runCli, startCli, type CliRun } from './run-cli.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { QUICK_HEARTBEAT } from '../support/quick.ts';

const KEY = 'events-api-key-0123456789';
const SECRET = 'events-secret-value-42';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
});
afterEach(async () => {
  await emu.close();
});

function serviceEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, OPENAI_API_KEY: SECRET, ...extra };
}

const DOCKER = [
  '--name',
  'agent',
  '--source',
  'external_docker',
  '--image-uri',
  'reg/agent:1',
  '--secret',
  'OPENAI_API_KEY',
];

type Event = Record<string, unknown> & { event: string; time: string };

/** stdout as a tool reads it: one JSON object a line, each with `event` and an ISO `time`. */
function eventsOf(run: CliRun): Event[] {
  expect(run.stdout.endsWith('\n')).toBe(true);
  const events = run.stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Event);
  for (const event of events) {
    expect(typeof event.event).toBe('string');
    expect(new Date(event.time).toISOString()).toBe(event.time);
  }
  const results = events.filter((event) => event.event === 'result');
  expect(results).toHaveLength(1);
  expect(events.at(-1)?.event).toBe('result');
  expectNoSecret([KEY, SECRET], run);
  return events;
}

const resultOf = (events: Event[]) => events.at(-1) ?? { event: '', time: '' };
const named = (events: Event[], name: string) => events.filter((event) => event.event === name);

describe('deploy --events', () => {
  it('a wait that goes live: steps, each change once, heartbeats meanwhile, succeeded', async () => {
    emu.setOptions({ readyAfterPolls: 6, buildPolls: 3 });

    const run = await runCli(['deploy', ...DOCKER, '--wait', '--events'], {
      env: serviceEnv(QUICK_HEARTBEAT),
    });

    expect(run.exitCode).toBe(0);
    const events = eventsOf(run);
    expect(named(events, 'step').map((event) => event.step)).toEqual(['find', 'create', 'wait']);
    expect(named(events, 'step')[0]?.message).toBe("Looking for deployment 'agent'");
    const changes = named(events, 'status_change');
    expect(changes.map((event) => event.status)).toEqual(
      expect.arrayContaining(['AWAITING_DATABASE', 'READY']),
    );
    const fields = ['status', 'latest_revision_id', 'active_revision_id', 'waiting_for'];
    const states = changes.map((change) => JSON.stringify(fields.map((field) => change[field])));
    for (const [index, change] of changes.entries()) {
      expect(Object.keys(change).sort()).toEqual(['event', 'time', ...fields].sort());
      expect(typeof change.status).toBe('string');
      // Only on a change: never the same state twice in a row.
      expect(states[index]).not.toBe(states[index - 1]);
    }
    expect(changes.at(-1)).toMatchObject({ status: 'READY', waiting_for: '' });
    const beats = named(events, 'heartbeat');
    expect(beats.length).toBeGreaterThanOrEqual(1);
    for (const beat of beats) {
      expect(beat.elapsed_s).toEqual(expect.any(Number));
      expect(beat.waiting_for).toMatch(/status is AWAITING_DATABASE|revision/);
    }
    const id = emu.deployments[0]?.id;
    expect(resultOf(events)).toMatchObject({
      status: 'succeeded',
      exit_code: 0,
      deployment_id: id,
      outputs: { 'deployment-id': id, status: 'READY', live: true, created: true },
    });
    expect(resultOf(events)).not.toHaveProperty('error');
    // The log stays on stderr.
    expect(run.stderr).toContain("'agent' is live");
  });

  it('a service error (401): failed, exit 1, the error in the result', async () => {
    emu.inject({ status: 401, body: { detail: 'Invalid API key' } });

    const run = await runCli(['deploy', ...DOCKER, '--events'], {
      env: serviceEnv(QUICK_HEARTBEAT),
    });

    expect(run.exitCode).toBe(1);
    const result = resultOf(eventsOf(run));
    expect(result).toMatchObject({ status: 'failed', exit_code: 1, outputs: {} });
    expect(result.error).toContain('401');
    expect((result.outputs as Record<string, unknown>).error).toBe(result.error);
  });

  it('a wait past --wait-timeout: timed_out, exit 1, what was known', async () => {
    const run = await runCli(['deploy', ...DOCKER, '--wait', '--wait-timeout', '1', '--events'], {
      env: serviceEnv(QUICK_HEARTBEAT),
    });

    expect(run.exitCode).toBe(1);
    const result = resultOf(eventsOf(run));
    const id = emu.deployments[0]?.id;
    expect(result).toMatchObject({
      status: 'timed_out',
      exit_code: 1,
      deployment_id: id,
      outputs: { 'deployment-id': id, status: 'AWAITING_DATABASE', live: false },
    });
    expect(result.error).toMatch(/not live after 1\.0 s|not live after 1 s/);
  });

  it('a warning of the log is a warn event', async () => {
    emu.seedDeployment({
      name: 'agent',
      source: 'external_docker',
      source_revision_config: { image_uri: 'reg/agent:0', repo_commit_sha: null },
    } as never);

    const run = await runCli(['deploy', ...DOCKER, '--events'], {
      env: serviceEnv(QUICK_HEARTBEAT),
    });

    expect(run.exitCode).toBe(0);
    const warnings = named(eventsOf(run), 'warn');
    expect(warnings.map((event) => event.message)).toContainEqual(
      expect.stringContaining('drift: '),
    );
  });

  it.each<[string[], string, Record<string, string>?]>([
    [['deploy', ...DOCKER, '--events', '--json'], 'exclude each other'],
    [['deploy', ...DOCKER, '--events', '--no-such-option'], '--no-such-option'],
    [['deploy', ...DOCKER, '--json'], 'exclude each other', { DEPLOY_EVENTS: 'true' }],
  ])('a usage error (%j): exit 2, a result line, no request', async (args, message, env = {}) => {
    const run = await runCli(args, { env: serviceEnv(env) });

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(message);
    const result = resultOf(eventsOf(run));
    expect(result).toMatchObject({ status: 'failed', exit_code: 2 });
    expect(result.error).toContain(message);
    expect(emu.requests).toHaveLength(0);
  });

  it('an input error: exit 2, a result line', async () => {
    const run = await runCli(['deploy', '--name', 'agent', '--source', 'nope', '--events'], {
      env: serviceEnv(),
    });

    expect(run.exitCode).toBe(2);
    expect(resultOf(eventsOf(run))).toMatchObject({ status: 'failed', exit_code: 2 });
    expect(emu.requests).toHaveLength(0);
  });

  it('SIGINT mid-wait: exit 130, the result last', async () => {
    const started = startCli(['deploy', ...DOCKER, '--wait', '--events'], {
      env: serviceEnv(QUICK_HEARTBEAT),
    });
    for (let i = 0; i < 500 && !started.stderrSoFar().includes('waiting until live'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    started.child.kill('SIGINT');
    const run = await started.finished;

    expect(run.exitCode).toBe(130);
    const events = eventsOf(run);
    expect(named(events, 'warn').map((event) => event.message)).toContainEqual(
      expect.stringContaining('received SIGINT'),
    );
    expect(resultOf(events)).toMatchObject({
      status: 'failed',
      exit_code: 130,
      deployment_id: emu.deployments[0]?.id,
      outputs: { status: 'AWAITING_DATABASE' },
    });
    expect(resultOf(events).error).toMatch(/cancelled/);
  });
});

describe('status and plan --events', () => {
  it('status: find, then the result', async () => {
    const existing = emu.seedDeployment({ name: 'agent', status: 'READY' });

    const run = await runCli(['status', '--name', 'agent', '--events'], { env: serviceEnv() });

    expect(run.exitCode).toBe(0);
    const events = eventsOf(run);
    expect(named(events, 'step').map((event) => event.step)).toEqual(['find']);
    expect(resultOf(events)).toMatchObject({
      status: 'succeeded',
      deployment_id: existing.id,
      outputs: { 'deployment-id': existing.id },
    });
  });

  it('status of no such deployment: failed, exit 1', async () => {
    const run = await runCli(['status', '--name', 'agent', '--events'], { env: serviceEnv() });

    expect(run.exitCode).toBe(1);
    expect(resultOf(eventsOf(run))).toMatchObject({ status: 'failed', exit_code: 1 });
  });

  it('plan: the plan step, then the result with the plan', async () => {
    const run = await runCli(['plan', ...DOCKER, '--events'], { env: serviceEnv() });

    expect(run.exitCode).toBe(0);
    const events = eventsOf(run);
    expect(named(events, 'step').map((event) => event.step)).toEqual(['plan', 'find']);
    expect(resultOf(events)).toMatchObject({
      status: 'succeeded',
      outputs: { action: 'create', plan: { action: 'create' } },
    });
  });
});
