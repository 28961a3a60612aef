/**
 * `deploy-agent deploy --agents FILE` as a user runs it (dist/cli.js spawned,
 * test/cli/run-cli.ts) against the service emulator: --json keyed by agent (each the agent's own
 * object, drift list included), a failing agent, --dotenv's variables and
 * their limit, --events lines of agents and the one result.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { runCli, type CliOptions } from './run-cli.ts';
import { QUICK_HEARTBEAT } from '../support/quick.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { KILL_AFTER_MS } from '../support/run-action.ts';

const KEY = 'agents-api-key-0123456789';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
});
afterEach(async () => {
  await emu.close();
});

/** A manifest of agents deployed from images: `reg/KEY:1` each. */
function manifest(keys: readonly string[]): string {
  return ['agents:', ...keys.flatMap((key) => [`  ${key}:`, `    image-uri: reg/${key}:1`])].join(
    '\n',
  );
}

/** The command's deploy of `keys`, killed well below a test's timeout. */
async function deploy(keys: readonly string[], args: string[], options: CliOptions = {}) {
  return runCli(['deploy', '--agents', 'agents.yaml', '--source', 'external_docker', ...args], {
    killAfterMs: KILL_AFTER_MS,
    ...options,
    env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, ...options.env },
    files: { 'agents.yaml': manifest(keys), ...options.files },
  });
}

type Deployments = Record<string, Record<string, unknown>>;

describe('deploy --agents --json', () => {
  it('keys the deployments by agent, each its own object with its drift list, live when all are', async () => {
    emu.seedDeployment({
      name: 'research',
      source: 'external_docker',
      source_revision_config: { image_uri: 'reg/research:1', repo_commit_sha: null },
      secrets: [{ name: 'OLD_KEY', value: 'old-value' }],
    } as never);
    emu.setOptions({ readyAfterPolls: 1 });

    const run = await deploy(['support', 'research'], ['--json', '--wait', '--secret', 'NEW_KEY'], {
      env: { ...QUICK_HEARTBEAT, NEW_KEY: 'new-secret-value' },
    });

    expect(run.exitCode).toBe(0);
    expectNoSecret([KEY, 'new-secret-value', 'old-value'], run);
    const json = JSON.parse(run.stdout) as { deployments: Deployments; live: boolean };
    expect(Object.keys(json)).toEqual(['deployments', 'live', 'healthy']);
    // No agent makes a health check: null, as each agent's own.
    expect((json as { healthy?: unknown }).healthy).toBeNull();
    expect(json.live).toBe(true);
    const { support, research } = json.deployments;
    expect(Object.keys(json.deployments)).toEqual(['support', 'research']);
    expect(support).toMatchObject({ status: 'READY', created: true, live: true, drift: [] });
    expect(research).toMatchObject({ status: 'READY', created: false, live: true });
    expect(research?.drift).toEqual([
      { field: 'secrets.NEW_KEY', wanted: '***', live: null },
      { field: 'secrets.OLD_KEY', wanted: null, live: '***' },
    ]);
    expect(research?.['deployment-id']).toBe(
      emu.deployments.find((d) => d.name === 'research')?.id,
    );
    expect(support).not.toHaveProperty('error');
    // Each line of an agent is written after its key.
    expect(run.stderr).toContain("[research] == Looking for deployment 'research'");
    expect(run.stderr).toContain('[research] warning: drift: secrets.OLD_KEY');
  });

  it('a failing agent: exit 1 once all finished, its error, the others live', async () => {
    emu.seedDeployment({ name: 'broken', source: 'codehost' } as never);
    emu.setOptions({ readyAfterPolls: 1 });

    const run = await deploy(['support', 'broken', 'research'], ['--json', '--wait'], {
      env: QUICK_HEARTBEAT,
    });

    expect(run.exitCode).toBe(1);
    const json = JSON.parse(run.stdout) as {
      deployments: Deployments;
      live: boolean;
      error: string;
    };
    expect(json.live).toBe(false);
    expect(json.error).toMatch(/^1 of 3 agents failed:\n- broken: .*source codehost/);
    expect(json.deployments.broken?.error).toMatch(/source codehost/);
    expect(json.deployments.support).toMatchObject({ live: true, status: 'READY' });
    expect(json.deployments.research).toMatchObject({ live: true, status: 'READY' });
    expect(json.deployments.research).not.toHaveProperty('error');
    expect(run.stderr).toMatch(/error: 1 of 3 agents failed:\n- broken: /);
  });
});

