/**
 * The deploy of several agents in-process, over real HTTP against the
 * emulator with a fake clock: each agent as if alone, one failure stopping
 * none of the others, the manifest's outputs keyed by agent, one summary,
 * every event of an agent carrying its key.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDeploySpec } from '../../../src/inputs/read-deploy-spec.ts';
import type { RunDescription } from '../../../src/inputs/run-description.ts';
import { deployAgents } from '../../../src/run/flows/agents-run.ts';
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
  const outcome = await deployAgents({ source: 'deploy/agents.yaml', agents }, runner.io);
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
    expect(outcome.summary).toMatchObject({ kind: 'agents', source: 'deploy/agents.yaml' });
    const phases = events.filter((event) => event.kind === 'phase');
    expect(phases.length).toBeGreaterThan(0);
    expect(phases.every((event) => event.agent === 'support' || event.agent === 'research')).toBe(
      true,
    );
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
