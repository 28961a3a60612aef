/**
 * End-to-end, the sweep step (sweep/action.yml) with the deploy step's manifest (`agents`),
 * through dist/sweep.js against both emulators: `{agent}` in name-pattern stands for the
 * manifest's agents' exact names, so one sweep retires the orphaned previews of every agent,
 * each in its own environment, while a name of no agent in the manifest is never touched; a
 * pattern and a manifest that do not go together are an input error before any request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import { GITHUB_TOKEN, gitHubStep } from '../support/github-step.ts';
import { TENANT_ID } from '../support/ids.ts';
import { printed, runAction, type ActionRun } from '../support/run-action.ts';

let emu: Emulator;
let gh: GitHubEmulator;

const REPO = 'acme/agent';
const MANIFEST = [
  'agents:',
  '  support:',
  '    agent-config-path: apps/support/langgraph.json',
  '  research:',
  '    name: research-assistant',
  '    agent-config-path: apps/research/langgraph.json',
  '',
].join('\n');

beforeEach(async () => {
  [emu, gh] = await Promise.all([startEmulator({ tenantId: TENANT_ID }), startGitHubEmulator()]);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

function sweep(inputs: Record<string, string> = {}): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    {
      'api-url': emu.url,
      agents: 'deploy/agents.yaml',
      'name-pattern': '{agent}-pr-{number}',
      'environment-pattern': 'preview-pr-{number}-{agent}',
      ...inputs,
    },
    {},
    {
      event: { name: 'schedule', ref: 'refs/heads/main', sha: 'a'.repeat(40), payload: {} },
      action: 'sweep/action.yml',
      files: { 'deploy/agents.yaml': MANIFEST },
    },
  );
  return runAction(given, options);
}

const states = (environment: string) =>
  gh.deployments
    .filter((record) => record.environment === environment)
    .map((record) => gh.stateOf(record.id));

describe('the sweep with a manifest of agents', () => {
  it("retires every agent's orphaned previews in one run, and leaves a name of no agent alone", async () => {
    gh.seedPullRequest(REPO, 3, 'closed', '2026-11-02T10:00:00Z');
    gh.seedPullRequest(REPO, 4, 'merged', '2026-11-01T10:00:00Z');
    gh.seedPullRequest(REPO, 5, 'open');
    // Agents support and research (named research-assistant); other is not in the manifest,
    // and research is a key, not a name: neither is ever swept.
    const names = ['support-pr-3', 'research-assistant-pr-3', 'research-assistant-pr-4'];
    for (const name of [...names, 'support-pr-5', 'other-pr-3', 'research-pr-3']) {
      emu.seedDeployment({ name });
    }
    for (const environment of [
      'preview-pr-3-support',
      'preview-pr-3-research-assistant',
      'preview-pr-4-research-assistant',
      'preview-pr-5-support',
      'preview-pr-3-other',
      'preview-pr-3-research',
    ]) {
      gh.seedDeployments(REPO, environment, 1);
    }

    const run = await sweep();

    expect(run.exitCode, printed(run)).toBe(0);
    const orphans = JSON.parse(run.outputs.orphans ?? '') as Record<string, unknown>[];
    expect(orphans.map((orphan) => [orphan.agent, orphan.name, orphan['pull-request']])).toEqual([
      ['research', 'research-assistant-pr-4', 4],
      ['support', 'support-pr-3', 3],
      ['research', 'research-assistant-pr-3', 3],
    ]);
    expect(run.outputs).toMatchObject({
      'orphan-count': '3',
      'open-count': '1',
      'unknown-count': '0',
      retired: '3',
    });
    expect(states('preview-pr-3-support')).toEqual(['inactive']);
    expect(states('preview-pr-3-research-assistant')).toEqual(['inactive']);
    expect(states('preview-pr-4-research-assistant')).toEqual(['inactive']);
    for (const untouched of [
      'preview-pr-5-support',
      'preview-pr-3-other',
      'preview-pr-3-research',
    ]) {
      expect(states(untouched)).not.toContain('inactive');
    }
    expect(run.stdout.match(/^::warning::/gm)).toHaveLength(3);
    expect(run.stdout).toContain("sweep: 'support-pr-3' of agent 'support' (");
    expect(run.stdout).toContain("sweep: 'research-assistant-pr-4' of agent 'research' (");
    expect(run.stdout).not.toContain("'other-pr-3'");
    expect(run.stdout).not.toContain("'research-pr-3'");
    // Each agent's search, GET only; one states query for every agent's pull requests.
    expect(emu.requests.map((request) => [request.method, request.query.name_contains])).toEqual([
      ['GET', 'support-pr-'],
      ['GET', 'research-assistant-pr-'],
    ]);
    expect(gh.stateQueries()).toHaveLength(1);
    // The manifest's one comment looked for once a pull request with orphans; none is created.
    expect(gh.calls(/\/issues\//).map((call) => [call.method, call.path])).toEqual([
      ['GET', `/repos/${REPO}/issues/4/comments`],
      ['GET', `/repos/${REPO}/issues/3/comments`],
    ]);

    const writes = gh.writes().length;
    const again = await sweep();
    expect(again.exitCode, printed(again)).toBe(0);
    expect(again.outputs).toMatchObject({ 'orphan-count': '3', retired: '0' });
    expect(gh.writes()).toHaveLength(writes);
  });

  it('is an input error, before any request, for {agent} without agents or agents without {agent}', async () => {
    emu.seedDeployment({ name: 'support-pr-3' });
    const lone = await sweep({ agents: '' });
    expect(lone.exitCode).not.toBe(0);
    expect(lone.stdout).toMatch(/^::error::.*name-pattern.*holds \{agent\}.*give agents/m);

    const plain = await sweep({ 'name-pattern': 'my-agent-pr-{number}' });
    expect(plain.exitCode).not.toBe(0);
    expect(plain.stdout).toMatch(
      /^::error::.*name-pattern.*does not hold \{agent\}, and agents is given/m,
    );

    const twice = await sweep({ 'name-pattern': '{agent}-{agent}-pr-{number}' });
    expect(twice.exitCode).not.toBe(0);
    expect(twice.stdout).toContain('may hold {agent} at most once');

    expect(emu.requests).toEqual([]);
    expect(gh.requests).toEqual([]);
    for (const run of [lone, plain, twice]) expect(run.outputs.orphans).toBeUndefined();
  });
});