describe('deploy --agents --dotenv', () => {
  const KEYS = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'];

  it("writes DEPLOYMENT_LIVE and each agent's id, status and live (a URL when it has one)", async () => {
    const run = await deploy(['support', 'research'], ['--dotenv', 'deploy.env'], {
      read: ['deploy.env'],
    });

    expect(run.exitCode).toBe(0);
    const id = (name: string) => emu.deployments.find((d) => d.name === name)?.id ?? '';
    expect(run.files['deploy.env']).toBe(
      [
        'DEPLOYMENT_LIVE=false',
        `DEPLOYMENT_AGENT_SUPPORT_ID=${id('support')}`,
        `DEPLOYMENT_AGENT_RESEARCH_ID=${id('research')}`,
        'DEPLOYMENT_AGENT_SUPPORT_STATUS=AWAITING_DATABASE',
        'DEPLOYMENT_AGENT_SUPPORT_LIVE=false',
        'DEPLOYMENT_AGENT_RESEARCH_STATUS=AWAITING_DATABASE',
        'DEPLOYMENT_AGENT_RESEARCH_LIVE=false',
        '',
      ].join('\n'),
    );
  });

  it('keeps 20 variables, the least useful left out with one warning each', async () => {
    const run = await deploy(KEYS, ['--dotenv', 'deploy.env'], { read: ['deploy.env'] });

    expect(run.exitCode).toBe(0);
    const lines = (run.files['deploy.env'] ?? '').trim().split('\n');
    expect(lines).toHaveLength(20);
    expect(lines[0]).toBe('DEPLOYMENT_LIVE=false');
    expect(lines.filter((line) => /_ID=/.test(line))).toHaveLength(8);
    const leftOut = ['A6_LIVE', 'A7_STATUS', 'A7_LIVE', 'A8_STATUS', 'A8_LIVE'];
    const warnings = run.stderr.split('\n').filter((line) => line.includes('left out of --dotenv'));
    expect(warnings).toHaveLength(5);
    for (const [index, variable] of leftOut.entries()) {
      expect(warnings[index]).toContain(`DEPLOYMENT_AGENT_${variable} is left out of --dotenv`);
      expect(warnings[index]).toContain('--dotenv-max-keys');
    }
  });

  it('writes them all with --dotenv-max-keys 30', async () => {
    const run = await deploy(KEYS, ['--dotenv', 'deploy.env', '--dotenv-max-keys', '30'], {
      read: ['deploy.env'],
    });

    expect(run.exitCode).toBe(0);
    expect((run.files['deploy.env'] ?? '').trim().split('\n')).toHaveLength(25);
    expect(run.stderr).not.toContain('left out of --dotenv');
  });

  it("sets a single deploy's limit too", async () => {
    const run = await runCli(
      ['deploy', '--name', 'one', '--source', 'external_docker', '--image-uri', 'reg/one:1'].concat(
        ['--dotenv', 'deploy.env', '--dotenv-max-keys', '3'],
      ),
      {
        env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY },
        read: ['deploy.env'],
        killAfterMs: KILL_AFTER_MS,
      },
    );

    expect(run.exitCode).toBe(0);
    expect((run.files['deploy.env'] ?? '').trim().split('\n')).toEqual([
      `DEPLOYMENT_ID=${emu.deployments[0]?.id ?? ''}`,
      'DEPLOYMENT_STATUS=AWAITING_DATABASE',
      'DEPLOYMENT_CREATED=true',
    ]);
    expect(run.stderr).toContain(
      'DEPLOYMENT_LIVE is left out of --dotenv: at most 3 variables are written (--dotenv-max-keys 3)',
    );
  });

  it.each([['0'], ['-3'], ['twenty'], ['1.5']])(
    '--dotenv-max-keys %s is a usage error naming it, before any request',
    async (value) => {
      const run = await deploy(
        ['support'],
        ['--dotenv', 'deploy.env', `--dotenv-max-keys=${value}`],
      );

      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain('--dotenv-max-keys takes a whole number');
      expect(emu.requests).toEqual([]);
    },
  );
});

describe('deploy --agents --events', () => {
  it("tags every line of an agent with its key; one result last, holding every agent's outputs", async () => {
    emu.setOptions({ readyAfterPolls: 3 });

    const run = await deploy(['support', 'research'], ['--events', '--wait'], {
      env: QUICK_HEARTBEAT,
    });

    expect(run.exitCode).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((event) => event.event === 'result')).toHaveLength(1);
    const result = events.at(-1) ?? {};
    expect(result).toMatchObject({ event: 'result', status: 'succeeded', exit_code: 0 });
    expect(result).not.toHaveProperty('deployment_id');
    const outputs = result.outputs as { deployments: Deployments; live: boolean };
    expect(outputs.live).toBe(true);
    expect(Object.keys(outputs.deployments)).toEqual(['support', 'research']);
    const steps = events.filter((event) => event.event === 'step');
    for (const agent of ['support', 'research']) {
      expect(steps.filter((event) => event.agent === agent).map((event) => event.step)).toEqual([
        'find',
        'create',
        'wait',
      ]);
    }
    for (const event of events.slice(0, -1)) expect(['support', 'research']).toContain(event.agent);
  });
});

describe('deploy --agents, usage', () => {
  it('a --name without {agent} is an input error, exit 2, before any request', async () => {
    const run = await deploy(['support'], ['--name', 'fixed', '--json']);

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('{agent}');
    expect(emu.requests).toEqual([]);
  });
});
