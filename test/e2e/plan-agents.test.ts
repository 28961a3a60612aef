/**
 * End-to-end, the plan step with a manifest of agents (`agents`) through
 * dist/plan.js against both emulators: every agent planned as if alone,
 * `plans` keyed by agent, `changes` the total, the manifest's `action`,
 * `on-change: fail` failing on any agent's difference, one plan comment on
 * the pull request for the whole manifest, updated in place, and a bad
 * manifest refused before any request, naming where the problem is.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import { GITHUB_TOKEN, RUN_URL, gitHubStep, pullRequestEvent } from '../support/github-step.ts';
import { whatAReaderSees } from '../support/github-render.ts';
import { TENANT_ID } from '../support/ids.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { runAction, type ActionRun } from '../support/run-action.ts';
import { MANIFEST_PATH, TWO_AGENTS } from '../support/manifests.ts';

const API_KEY = 'plan-agents-key-0123456789abcdef';
const OPENAI = 'sk-plan-agents-openai-0123456789';

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  [emu, gh] = await Promise.all([
    startEmulator({ tenantId: TENANT_ID, apiKey: API_KEY }),
    startGitHubEmulator(),
  ]);
  seedAgentRepository(emu);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

/** `support` deployed before, from another config path than the pull request asks for. */
function deployedSupport(agentConfigPath = 'apps/support/old.json') {
  return emu.seedDeployment({
    name: 'support',
    source: 'codehost',
    source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
    source_revision_config: { repo_ref: 'main', agent_config_path: agentConfigPath },
    secrets: [{ name: 'OPENAI_API_KEY', value: OPENAI }],
  } as never);
}

/** The plan step of pull request 7 over `manifest` (a file of the workspace). */
function plan(manifest = TWO_AGENTS, extra: Record<string, string> = {}): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    {
      'api-url': emu.url,
      'api-key': API_KEY,
      'integration-id': INTEGRATION,
      agents: MANIFEST_PATH,
      secrets: `OPENAI_API_KEY=${OPENAI}`,
      ...extra,
    },
    {},
    {
      event: pullRequestEvent(),
      action: 'plan/action.yml',
      files: { [MANIFEST_PATH]: manifest },
    },
  );
  return runAction(given, options);
}

type Plans = Record<string, Record<string, unknown>>;

const commentWrites = () =>
  gh.requests.filter(
    (request) =>
      (request.method === 'POST' || request.method === 'PATCH') && /\/comments/.test(request.path),
  );

describe('the plan of a manifest', () => {
  it('plans every agent: plans keyed by agent, the total of changes, a mixed action, one comment', async () => {
    const support = deployedSupport();

    const run = await plan();

    expect(run.exitCode).toBe(0);
    const plans = JSON.parse(run.outputs.plans ?? '{}') as Plans;
    expect(Object.keys(plans)).toEqual(['support', 'research']);
    expect(plans.support).toMatchObject({
      name: 'support',
      action: 'reuse',
      changes: 1,
      'deployment-id': support.id,
    });
    expect(plans.research).toMatchObject({
      name: 'research-assistant',
      action: 'create',
      changes: 0,
    });
    expect(run.outputs).toMatchObject({ action: 'mixed', changes: '1' });
    expect(run.outputs.plan ?? '').toBe('');
    expect(run.outputs['deployment-id'] ?? '').toBe('');
    expect(run.outputs.status ?? '').toBe('');
    expect([...new Set(emu.requests.map((request) => request.method))]).toEqual(['GET']);
    expect(emu.requests.filter((request) => request.path.endsWith('/repos'))).toHaveLength(1);
    expect(run.summary).toContain('<code>research-assistant</code>');

    // One comment for the manifest, a row per agent, one write.
    expect(gh.comments).toHaveLength(1);
    const body = gh.comments[0]?.body ?? '';
    expect(body.startsWith('<!-- deploy-agent-agents-plan:deploy%2Fagents%2Eyaml -->')).toBe(true);
    const seen = whatAReaderSees(body);
    expect(seen.tables[0]?.map((row) => row[0])).toEqual(['Agent', 'support', 'research']);
    expect(seen.tables[0]?.[1]).toEqual(
      expect.arrayContaining([expect.stringContaining('reuse'), '1']),
    );
    expect(seen.tables[0]?.[2]?.[2]).toContain('create');
    expect(body).toContain('source_revision_config.agent_config_path');
    expect(body).toContain(RUN_URL);
    expect(commentWrites()).toHaveLength(1);
    expectNoSecret([API_KEY, OPENAI], run, gh);
  });

  it('updates its one comment in place on the next run, an agent removed keeping a row', async () => {
    deployedSupport();
    await plan();
    const first = gh.comments[0];

    deployedSupport('apps/triage/langgraph.json');
    const second = await plan(`agents:
  support:
    agent-config-path: apps/support/old.json
`);

    expect(second.exitCode).toBe(0);
    expect(second.outputs).toMatchObject({ action: 'reuse', changes: '0' });
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]?.id).toBe(first?.id);
    const seen = whatAReaderSees(gh.comments[0]?.body ?? '');
    expect(seen.tables[0]?.map((row) => row[0])).toEqual(['Agent', 'support', 'research']);
    expect(seen.tables[0]?.[2]?.[2]).toContain('no longer in the manifest');
    expect(commentWrites()).toHaveLength(2);
  });

  it("with on-change: fail, fails on any agent's difference, naming it", async () => {
    deployedSupport();

    const run = await plan(TWO_AGENTS, { 'on-change': 'fail' });

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(
      /^1 of 2 agents failed:\n- support: The deploy of 'support' would not apply 1 difference/,
    );
    expect(run.outputs).toMatchObject({ action: 'mixed', changes: '1' });
    const plans = JSON.parse(run.outputs.plans ?? '{}') as Plans;
    expect(plans.support?.error).toMatch(/would not apply/);
    expect(plans.research?.error).toBeUndefined();
    expect(gh.comments).toHaveLength(1);
  });

  it('says fail when any agent would fail', async () => {
    emu.seedDeployment({ name: 'research-assistant', source: 'external_docker' });

    const run = await plan();

    expect(run.exitCode).toBe(1);
    expect(run.outputs.action).toBe('fail');
    expect(run.error).toMatch(/- research: .*exists with source external_docker/);
    const seen = whatAReaderSees(gh.comments[0]?.body ?? '');
    expect(seen.tables[0]?.[2]?.[2]).toContain('fail');
  });

  it('refuses a bad manifest before any request, naming the path of the problem', async () => {
    const run = await plan(`agents:
  support:
    agent-config-path: apps/support/langgraph.json
    image_url: x
`);

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain("input 'agents.support.image_url': unknown key");
    expect(emu.requests).toEqual([]);
    expect(gh.requests).toEqual([]);
  });

  it('refuses a manifest file that is not there, naming it, before any request', async () => {
    const run = await plan(TWO_AGENTS, { agents: 'deploy/missing.yaml' });

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/'agents'.*deploy\/missing\.yaml/);
    expect(emu.requests).toEqual([]);
    expect(gh.requests).toEqual([]);
  });

  it('refuses a name without {agent} beside agents, before any request', async () => {
    const run = await plan(TWO_AGENTS, { name: 'preview' });

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/name.*does not hold \{agent\}/);
    expect(emu.requests).toEqual([]);
  });
});
