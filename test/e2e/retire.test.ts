/**
 * End-to-end, the retire step (retire/action.yml) through dist/retire.js
 * against both emulators: the preview's deployment looked up read-only, every GitHub deployment
 * of its environment marked inactive over every page, its comment rewritten in place (never
 * created), outputs, summary and one log line with where to delete it; never a claim that
 * anything was deleted or stopped.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import {
  GITHUB_TOKEN,
  RUN_URL,
  gitHubStep,
  pullRequestEvent,
  type GitHubInputs,
} from '../support/github-step.ts';
import { TENANT_ID } from '../support/ids.ts';
import { printed, runAction, type ActionRun, type RunOptions } from '../support/run-action.ts';

let emu: Emulator;
let gh: GitHubEmulator;

const NAME = 'my-agent-pr-7';
const ENVIRONMENT = 'preview-pr-7';
const DASHBOARD = 'https://console.example/o/{tenant_id}/deployments/{id}';
const BOT = { login: 'github-actions[bot]', type: 'Bot' as const };
const PREVIEW_MARKER = '<!-- deploy-agent:my%2Dagent%2Dpr%2D7 -->';

beforeEach(async () => {
  [emu, gh] = await Promise.all([startEmulator({ tenantId: TENANT_ID }), startGitHubEmulator()]);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

function preview() {
  return emu.seedDeployment({ name: NAME, status: 'DEPLOYED' });
}

function previewComment() {
  return gh.seedComment('acme/agent', 7, `${PREVIEW_MARKER}\n### 🟢 \`${NAME}\` is live\n`, BOT);
}

function retire(
  github: GitHubInputs = {},
  options: RunOptions = {},
  inputs: Record<string, string> = {},
): Promise<ActionRun> {
  const [given, runOptions] = gitHubStep(
    gh,
    { 'api-url': emu.url, name: NAME, 'dashboard-url': DASHBOARD, ...inputs },
    { environment: ENVIRONMENT, ...github },
    {
      event: pullRequestEvent(undefined, undefined, 'merged'),
      ...options,
      action: 'retire/action.yml',
    },
  );
  return runAction(given, runOptions);
}

const commentWrites = () =>
  gh.requests.filter(
    (request) =>
      (request.method === 'POST' || request.method === 'PATCH') && /\/comments/.test(request.path),
  );
const serviceMethods = () => [...new Set(emu.requests.map((request) => request.method))];

/** Words that would claim the deployment is gone or stopped. */
const CLAIM =
  /\b(?:was|were|been|is|are|got|now)\s+(?:deleted|removed|stopped|destroyed|torn down|shut down)\b|\bdeleted (?:it|the deployment)\b/i;

