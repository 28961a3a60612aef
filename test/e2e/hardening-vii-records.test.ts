/**
 * Hardening VII (issue 55), what the run records, through dist/index.js
 * against the emulators: the one GitHub record of a shared environment is
 * made once every agent of it is found or created, each service id in its
 * payload; a deployment the service created is in the outputs the moment
 * its create is answered, though the look-up after it fails or the run is
 * cancelled while that look-up backs off (the action's outputs, and the
 * CLI's `--json`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator } from '../emulator/emulator.ts';
import { type GitHubEmulator } from '../emulator/github.ts';
import { codehostStep } from '../support/fixtures.ts';
import { gitHubStep, pushEvent } from '../support/github-step.ts';
import { startPullRequestWorld } from '../support/pull-request-world.ts';
import {
  printed,
  runAction,
  startAction,
  type ActionRun,
  KILL_AFTER_MS,
} from '../support/run-action.ts';
import { runCli } from '../cli/run-cli.ts';
import { MAIN_HEAD } from '../support/manifests.ts';

const API_KEY = 'sk-service-key-h7-records-0123456789';
const MANIFEST = `agents:
  support:
    agent-config-path: apps/support/langgraph.json
  research:
    agent-config-path: apps/research/langgraph.json
`;
const MANIFEST_FILES = { 'deploy/agents.yaml': MANIFEST };

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  ({ emu, gh } = await startPullRequestWorld(API_KEY));
  gh.chain(MAIN_HEAD);
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

/** The step's inputs and options: one deployment, or the manifest when `agents` is set. */
function step(
  inputs: Record<string, string> = {},
  env: Record<string, string> = {},
): [Record<string, string>, Parameters<typeof runAction>[1]] {
  return gitHubStep(
    gh,
    codehostStep(emu, { 'api-key': API_KEY, 'agent-config-path': 'agent.json', ...inputs }),
    { environment: 'production' },
    { event: pushEvent(MAIN_HEAD), env, files: MANIFEST_FILES, killAfterMs: KILL_AFTER_MS },
  );
}

const manifest = { name: '', agents: 'deploy/agents.yaml' };

/** The service id of the deployment named `name`. */
const idOf = (name: string) => emu.deployments.find((d) => d.name === name)?.id;

/** Each agent's entry of the manifest's `deployments` output. */
const entries = (run: ActionRun) =>
  JSON.parse(run.outputs.deployments ?? '{}') as Record<string, Record<string, unknown>>;

/**
 * Once the service answers the create of `name`, every look-up of that name
 * fails with `status` (and `headers`): the look-up after the create never
 * succeeds.
 */
function failLookUpsAfterCreate(name: string, status: number, headers?: Record<string, string>) {
  emu.inject({
    method: 'POST',
    path: '/v2/deployments',
    times: Infinity,
    bodyTransform: (body) => {
      if ((body as { name?: string }).name === name) {
        emu.inject({
          method: 'GET',
          path: '/v2/deployments',
          query: { name_contains: name },
          status,
          times: Infinity,
          ...(headers === undefined ? {} : { headers }),
        });
      }
      return body;
    },
  });
}

/** The look-up of `name` after its create was answered (and failed): the run now backs off. */
function lookUpFailedAfterCreate(name: string): boolean {
  const post = emu.requests.findIndex(
    (request) => request.method === 'POST' && (request.body as { name?: string }).name === name,
  );
  return (
    post >= 0 &&
    emu.requests
      .slice(post + 1)
      .some((request) => request.query.name_contains === name && request.answeredAt !== undefined)
  );
}

