/**
 * The deploy of several agents in-process, over real HTTP against the
 * emulator with a fake clock: each agent as if alone, one failure stopping
 * none of the others, the manifest's outputs keyed by agent, one summary,
 * every event of an agent carrying its key.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDeploySpec } from '../../support/plan-inputs.ts';
import type { RunDescription } from '../../../src/inputs/run-description.ts';
import { runDeploy } from '../../../src/run/flows/deploy-run.ts';
import { startEmulator, type Emulator } from '../../emulator/emulator.ts';
import { reader, WORKFLOW_REPOSITORY } from '../../support/action.ts';
import { FakeClock } from '../../support/clock.ts';
import {
  AGENT_REPO_URL,
  INTEGRATION,
  TENANT_ID,
  seedAgentRepository,
} from '../../support/fixtures.ts';
import { recordingRunner } from '../../support/recording-runner.ts';

const HEAD = '2222222222222222222222222222222222222222';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ tenantId: TENANT_ID, readyAfterPolls: 1 });
  seedAgentRepository(emu);
  emu.setHead(AGENT_REPO_URL, 'main', HEAD);
});

afterEach(async () => {
  await emu.close();
});

const description: RunDescription = {
  workspace: process.cwd(),
  repository: WORKFLOW_REPOSITORY,
  head: {
    kind: 'branch',
    branch: 'main',
    sha: HEAD,
    repository: WORKFLOW_REPOSITORY,
    pullRequest: false,
  },
  commit: HEAD,
};

function agent(key: string, extra: Record<string, string> = {}) {
  const spec = readDeploySpec(
    reader({
      'api-url': emu.url,
      name: key,
      'integration-id': INTEGRATION,
      'agent-config-path': `apps/${key}/langgraph.json`,
      'wait-for-ready': 'true',
      'wait-timeout': '60',
      ...extra,
    }),
    description,
  );
  return { key, name: key, spec };
}

async function run(agents: ReturnType<typeof agent>[]) {
  const runner = recordingRunner(description, { clock: new FakeClock() });
  const outcome = await runDeploy(
    { layout: 'keyed', source: 'deploy/agents.yaml', agents },
    runner.io,
  );
  return { ...runner, outcome };
}

describe('deploying several agents', () => {
  it('deploys each agent until live, with outputs keyed by agent and one summary', async () => {
    const { outcome, outputs, events } = await run([agent('support'), agent('research')]);

    expect(outcome.failure).toBeUndefined();
    const deployments = JSON.parse(outputs.deployments ?? '{}') as Record<string, unknown>;
    expect(Object.keys(deployments)).toEqual(['support', 'research']);
    expect(deployments.support).toMatchObject({
      name: 'support',
      status: 'READY',
      created: true,
      live: true,
      'commit-sha': HEAD,
      'drift-count': 0,
    });
    expect(outputs.live).toBe('true');
    expect(outputs['deployment-id']).toBeUndefined();
    expect(emu.deployments.map((d) => d.name).sort()).toEqual(['research', 'support']);
    expect(outcome.summary).toMatchObject({
      kind: 'deploy',
      layout: 'keyed',
      source: 'deploy/agents.yaml',
    });
    // Every event of an agent carries its key; the only others are the manifest's own.
    const keyed = events.filter((event) => event.agent !== undefined);
    expect(new Set(keyed.map((event) => event.agent))).toEqual(new Set(['support', 'research']));
    const own = events.filter((event) => event.agent === undefined);
    for (const event of own) {
      if (event.kind === 'outputs') {
        expect(Object.keys(event.outputs).sort()).toEqual(['deployments', 'healthy', 'live']);
      } else if (event.kind === 'log') {
        // The work shared by all agents: the repository listing read once, the checks together.
        expect(event).toMatchObject({ level: 'debug' });
        expect(event.message).toMatch(
          /^GET \/(v1\/integrations\/[^ ]+\/repos|v2\/deployments) \(attempt \d+\): 200 /,
        );
      } else {
        expect(event.kind).toBe('agents_over');
      }
    }
    for (const key of ['support', 'research']) {
      expect(new Set(keyed.filter((event) => event.agent === key).map(({ kind }) => kind))).toEqual(
        new Set(
          ['phase', 'phase_over', 'log', 'outputs', 'deployed', 'waiting'].concat([
            'status_change',
            'wait_over',
            'finished',
            'agent_over',
          ]),
        ),
      );
    }
  });

  it('one agent failing stops none of the others, and the run names it after all finish', async () => {
    emu.seedDeployment({ name: 'broken', source: 'external_docker' });
    const { outcome, outputs } = await run([agent('support'), agent('broken'), agent('research')]);

    expect(outcome.failure).toMatch(
      /^1 of 3 agents failed:\n- broken: Deployment 'broken' .* exists with source external_docker/,
    );
    const deployments = JSON.parse(outputs.deployments ?? '{}') as Record<
      string,
      { live: boolean; error?: string }
    >;
    expect(deployments.support?.live).toBe(true);
    expect(deployments.research?.live).toBe(true);
    expect(deployments.broken?.live).toBe(false);
    expect(deployments.broken?.error).toMatch(/source external_docker/);
    expect(deployments.support?.error).toBeUndefined();
    expect(outputs.live).toBe('false');
  });
});
