/**
 * `deploy-agent plan --agents FILE` and `status --agents FILE` in-process
 * against the service emulator over real HTTP: --json keyed by agent, the
 * manifest's action and total of changes, --dotenv's variables and their
 * limit, an agent that fails (exit 1 once all are over, naming it), the
 * log's lines after each agent's key, --events lines carrying `agent`, GET
 * requests only, and bad input refused before any request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { runInProcess, type InProcessOptions } from './in-process.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { QUICK_HEARTBEAT } from '../support/quick.ts';

const KEY = 'agents-read-api-key-0123456789';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
});
afterEach(async () => {
  await emu.close();
});

/** A manifest of agents deployed from images: `reg/KEY:2` each. */
function manifest(keys: readonly string[]): string {
  return ['agents:', ...keys.flatMap((key) => [`  ${key}:`, `    image-uri: reg/${key}:2`])].join(
    '\n',
  );
}

/** The deployment `name` as an earlier deploy of `image` left it. */
function seed(name: string, image = `reg/${name}:1`, status = 'READY') {
  return emu.seedDeployment({
    name,
    status,
    source: 'external_docker',
    source_revision_config: { image_uri: image, repo_commit_sha: null },
  } as never);
}

async function command(
  name: 'plan' | 'status',
  keys: readonly string[],
  args: string[],
  options: InProcessOptions = {},
) {
  const source = name === 'plan' ? ['--source', 'external_docker'] : [];
  return runInProcess([name, '--agents', 'agents.yaml', ...source, ...args], {
    ...options,
    env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, ...options.env },
    files: { 'agents.yaml': manifest(keys), ...options.files },
  });
}

const methods = () => [...new Set(emu.requests.map((request) => request.method))];
const idOf = (name: string) => emu.deployments.find((d) => d.name === name)?.id ?? '';

type Entries = Record<string, Record<string, unknown>>;

describe('plan --agents', () => {
  it('--json: plans keyed by agent, the total of changes, the manifest action; GET only', async () => {
    seed('research');

    const run = await command('plan', ['support', 'research'], ['--json', '--summary', 'plan.md'], {
      read: ['plan.md'],
    });

    expect(run.exitCode).toBe(0);
    const json = JSON.parse(run.stdout) as { plans: Entries; action: string; changes: string };
    expect(Object.keys(json)).toEqual(['action', 'changes', 'plans']);
    expect(json).toMatchObject({ action: 'mixed', changes: '1' });
    expect(Object.keys(json.plans)).toEqual(['support', 'research']);
    expect(json.plans.support).toMatchObject({ name: 'support', action: 'create', changes: 0 });
    expect(json.plans.research).toMatchObject({
      name: 'research',
      action: 'reuse',
      changes: 1,
      'deployment-id': idOf('research'),
      plan: {
        changes: [
          {
            field: 'source_revision_config.image_uri',
            wanted: 'reg/research:2',
            live: 'reg/research:1',
          },
        ],
      },
    });
    expect(methods()).toEqual(['GET']);
    expect(emu.deployments).toHaveLength(1);
    // The summary is the plan step's of several agents: a row an agent.
    expect(run.files['plan.md']).toContain('<code>support</code>');
    expect(run.files['plan.md']).toContain('<code>research</code>');
    // Each agent's lines after its key, and nothing of the key.
    expect(run.stderr).toContain(
      "[support] plan: 'support' does not exist: the deploy would create it",
    );
    expect(run.stderr).toContain(
      '[research] plan: source_revision_config.image_uri: the command wants',
    );
    expectNoSecret([KEY], run);
  });

  it('--name is a template; --on-change fail: exit 1 once all are planned, naming the agent', async () => {
    seed('research-pr-7');

    const run = await command(
      'plan',
      ['support', 'research'],
      ['--name', '{agent}-pr-7', '--on-change', 'fail', '--json'],
    );

    expect(run.exitCode).toBe(1);
    const json = JSON.parse(run.stdout) as { plans: Entries; error: string };
    expect(json.plans.support).toMatchObject({ name: 'support-pr-7', action: 'create' });
    expect(json.plans.support).not.toHaveProperty('error');
    expect(json.plans.research?.error).toMatch(/would not apply 1 difference/);
    expect(json.error).toMatch(/^1 of 2 agents failed:\n- research: The deploy of 'research-pr-7'/);
    expect(run.stderr).toMatch(/error: 1 of 2 agents failed:\n- research: /);
  });

  it('--dotenv: the action, the total, then each id and status, within --dotenv-max-keys', async () => {
    seed('a1');
    seed('a2');

    const all = await command('plan', ['a1', 'a2', 'a3'], ['--dotenv', 'plan.env'], {
      read: ['plan.env'],
    });
    expect(all.exitCode).toBe(0);
    expect(all.files['plan.env']).toBe(
      [
        'DEPLOYMENT_PLAN_ACTION=mixed',
        'DEPLOYMENT_CHANGES=2',
        `DEPLOYMENT_AGENT_A1_ID=${idOf('a1')}`,
        `DEPLOYMENT_AGENT_A2_ID=${idOf('a2')}`,
        'DEPLOYMENT_AGENT_A1_STATUS=READY',
        'DEPLOYMENT_AGENT_A2_STATUS=READY',
        '',
      ].join('\n'),
    );

    const cut = await command(
      'plan',
      ['a1', 'a2', 'a3'],
      ['--dotenv', 'plan.env', '--dotenv-max-keys', '4'],
      { read: ['plan.env'] },
    );
    expect(cut.files['plan.env']?.trim().split('\n')).toHaveLength(4);
    expect(cut.stderr).toContain('DEPLOYMENT_AGENT_A1_STATUS is left out of --dotenv');
    expect(cut.stderr).toContain('DEPLOYMENT_AGENT_A2_STATUS is left out of --dotenv');
  });

  it('--events: every line of an agent carries its key; one result, holding the plans', async () => {
    const run = await command('plan', ['support', 'research'], ['--events']);

    expect(run.exitCode).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const result = events.at(-1) ?? {};
    expect(result).toMatchObject({ event: 'result', status: 'succeeded', exit_code: 0 });
    expect(result.outputs).toMatchObject({ action: 'create', changes: '0' });
    const { plans } = result.outputs as { plans: Record<string, unknown> };
    expect(Object.keys(plans)).toEqual(['support', 'research']);
    expect(plans.support).toMatchObject({ name: 'support', action: 'create' });
    const steps = events.filter((event) => event.event === 'step');
    expect(new Set(steps.map((event) => event.agent))).toEqual(new Set(['support', 'research']));
  });

  it('a --name without {agent} is an input error, exit 2, before any request', async () => {
    const run = await command('plan', ['support'], ['--name', 'fixed']);

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('{agent}');
    expect(emu.requests).toEqual([]);
  });
});

