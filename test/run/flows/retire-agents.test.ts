/**
 * The retire of several agents' previews in-process, against the emulator:
 * each agent's preview looked up as the single retire does, `deployments`
 * keyed by agent, `retired` the total (an environment the agents share
 * counted once), the adapter asked once for all of them after every agent
 * was looked up, and one agent's failure naming it without stopping the
 * others. The inputs: `name` with `agents` is a template holding `{agent}`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readInputs } from '../../../src/inputs/declare.ts';
import { InputError } from '../../../src/inputs/errors.ts';
import type { RunDescription } from '../../../src/inputs/run-description.ts';
import { retireRequest, type PreviewToRetire } from '../../../src/inputs/retire-inputs.ts';
import type { AgentRetireReport, Retirement } from '../../../src/run/ports/progress.ts';
import { runRetire } from '../../../src/run/flows/retire-run.ts';
import { RETIRE_INPUTS } from '../../../src/retire.ts';
import { renderSummary } from '../../../src/views/summary.ts';
import { startEmulator, type Emulator } from '../../emulator/emulator.ts';
import { TENANT_ID } from '../../support/fixtures.ts';
import { recordingRunner, retiredBy } from '../../support/recording-runner.ts';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ tenantId: TENANT_ID });
});

afterEach(async () => {
  await emu.close();
});

const description: RunDescription = {
  workspace: process.cwd(),
  repository: 'acme/app',
  head: { kind: 'none', reason: 'a test' },
};

const DASHBOARD = 'https://console.example/d/{id}';

function asked(agents: readonly PreviewToRetire[]) {
  return {
    layout: 'keyed' as const,
    apiUrl: emu.url,
    headers: {},
    sensitiveValues: [],
    dashboardUrl: DASHBOARD,
    source: 'inline',
    agents,
  };
}

const AGENTS = [
  { key: 'support', name: 'support-pr-7' },
  { key: 'research', name: 'research-assistant-pr-7' },
];

type Deployments = Record<string, Record<string, unknown>>;

describe('retiring several agents', () => {
  it("looks up each agent's preview: deployments keyed by agent, the single outputs empty", async () => {
    const support = emu.seedDeployment({ name: 'support-pr-7' });
    const runner = recordingRunner(description);

    const outcome = await runRetire(asked(AGENTS), runner.io);

    expect(outcome.failure).toBeUndefined();
    expect(runner.outputs).toMatchObject({
      'deployment-id': '',
      status: '',
      'dashboard-url': '',
      retired: '0',
    });
    const deployments = JSON.parse(runner.outputs.deployments ?? '{}') as Deployments;
    expect(deployments).toEqual({
      support: {
        name: 'support-pr-7',
        'deployment-id': support.id,
        status: support.status,
        'dashboard-url': `https://console.example/d/${support.id}`,
        retired: 0,
      },
      research: {
        name: 'research-assistant-pr-7',
        'deployment-id': '',
        status: '',
        'dashboard-url': '',
        retired: 0,
      },
    });
    expect(emu.requests.every((request) => request.method === 'GET')).toBe(true);
    const html = renderSummary(outcome.summary!, (text) => text);
    expect(html).toContain('support-pr-7');
    expect(html).toContain('research-assistant-pr-7');
  });

  it('asks the adapter once, after every agent is looked up; a shared environment counts once', async () => {
    emu.seedDeployment({ name: 'support-pr-7' });
    const calls: (readonly AgentRetireReport[])[] = [];
    const retiredAgents = (reports: readonly AgentRetireReport[]) => {
      calls.push(reports);
      const each: Retirement = {
        environment: 'preview-pr-7',
        found: 3,
        inactive: 2,
        more: false,
        comment: 'rewritten',
      };
      return Promise.resolve(new Map(reports.map(({ key }) => [key, each])));
    };
    const runner = recordingRunner(description, { retired: retiredBy(undefined, retiredAgents) });

    const outcome = await runRetire(asked(AGENTS), runner.io);

    expect(outcome.failure).toBeUndefined();
    expect(calls).toHaveLength(1);
    const reports = calls[0] ?? [];
    expect(reports.map(({ key }) => key).sort()).toEqual(['research', 'support']);
    const support = reports.find(({ key }) => key === 'support')?.report;
    expect(support?.name).toBe('support-pr-7');
    expect(support?.deployments).toHaveLength(1);
    expect(runner.outputs.retired).toBe('2');
    const deployments = JSON.parse(runner.outputs.deployments ?? '{}') as Deployments;
    expect(deployments.support?.retired).toBe(2);
    expect(deployments.research?.retired).toBe(2);
  });

  it("adds up each agent's own environment; more agents than slots all reach the adapter", async () => {
    const agents = Array.from({ length: 7 }, (_, index) => ({
      key: `a${index}`,
      name: `a${index}-pr-7`,
    }));
    let calls = 0;
    const retiredAgents = (reports: readonly AgentRetireReport[]) => {
      calls += 1;
      return Promise.resolve(
        new Map(
          reports.map(({ key }) => [
            key,
            { environment: `preview-${key}`, found: 1, inactive: 1, more: false, comment: 'none' },
          ]),
        ) as ReadonlyMap<string, Retirement>,
      );
    };
    const runner = recordingRunner(description, { retired: retiredBy(undefined, retiredAgents) });

    const outcome = await runRetire(asked(agents), runner.io);

    expect(outcome.failure).toBeUndefined();
    expect(calls).toBe(1);
    expect(runner.outputs.retired).toBe('7');
  });

  it('an agent whose lookup fails is named; the others are retired all the same', async () => {
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      query: { name_contains: 'research-assistant-pr-7' },
      status: 401,
      times: Infinity,
    });
    const calls: (readonly AgentRetireReport[])[] = [];
    const retiredAgents = (reports: readonly AgentRetireReport[]) => {
      calls.push(reports);
      return Promise.resolve(new Map<string, Retirement>());
    };
    const runner = recordingRunner(description, { retired: retiredBy(undefined, retiredAgents) });

    const outcome = await runRetire(asked(AGENTS), runner.io);

    expect(outcome.failure).toMatch(/^1 of 2 agents failed:\n- research: /);
    expect(calls.map((reports) => reports.map(({ key }) => key))).toEqual([['support']]);
    const deployments = JSON.parse(runner.outputs.deployments ?? '{}') as Deployments;
    expect(Object.keys(deployments)).toEqual(['support', 'research']);
  });
});

describe('retiring several agents when the service fails for all', () => {
  it('asks the adapter nothing: nothing on GitHub is changed', async () => {
    emu.inject({ method: 'GET', path: '/v2/deployments', status: 401, times: Infinity });
    let calls = 0;
    const retiredAgents = () => {
      calls += 1;
      return Promise.resolve(new Map<string, Retirement>());
    };
    const runner = recordingRunner(description, { retired: retiredBy(undefined, retiredAgents) });

    const outcome = await runRetire(asked(AGENTS), runner.io);

    expect(outcome.failure).toMatch(/^2 of 2 agents failed:/);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toBe(0);
  });
});

describe('the retire inputs with agents', () => {
  const read = (given: Record<string, string>) =>
    retireRequest(readInputs(RETIRE_INPUTS, (name) => given[name], description));
  const manifest = '{"agents": {"support": {}, "research": {"name": "research-assistant"}}}';

  it("fills the template with each agent's name (its entry's, else its key)", () => {
    const asked = read({ 'api-url': emu.url, name: '{agent}-pr-7', agents: manifest });

    expect(asked.layout).toBe('keyed');
    expect(asked.agents.map(({ key, name }) => [key, name])).toEqual([
      ['support', 'support-pr-7'],
      ['research', 'research-assistant-pr-7'],
    ]);
  });

  it.each([
    ['my-agent-pr-7', /^name: does not hold \{agent\}/m],
    ['', /^name: is empty: with agents it is the previews' name template/m],
    ['{agent}-{agent}-7', /^name: holds \{agent\} 2 times/m],
  ])("name '%s' with agents is an input error", (name, message) => {
    let thrown: unknown;
    try {
      read({ 'api-url': emu.url, name, agents: manifest });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InputError);
    expect(
      (thrown as InputError).problems.map((p) => `${p.input}: ${p.problem}`).join('\n'),
    ).toMatch(message);
  });

  it('name is required without agents', () => {
    expect(() => read({ 'api-url': emu.url })).toThrow(/name/);
  });
});