describe('retire on a closed pull request', () => {
  it('marks every deployment of the environment inactive and rewrites the preview comment, saying where to delete it', async () => {
    const deployment = preview();
    const records = gh.seedDeployments('acme/agent', ENVIRONMENT, 3);
    const [production] = gh.seedDeployments('acme/agent', 'production', 1);
    const comment = previewComment();

    const run = await retire();

    expect(run.exitCode).toBe(0);
    const dashboard = `https://console.example/o/${TENANT_ID}/deployments/${deployment.id}`;
    expect(run.outputs).toEqual({
      'deployment-id': deployment.id,
      status: 'DEPLOYED',
      'dashboard-url': dashboard,
      retired: '3',
    });
    expect(records.map((record) => gh.stateOf(record.id))).toEqual([
      'inactive',
      'inactive',
      'inactive',
    ]);
    expect(gh.stateOf(production?.id ?? 0)).toBe('success');
    const status = records[0]?.statuses.at(-1);
    expect(status?.description).toBe(
      `${NAME}: preview retired; its deployment still exists in the service`,
    );
    expect(status?.log_url).toBe(RUN_URL);

    // Rewritten in place, one write, the same marker: a reopened pull request's deploy finds it.
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]?.id).toBe(comment.id);
    expect(commentWrites()).toHaveLength(1);
    const body = gh.comments[0]?.body ?? '';
    expect(body.startsWith(PREVIEW_MARKER)).toBe(true);
    expect(body).toContain('This pull request was merged, so its preview is retired');
    expect(body).not.toContain('🟢');
    expect(body).toContain('still exists in the service');
    expect(body).toContain(deployment.id);
    expect(body).toContain(`[in the dashboard](${dashboard})`);

    // The service was only read.
    expect(serviceMethods()).toEqual(['GET']);

    const log = printed(run);
    expect(log).toContain(
      `retire: '${NAME}' is deployment ${deployment.id} (DEPLOYED): it still exists in the service and keeps running until someone deletes it there: ${dashboard}`,
    );
    expect(run.summary).toContain('Preview retired');
    expect(run.summary).toContain(`<a href="${dashboard}">`);
    expect(run.summary).toContain('3 of 3 marked inactive');

    for (const text of [log, run.summary, body, JSON.stringify(run.outputs), status?.description]) {
      expect(text).not.toMatch(CLAIM);
    }
  });

  it("writes no comment when the pull request has none of its own, and leaves someone else's alone", async () => {
    preview();
    gh.seedDeployments('acme/agent', ENVIRONMENT, 1);
    // Someone else's comment with the marker is not the action's to edit.
    gh.seedComment('acme/agent', 7, `${PREVIEW_MARKER}\nnot mine`, { login: 'someone' });

    const run = await retire({}, { event: pullRequestEvent(undefined, undefined, 'closed') });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.retired).toBe('1');
    expect(commentWrites()).toHaveLength(0);
    expect(gh.comments[0]?.body).toContain('not mine');
    expect(run.summary).toContain('none to rewrite');
  });

  it('says the pull request was closed, and the id to delete by, without a dashboard-url', async () => {
    const deployment = preview();
    previewComment();

    const run = await retire(
      { environment: '' },
      { event: pullRequestEvent(undefined, undefined, 'closed') },
      { 'dashboard-url': '' },
    );

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toEqual({
      'deployment-id': deployment.id,
      status: 'DEPLOYED',
      'dashboard-url': '',
      retired: '0',
    });
    const body = gh.comments[0]?.body ?? '';
    expect(body).toContain('This pull request was closed, so its preview is retired');
    expect(body).toContain(`in the service, by its id \`${deployment.id}\``);
    expect(printed(run)).toContain(
      `until someone deletes deployment ${deployment.id} there (this step cannot: the service's interface has no delete)`,
    );
    // No environment: no deployment listed or marked.
    expect(gh.calls(/deployments/)).toHaveLength(0);
  });

  it('marks every page of deployments, newest first', async () => {
    preview();
    const records = gh.seedDeployments('acme/agent', ENVIRONMENT, 150);

    const run = await retire();

    expect(run.exitCode).toBe(0);
    expect(run.outputs.retired).toBe('150');
    expect(records.every((record) => gh.stateOf(record.id) === 'inactive')).toBe(true);
    const listed = gh.calls('GET /repos/acme/agent/deployments');
    expect(listed.map((request) => request.query)).toEqual([
      { environment: ENVIRONMENT, per_page: '100', page: '1' },
      { environment: ENVIRONMENT, per_page: '100', page: '2' },
    ]);
    // Newest first: the first status went to the newest record.
    const first = gh.calls(/^POST \/repos\/acme\/agent\/deployments\/\d+\/statuses$/)[0];
    expect(first?.path).toContain(String(records.at(-1)?.id));
  });

  it('marks a deployment once when a concurrent deploy shifts the next page by one', async () => {
    preview();
    const records = gh.seedDeployments('acme/agent', ENVIRONMENT, 150);
    gh.inject({
      method: 'GET',
      path: '/repos/acme/agent/deployments',
      shift: 1,
      times: Infinity,
    });

    const run = await retire();

    expect(run.exitCode).toBe(0);
    // Page 2 starts with page 1's last deployment: it is not marked, nor counted, twice.
    expect(gh.calls('GET /repos/acme/agent/deployments')[1]?.status).toBe(200);
    const marked = gh.calls(/^POST \/repos\/acme\/agent\/deployments\/\d+\/statuses$/);
    expect(marked).toHaveLength(150);
    expect(new Set(marked.map((request) => request.path)).size).toBe(150);
    expect(run.outputs.retired).toBe('150');
    expect(records.every((record) => gh.stateOf(record.id) === 'inactive')).toBe(true);
  });

  it('ends the walk at a page that adds nothing new, with no false warning of more', async () => {
    preview();
    const records = gh.seedDeployments('acme/agent', ENVIRONMENT, 130);
    // A paginator that repeats its last page and always says `next`.
    gh.inject({
      method: 'GET',
      path: '/repos/acme/agent/deployments',
      repeatLast: true,
      times: Infinity,
    });

    const run = await retire();

    expect(run.exitCode).toBe(0);
    const marked = gh.calls(/^POST \/repos\/acme\/agent\/deployments\/\d+\/statuses$/);
    expect(marked).toHaveLength(130);
    expect(new Set(marked.map((request) => request.path)).size).toBe(130);
    expect(run.outputs.retired).toBe('130');
    expect(records.every((record) => gh.stateOf(record.id) === 'inactive')).toBe(true);
    // Page 3 repeats page 2: the walk ends there.
    expect(gh.calls('GET /repos/acme/agent/deployments')).toHaveLength(3);
    expect(run.stdout).not.toContain('::warning');
    expect(run.summary).not.toMatch(/more than/);
  });

  it('is green with empty outputs when no deployment has the name, and says nothing is left to delete', async () => {
    emu.seedDeployment({ name: `${NAME}-other` });
    gh.seedDeployments('acme/agent', ENVIRONMENT, 2);
    previewComment();

    const run = await retire();

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toEqual({
      'deployment-id': '',
      status: '',
      'dashboard-url': '',
      retired: '2',
    });
    expect(printed(run)).toContain(
      `::notice::retire: no deployment is named '${NAME}' in the service; nothing is left to delete there`,
    );
    expect(gh.comments[0]?.body).toContain('nothing is left to delete there');
  });

  it('warns, naming the permission, and stays green when GitHub refuses', async () => {
    preview();
    const records = gh.seedDeployments('acme/agent', ENVIRONMENT, 3);
    gh.addToken(GITHUB_TOKEN, {
      ...GITHUB_ACTIONS_BOT,
      permissions: { deployments: 'read', 'pull-requests': 'write' },
    });

    const run = await retire();

    expect(run.exitCode).toBe(0);
    expect(run.outputs.retired).toBe('0');
    expect(records.every((record) => gh.stateOf(record.id) === 'success')).toBe(true);
    // The first refusal ends the marking: one refused call, not one a record.
    expect(gh.calls(/^POST .*statuses$/)).toHaveLength(1);
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning'));
    expect(warnings.join('\n')).toContain('deployments: write');
    expect(warnings.join('\n')).toContain(
      `3 of the 3 deployments of environment '${ENVIRONMENT}' were not marked inactive`,
    );
  });

  it('fails before any request on a bad input, with no output', async () => {
    const run = await retire({}, {}, { 'dashboard-url': 'ftp://console.example/{id}', name: '' });

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/input 'name'/);
    expect(run.error).toMatch(/input 'dashboard-url'/);
    expect(run.outputs).toEqual({});
    expect(emu.requests).toHaveLength(0);
    expect(gh.requests).toHaveLength(0);
  });

  it('fails when the service fails, naming the call and status, and changes nothing on GitHub', async () => {
    gh.seedDeployments('acme/agent', ENVIRONMENT, 1);
    previewComment();
    emu.inject({ status: 500, times: Infinity });

    const run = await retire({}, { env: { DEPLOY_AGENT_RETRY_DELAY_MS: '10' } });

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/GET .* 500/);
    expect(printed(run)).toContain('Nothing on GitHub was changed');
    expect(gh.requests).toHaveLength(0);
  });
});