describe('status --agents', () => {
  it('--json: deployments keyed by agent, live when all are; --wait waits for each', async () => {
    seed('support', 'reg/support:1', 'DEPLOYING');
    seed('research', 'reg/research:1', 'DEPLOYING');
    emu.setOptions({ readyAfterPolls: 2 });

    const run = await command('status', ['support', 'research'], ['--json', '--wait'], {
      env: QUICK_HEARTBEAT,
    });

    expect(run.exitCode).toBe(0);
    const json = JSON.parse(run.stdout) as { deployments: Entries; live: boolean };
    expect(Object.keys(json)).toEqual(['deployments', 'live', 'healthy']);
    // No agent makes a health check: null, as each agent's own.
    expect((json as { healthy?: unknown }).healthy).toBeNull();
    expect(json.live).toBe(true);
    expect(json.deployments.support).toMatchObject({
      'deployment-id': idOf('support'),
      status: 'READY',
      live: true,
      created: false,
    });
    expect(json.deployments.research).toMatchObject({ status: 'READY', live: true });
    expect(methods()).toEqual(['GET']);
    // The waits share their checks: one request for both agents, by id.
    const both = [idOf('support'), idOf('research')].sort().join(',');
    const checks = emu.requests.filter((request) => request.query.deployment_ids !== undefined);
    expect(checks.length).toBeGreaterThan(0);
    expect(
      checks.map((request) => request.query.deployment_ids?.split(',').sort().join(',')),
    ).toContain(both);
    expect(run.stderr).toContain(
      `[research] deployment 'research': ${idOf('research')} (READY), live`,
    );
    expectNoSecret([KEY], run);
  });

  it('an agent without a deployment: exit 1 after all, named; the others reported', async () => {
    seed('support');

    const run = await command(
      'status',
      ['support', 'missing'],
      ['--json', '--dotenv', 'st.env', '--summary', 'st.md'],
      { read: ['st.env', 'st.md'] },
    );

    expect(run.exitCode).toBe(1);
    const json = JSON.parse(run.stdout) as { deployments: Entries; live: boolean; error: string };
    expect(json.live).toBe(false);
    expect(json.deployments.support).toMatchObject({ status: 'READY', live: true });
    expect(json.deployments.missing?.error).toMatch(/No deployment is named 'missing'/);
    expect(json.error).toMatch(/^1 of 2 agents failed:\n- missing: No deployment is named/);
    expect(run.files['st.env']).toBe(
      [
        'DEPLOYMENT_LIVE=false',
        `DEPLOYMENT_AGENT_SUPPORT_ID=${idOf('support')}`,
        'DEPLOYMENT_AGENT_SUPPORT_STATUS=READY',
        'DEPLOYMENT_AGENT_SUPPORT_LIVE=true',
        'DEPLOYMENT_AGENT_MISSING_LIVE=false',
        '',
      ].join('\n'),
    );
    // One summary: a row an agent, the missing one failed, and why below.
    expect(run.files['st.md']).toContain('1 of 2 agents failed');
    expect(run.files['st.md']).toContain('No deployment is named');
  });

  it('--name is a template; DEPLOY_AGENTS is --agents; --events lines carry agent', async () => {
    seed('support-pr-7');

    const run = await runInProcess(['status', '--name', '{agent}-pr-7', '--events'], {
      env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, DEPLOY_AGENTS: 'agents.yaml' },
      files: { 'agents.yaml': manifest(['support']) },
    });

    expect(run.exitCode).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const event of events.slice(0, -1)) expect(event.agent).toBe('support');
    expect(events.at(-1)).toMatchObject({
      event: 'result',
      status: 'succeeded',
      outputs: {
        deployments: { support: { 'deployment-id': idOf('support-pr-7'), status: 'READY' } },
        live: true,
      },
    });
  });

  it('two agents with one deployment name are an input error, before any request', async () => {
    const run = await command('status', ['support', 'research'], [], {
      files: {
        'agents.yaml': 'agents:\n  support: {name: one}\n  research: {name: one}\n',
      },
    });

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      "agents support and research would have one deployment name, 'one'",
    );
    expect(emu.requests).toEqual([]);
  });
});
