/**
 * End-to-end, the plan comment (plan/action.yml) through dist/plan.js against both
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
  PR_HEAD,
  RUN_URL,
  gitHubStep,
  pullRequestEvent,
  pushEvent,
} from '../support/github-step.ts';
import { whatAReaderSees } from '../support/github-render.ts';
import { TENANT_ID } from '../support/ids.ts';
import { expectNoSecret } from '../support/no-secret.ts';
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

/** The pull request's event with another head: a new push to the pull request. */
function withHead(sha: string): NonNullable<RunOptions['event']> {
  const event = pullRequestEvent();
  const payload = structuredClone(event.payload) as { pull_request: { head: { sha: string } } };
  payload.pull_request.head.sha = sha;
  return { ...event, payload };
}

describe('the plan comment, when the plan cannot be made', () => {
  const NEW_HEAD = 'abcdef0123456789abcdef0123456789abcdef01';
  const KEY = 'rotated-k3y-0123456789';

  it('is updated to say the plan for the new head could not be made, and why, with no verdict', async () => {
    existing();
    const first = await plan('agent.json');
    expect(first.exitCode).toBe(0);
    expect(gh.comments[0]?.body).toContain('nothing differs');
    const id = gh.comments[0]?.id;

    // The key is rotated: the service refuses it, and its message echoes the key it got.
    emu.inject({ status: 401, body: { detail: `Invalid API key ${KEY}` }, times: Infinity });
    const second = await plan('agent.json', { 'api-key': KEY }, { event: withHead(NEW_HEAD) });

    expect(second.exitCode).toBe(1);
    expect(second.error).toMatch(/GET \/v\d\/\S+ failed: 401/);
    expect(second.error).toContain('Invalid API key');
    // No verdict: `action`, `plan` and `changes` would speak for a plan that was not made.
    expect(second.outputs).toEqual({});
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]?.id).toBe(id);
    expect(writes()).toHaveLength(2);
    const body = gh.comments[0]?.body ?? '';
    expect(body.startsWith('<!-- deploy-agent-plan:my%2Dagent -->')).toBe(true);
    expectNoSecret([KEY], second, gh);
    const seen = whatAReaderSees(body);
    expect(seen.text).toContain(`the plan for ${NEW_HEAD.slice(0, 7)} could not be made`);
    expect(seen.text).toMatch(/Why: GET \/v\d\/\S+ failed: 401/);
    expect(seen.text).toContain('Invalid API key ***');
    expect(seen.text).not.toContain('nothing differs');
    expect(seen.text).not.toContain('would reuse');
    expect(seen.text).not.toContain(PR_HEAD.slice(0, 7));
    expect(seen.links.map((link) => link.href)).toEqual([RUN_URL]);
    expect(seen.mentions).toEqual([]);

    // The key is fixed: the next run plans again, in the same comment.
    emu.clearFaults();
    const third = await plan('agent.json', {}, { event: withHead(NEW_HEAD) });
    expect(third.exitCode).toBe(0);
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]?.id).toBe(id);
    const again = whatAReaderSees(gh.comments[0]?.body ?? '').text;
    expect(again).toContain('nothing differs');
    expect(again).not.toContain('could not be made');
  }, 30_000);

  it('is created, saying so, when there is none yet and pr-comment is on', async () => {
    emu.inject({ status: 503, times: Infinity });

    const run = await plan('agent.json', {}, { env: { DEPLOY_AGENT_RETRY_DELAY_MS: '10' } });

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/GET \/v\d\/\S+ failed after \d+ attempts: 503/);
    expect(gh.comments).toHaveLength(1);
    expect(writes()).toHaveLength(1);
    const seen = whatAReaderSees(gh.comments[0]?.body ?? '');
    expect(seen.text).toContain(`the plan for ${PR_HEAD.slice(0, 7)} could not be made`);
    expect(seen.text).toContain('503');
    expect(seen.text).toContain('Service Unavailable');
  }, 30_000);

  it('with pr-comment: false, fails all the same, with no request to GitHub', async () => {
    emu.inject({ status: 401, body: { detail: 'Invalid API key' }, times: Infinity });

    const run = await plan('agent.json', { 'pr-comment': 'false' });

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain('401');
    expect(gh.requests).toEqual([]);
  });
});
