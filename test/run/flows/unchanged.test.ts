/**
 * `paths` on a pull request, in-process over real HTTP against the emulator: an agent whose
 * patterns match none of the changed files is not deployed (no request for it), its entry says
 * so, and when the files cannot be known every agent is deployed, with one notice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDeploySpec } from '../../support/plan-inputs.ts';
import type { RunDescription } from '../../../src/inputs/run-description.ts';
import { runDeploy } from '../../../src/run/flows/deploy-run.ts';
import type { ChangedFiles } from '../../../src/run/ports/changes.ts';
import { startEmulator, type Emulator } from '../../emulator/emulator.ts';
import { reader, WORKFLOW_REPOSITORY } from '../../support/action.ts';
import { FakeClock } from '../../support/clock.ts';
import {
  INTEGRATION,
  TENANT_ID,
  seedAgentRepository,
  AGENT_REPO_URL,
} from '../../support/fixtures.ts';
import { recordingRunner } from '../../support/recording-runner.ts';

const HEAD = '3333333333333333333333333333333333333333';
const MANIFEST = 'deploy/agents.yaml';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ tenantId: TENANT_ID, readyAfterPolls: 1 });
  seedAgentRepository(emu);
  emu.setHead(AGENT_REPO_URL, 'feature', HEAD);
});

afterEach(async () => {
  await emu.close();
});

const description: RunDescription = {
  workspace: process.cwd(),
  repository: WORKFLOW_REPOSITORY,
  head: {
    kind: 'branch',
    branch: 'feature',
    sha: HEAD,
    repository: WORKFLOW_REPOSITORY,
    pullRequest: true,
  },
  commit: HEAD,
};

function agent(key: string, patterns?: string[]) {
  const spec = readDeploySpec(
    reader({
      'api-url': emu.url,
      name: `${key}-pr-7`,
      'integration-id': INTEGRATION,
      'repo-ref': 'feature',
      'agent-config-path': `apps/${key}/langgraph.json`,
      'wait-for-ready': 'true',
      'wait-timeout': '60',
    }),
    description,
  );
  const always = [MANIFEST, `apps/${key}/langgraph.json`];
  return { key, name: spec.name, spec, ...(patterns && { paths: { patterns, always } }) };
}

async function run(agents: ReturnType<typeof agent>[], changed?: ChangedFiles | 'throws') {
  let asked = 0;
  const changedFiles =
    changed === undefined
      ? undefined
      : (): Promise<ChangedFiles> => {
          asked += 1;
          if (changed === 'throws') return Promise.reject(new Error('the runner broke'));
          return Promise.resolve(changed);
        };
  const runner = recordingRunner(description, {
    clock: new FakeClock(),
    ...(changedFiles && { changedFiles }),
  });
  const outcome = await runDeploy({ layout: 'keyed', source: MANIFEST, agents }, runner.io);
  const deployments = JSON.parse(runner.outputs.deployments ?? '{}') as Record<string, unknown>;
  return { ...runner, outcome, deployments, asked: () => asked };
}

const three = () => [
  agent('support', ['apps/support/**', 'libs/shared/**']),
  agent('research', ['apps/research/**', 'libs/shared/**', '!**/*.md']),
  agent('triage'),
];

describe('an agent the pull request does not change', () => {
  it('is not deployed: no request for it, its entry skipped, the others live', async () => {
    const files: ChangedFiles = {
      known: true,
      files: ['apps/support/graph.py', 'apps/research/README.md'],
    };
    const { outcome, deployments, outputs, events, logger } = await run(three(), files);

    expect(outcome.failure).toBeUndefined();
    expect(emu.deployments.map((d) => d.name).sort()).toEqual(['support-pr-7', 'triage-pr-7']);
    expect(emu.requests.some((request) => JSON.stringify(request).includes('research'))).toBe(
      false,
    );
    expect(deployments.research).toEqual({ name: 'research-pr-7', skipped: 'unchanged' });
    expect(deployments.support).toMatchObject({ live: true, status: 'READY' });
    expect(outputs.live).toBe('true');
    const research = events.filter((event) => event.agent === 'research').map((e) => e.kind);
    expect(research).toEqual(['skipped', 'agent_over']);
    expect(logger.lines).toContain(
      'info: paths: support is changed: apps/support/graph.py matches apps/support/**',
    );
    expect(logger.lines).toContain(
      'info: paths: unchanged, not deployed: research (none of their patterns matched a changed file)',
    );
    expect(outcome.summary).toMatchObject({
      kind: 'deploy',
      deployments: [
        { key: 'support' },
        { key: 'research', summary: { skipped: 'unchanged', spec: { name: 'research-pr-7' } } },
        { key: 'triage' },
      ],
    });
  });

  it('with every agent unchanged, asks the service nothing and live is empty', async () => {
    const agents = three().slice(0, 2);
    const { outcome, deployments, outputs } = await run(agents, {
      known: true,
      files: ['docs/index.md'],
    });
    expect(outcome.failure).toBeUndefined();
    expect(emu.requests).toEqual([]);
    expect(Object.values(deployments)).toEqual([
      { name: 'support-pr-7', skipped: 'unchanged' },
      { name: 'research-pr-7', skipped: 'unchanged' },
    ]);
    expect(outputs.live).toBe('');
    expect(outputs.healthy).toBe('');
  });

  it("is changed by the manifest's file or its agent-config-path file, whatever its patterns", async () => {
    const { deployments, logger } = await run(three(), {
      known: true,
      files: ['apps/research/langgraph.json', MANIFEST],
    });
    expect(Object.values(deployments).every((entry) => !('skipped' in (entry as object)))).toBe(
      true,
    );
    expect(logger.lines).toContain(
      'info: paths: support is changed: deploy/agents.yaml a file it is deployed from',
    );
    expect(logger.lines).toContain(
      'info: paths: research is changed: apps/research/langgraph.json a file it is deployed from',
    );
  });
});

describe('when the changed files cannot be known', () => {
  for (const [what, answer, why] of [
    [
      'the runner says why',
      { known: false, why: 'no token to ask GitHub' },
      'no token to ask GitHub',
    ],
    ['the runner throws', 'throws', 'Unexpected error: the runner broke'],
  ] as const) {
    it(`deploys every agent, with one notice (${what})`, async () => {
      const { deployments, logger } = await run(three(), answer);
      expect(emu.deployments).toHaveLength(3);
      expect(Object.keys(deployments)).toEqual(['support', 'research', 'triage']);
      const notices = logger.lines.filter((line) => line.startsWith('notice:'));
      expect(notices).toEqual([`notice: paths: ${why}; every agent is deployed`]);
    });
  }

  it('does not ask at all when no agent sets paths, nor off a pull request', async () => {
    const none = await run([agent('support'), agent('triage')], { known: true, files: [] });
    expect(none.asked()).toBe(0);
    expect(emu.deployments).toHaveLength(2);
    const push = await run(three());
    expect(push.asked()).toBe(0);
    expect(Object.keys(push.deployments)).toEqual(['support', 'research', 'triage']);
  });
});