/** Runs the step, sending SIGINT once the look-up after the create of `name` backs off. */
async function cancelledWhileLookUpBacksOff(
  name: string,
  [given, options]: [Record<string, string>, Parameters<typeof runAction>[1]],
): Promise<ActionRun> {
  const started = startAction(given, options);
  for (let i = 0; i < 1_000 && !lookUpFailedAfterCreate(name); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  started.child.kill('SIGINT');
  return started.finished;
}

describe('the one record of a shared environment', () => {
  it("is made once every agent is found or created: each agent's service id in its payload", async () => {
    // research's search is answered well after support is created.
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      query: { name_contains: 'research' },
      delayMs: 2_000,
    });

    const run = await runAction(...step(manifest));

    expect(run.exitCode, printed(run)).toBe(0);
    expect(gh.deployments).toHaveLength(1);
    expect(gh.deployments[0]?.environment).toBe('production');
    expect(gh.deployments[0]?.payload).toEqual({
      agents: [
        { key: 'support', name: 'support', id: idOf('support') },
        { key: 'research', name: 'research', id: idOf('research') },
      ],
    });
    expect(idOf('research')).toBeDefined();
  });

  it('an agent whose create failed is listed with id null; the others with theirs', async () => {
    emu.inject({
      method: 'POST',
      path: '/v2/deployments',
      status: 400,
      body: { detail: 'research: quota exceeded' },
    });
    // The failing POST is research's: support is created after its search, answered later.
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      query: { name_contains: 'support' },
      delayMs: 1_000,
    });

    const run = await runAction(...step(manifest));

    expect(run.exitCode).toBe(1);
    expect(gh.deployments).toHaveLength(1);
    expect(gh.deployments[0]?.payload).toEqual({
      agents: [
        { key: 'support', name: 'support', id: idOf('support') },
        { key: 'research', name: 'research', id: null },
      ],
    });
    expect(idOf('support')).toBeDefined();
  });

  it('lists an agent whose create was answered, though the look-up after it failed, with its id', async () => {
    failLookUpsAfterCreate('research', 500);

    const run = await runAction(...step(manifest, { DEPLOY_AGENT_RETRY_DELAY_MS: '1' }));

    expect(run.exitCode).toBe(1);
    expect(idOf('research')).toBeDefined();
    expect(gh.deployments).toHaveLength(1);
    expect(gh.deployments[0]?.payload).toEqual({
      agents: [
        { key: 'support', name: 'support', id: idOf('support') },
        { key: 'research', name: 'research', id: idOf('research') },
      ],
    });
  });
});

describe('a create the service answered', () => {
  it('one deployment: the look-up after it fails every attempt; the step fails naming what was created', async () => {
    failLookUpsAfterCreate('my-agent', 500);

    const run = await runAction(...step({}, { DEPLOY_AGENT_RETRY_DELAY_MS: '1' }));

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain('500');
    expect(emu.deployments).toHaveLength(1);
    expect(run.outputs['deployment-id']).toBe(idOf('my-agent'));
    expect(run.outputs.created).toBe('true');
    // GitHub is told of the deployment that exists, and that the step failed.
    expect(gh.deployments).toHaveLength(1);
    expect(gh.stateOf(gh.deployments[0]?.id ?? 0)).toBe('failure');
  });

  it('the CLI: the look-up after it fails every attempt; --json names what was created', async () => {
    failLookUpsAfterCreate('cli-agent', 500);

    const run = await runCli(
      [
        'deploy',
        '--name',
        'cli-agent',
        '--source',
        'external_docker',
        '--image-uri',
        'reg/a:1',
        '--json',
      ],
      {
        env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: API_KEY, DEPLOY_AGENT_RETRY_DELAY_MS: '1' },
      },
    );

    expect(run.exitCode).toBe(1);
    expect(run.json).toMatchObject({ 'deployment-id': idOf('cli-agent'), created: true });
  });

  it('one deployment: cancelled while the look-up after it backs off; the outputs still name it', async () => {
    failLookUpsAfterCreate('my-agent', 503, { 'Retry-After': '30' });

    const run = await cancelledWhileLookUpBacksOff('my-agent', step());

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/cancelled/);
    expect(emu.deployments).toHaveLength(1);
    expect(run.outputs['deployment-id']).toBe(idOf('my-agent'));
    expect(run.outputs.created).toBe('true');
  });

  it("a manifest: the look-up after research's create fails every attempt; its entry names what was created", async () => {
    failLookUpsAfterCreate('research', 500);

    const run = await runAction(...step(manifest, { DEPLOY_AGENT_RETRY_DELAY_MS: '1' }));

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/^1 of 2 agents failed:\n- research: .*500/);
    expect(entries(run).research).toMatchObject({
      'deployment-id': idOf('research'),
      created: true,
    });
    expect(entries(run).support).toMatchObject({ 'deployment-id': idOf('support'), created: true });
  });

  it("a manifest: cancelled while the look-up after research's create backs off; its entry names it", async () => {
    failLookUpsAfterCreate('research', 503, { 'Retry-After': '30' });

    const run = await cancelledWhileLookUpBacksOff('research', step(manifest));

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/cancelled/);
    expect(idOf('research')).toBeDefined();
    expect(entries(run).research).toMatchObject({
      'deployment-id': idOf('research'),
      created: true,
    });
  });
});
