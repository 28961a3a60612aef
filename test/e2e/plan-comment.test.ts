/**
 * End-to-end, the plan comment (contract v1.3, `plan`) through dist/plan.js against both
 * emulators (the service's and GitHub's API): one comment per pull request and name, with a
 * marker of its own, created once and updated in place, never a preview's comment; nothing
 * asked of GitHub off a pull request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import {
  GITHUB_TOKEN,
  RUN_URL,
  gitHubStep,
  pullRequestEvent,
  pushEvent,
} from '../support/github-step.ts';
import { TENANT_ID } from '../support/ids.ts';
import { runAction, type ActionRun, type RunOptions } from '../support/run-action.ts';

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  [emu, gh] = await Promise.all([startEmulator({ tenantId: TENANT_ID }), startGitHubEmulator()]);
  seedAgentRepository(emu);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

function existing() {
  return emu.seedDeployment({
    name: 'my-agent',
    source: 'codehost',
    source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
    source_revision_config: { repo_ref: 'main', agent_config_path: 'agent.json' },
  } as never);
}

/** The plan step of a pull request that asks for `agent-config-path`. */
function plan(
  agentConfigPath: string,
  github: Record<string, string> = {},
  options: RunOptions = {},
): Promise<ActionRun> {
  const [given, runOptions] = gitHubStep(
    gh,
    {
      'api-url': emu.url,
      name: 'my-agent',
      'integration-id': INTEGRATION,
      'agent-config-path': agentConfigPath,
    },
    github,
    { event: pullRequestEvent(), ...options, action: 'plan/action.yml' },
  );
  return runAction(given, runOptions);
}

/** Comment writes: a create (POST …/comments) or an update (PATCH …/comments/ID). */
const writes = () =>
  gh.requests.filter(
    (request) =>
      (request.method === 'POST' || request.method === 'PATCH') && /\/comments/.test(request.path),
  );

describe('the plan comment', () => {
  it('is created on the first run and updated in place on the next, one write a run', async () => {
    const deployment = existing();

    const first = await plan('agent-v2.json');

    expect(first.exitCode).toBe(0);
    expect(gh.comments).toHaveLength(1);
    const comment = gh.comments[0];
    expect(comment?.body.startsWith('<!-- deploy-agent-plan:my%2Dagent -->')).toBe(true);
    expect(comment?.body).toContain('not apply 1 difference');
    expect(comment?.body).toContain('source_revision_config.agent_config_path');
    expect(comment?.body).toContain(deployment.id);
    expect(comment?.body).toContain(RUN_URL);
    expect(writes()).toHaveLength(1);

    const second = await plan('agent.json');

    expect(second.exitCode).toBe(0);
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]?.id).toBe(comment?.id);
    // No difference any more: it says so rather than disappearing.
    expect(gh.comments[0]?.body).toContain('nothing differs');
    expect(writes()).toHaveLength(2);
  });

  it("is never a preview's comment, nor the other way round", async () => {
    existing();
    gh.seedComment('acme/agent', 7, '<!-- deploy-agent:my%2Dagent -->\npreview', {
      login: 'github-actions[bot]',
      type: 'Bot',
    });

    await plan('agent-v2.json');

    expect(gh.comments.filter((c) => c.body.startsWith('<!-- deploy-agent-plan:'))).toHaveLength(1);
    expect(gh.comments.find((c) => c.body.startsWith('<!-- deploy-agent:'))?.body).toContain(
      'preview',
    );
  });

  it('off a pull request, no request to GitHub at all', async () => {
    existing();

    const run = await plan('agent-v2.json', {}, { event: pushEvent('1'.repeat(40)) });

    expect(run.exitCode).toBe(0);
    expect(gh.requests).toEqual([]);
  });

  it('with pr-comment: false, no request to GitHub', async () => {
    existing();

    const run = await plan('agent-v2.json', { 'pr-comment': 'false' });

    expect(run.exitCode).toBe(0);
    expect(gh.requests).toEqual([]);
  });
});
