/**
 * End-to-end, `paths` on a pull request (ACTION-CONTRACT.md "Previews only where a pull request
 * changes something"): the bundle under Node 24 against the service's emulator and GitHub's,
 * over two pushes of one pull request. An agent whose patterns match none of the pull
 * request's files gets no request, no GitHub record, a skipped entry and its own row; a preview
 * an earlier push made keeps its row once the agent is unchanged again; when the files cannot
 * be known, every agent is deployed with one notice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator } from '../emulator/emulator.ts';
import { type GitHubEmulator } from '../emulator/github.ts';
import { AGENT_REPO_URL, codehostStep } from '../support/fixtures.ts';
import { PR_HEAD, gitHubStep, pullRequestEvent, pushEvent } from '../support/github-step.ts';
import { whatAReaderSees } from '../support/github-render.ts';
import { WORKFLOW_REPOSITORY } from '../support/action.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { startPullRequestWorld } from '../support/pull-request-world.ts';
import { printed, runAction, type ActionRun } from '../support/run-action.ts';
import { QUICK } from '../support/quick.ts';

const API_KEY = 'sk-service-key-paths-0123456789ab';
const MANIFEST = [
  'agents:',
  '  support:',
  '    agent-config-path: apps/support/langgraph.json',
  '    paths: [apps/support/**, libs/shared/**]',
  '  research:',
  '    agent-config-path: apps/research/langgraph.json',
  "    paths: [apps/research/**, libs/shared/**, '!**/*.md']",
  '',
].join('\n');

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  ({ emu, gh } = await startPullRequestWorld(API_KEY, { readyAfterPolls: 1 }));
  emu.setHead(AGENT_REPO_URL, 'feature', PR_HEAD);
  emu.setHead(AGENT_REPO_URL, 'main', PR_HEAD);
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

function deploy(event = pullRequestEvent(), token?: string): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    codehostStep(emu, {
      'api-key': API_KEY,
      name: '{agent}-pr-7',
      agents: 'deploy/agents.yaml',
      'repo-ref': 'feature',
      'wait-for-ready': 'true',
    }),
    {
      environment: 'preview-pr-7-{agent}',
      'pr-comment': 'true',
      ...(token === undefined ? {} : { 'github-token': token }),
    },
    { event, env: QUICK, files: { 'deploy/agents.yaml': MANIFEST } },
  );
  return runAction(given, options);
}

const deployments = (run: ActionRun) =>
  JSON.parse(run.outputs.deployments ?? '{}') as Record<string, unknown>;
const comment = () => gh.comments.find((c) => c.user.login === 'github-actions[bot]')?.body ?? '';
const rowsOf = (markdown: string) => whatAReaderSees(markdown).tables[0] ?? [];
const rowOf = (markdown: string, key: string) => rowsOf(markdown).find((row) => row[0] === key);

describe('paths on a pull request', () => {
  it('deploys only the agents the pull request changes, push after push', async () => {
    gh.setPullRequestFiles(WORKFLOW_REPOSITORY, 7, ['apps/support/graph.py', 'README.md']);

    const first = await deploy();

    expect(first.exitCode, printed(first)).toBe(0);
    expect(emu.deployments.map((d) => d.name)).toEqual(['support-pr-7']);
    expect(deployments(first)).toMatchObject({
      support: { name: 'support-pr-7', live: true },
      research: { name: 'research-pr-7', skipped: 'unchanged' },
    });
    expect(deployments(first).research).toEqual({
      name: 'research-pr-7',
      skipped: 'unchanged',
    });
    expect(first.outputs.live).toBe('true');
    expect(gh.deployments.map((d) => d.environment)).toEqual(['preview-pr-7-support']);
    expect(first.stdout).toContain(
      'paths: support is changed: apps/support/graph.py matches apps/support/**',
    );
    expect(first.stdout).toContain(
      'paths: unchanged, not deployed: research (none of their patterns matched a changed file)',
    );
    expect(rowOf(first.summary, 'research')?.[3]).toBe(
      'unchanged by this pull request: no preview',
    );
    expect(rowOf(comment(), 'research')?.[3]).toBe('⚪ unchanged by this pull request: no preview');
    expect(rowOf(comment(), 'support')?.[3]).toBe('🟢 live');

    // The second push reverts support's change and changes research's.
    gh.setPullRequestFiles(WORKFLOW_REPOSITORY, 7, ['apps/research/tools.py']);
    const second = await deploy();

    expect(second.exitCode, printed(second)).toBe(0);
    expect(emu.deployments.map((d) => d.name).sort()).toEqual(['research-pr-7', 'support-pr-7']);
    expect(deployments(second).support).toEqual({
      name: 'support-pr-7',
      skipped: 'unchanged',
    });
    const kept = rowOf(comment(), 'support');
    expect(kept?.[3]).toBe('⚪ unchanged: not deployed by this run');
    expect(kept?.[6]).toMatch(/^runs until deleted/);
    expect(rowOf(comment(), 'research')?.[3]).toBe('🟢 live');
    expect(gh.comments.filter((c) => c.user.login === 'github-actions[bot]')).toHaveLength(1);
    expectNoSecret([API_KEY], second, gh);
  });

  it('with every agent unchanged, asks the service nothing', async () => {
    gh.setPullRequestFiles(WORKFLOW_REPOSITORY, 7, ['docs/index.md', 'apps/research/NOTES.md']);

    const r = await deploy();

    expect(r.exitCode, printed(r)).toBe(0);
    expect(emu.requests).toEqual([]);
    expect(r.outputs.live).toBe('');
    expect(gh.deployments).toEqual([]);
  });

  it('deploys every agent, with one notice, when GitHub does not list the files', async () => {
    gh.setPullRequestFiles(WORKFLOW_REPOSITORY, 7, ['docs/index.md']);
    gh.inject({ path: '/repos/acme/agent/pulls/7/files', status: 403, times: Infinity });

    const r = await deploy();

    expect(r.exitCode, printed(r)).toBe(0);
    expect(emu.deployments.map((d) => d.name).sort()).toEqual(['research-pr-7', 'support-pr-7']);
    const notices = r.stdout.split('\n').filter((line) => line.startsWith('::notice::paths:'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('pull-requests: read');
  });

  it('does not read paths on a push', async () => {
    gh.setPullRequestFiles(WORKFLOW_REPOSITORY, 7, ['docs/index.md']);

    const r = await deploy(pushEvent(PR_HEAD, 'feature'));

    expect(r.exitCode, printed(r)).toBe(0);
    expect(emu.deployments).toHaveLength(2);
    expect(gh.requests.some((request) => request.path.includes('/files'))).toBe(false);
  });
});
