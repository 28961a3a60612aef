/**
 * End-to-end, the retire step with a manifest of agents (`agents`) through
 * dist/retire.js against both emulators, after the deploy step
 * (dist/index.js) deployed the same manifest on the pull request: every
 * agent's preview looked up read-only, `deployments` keyed by agent,
 * `retired` the total, each environment's records marked inactive once, and
 * the manifest's one comment rewritten once; a `name` without `{agent}` is
 * an input error before any request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator } from '../emulator/emulator.ts';
import { type GitHubEmulator } from '../emulator/github.ts';
import { INTEGRATION } from '../support/fixtures.ts';
import { gitHubStep, pullRequestEvent, type GitHubInputs } from '../support/github-step.ts';
import { whatAReaderSees } from '../support/github-render.ts';
import { TENANT_ID } from '../support/ids.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { startPullRequestWorld } from '../support/pull-request-world.ts';
import { printed, runAction, type ActionRun } from '../support/run-action.ts';
import { MANIFEST_PATH, TWO_AGENTS } from '../support/manifests.ts';

const API_KEY = 'sk-retire-agents-0123456789ab';
const DASHBOARD = 'https://console.example/o/{tenant_id}/deployments/{id}';
const TEMPLATE = '{agent}-pr-7';

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  ({ emu, gh } = await startPullRequestWorld(API_KEY));
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

const files = { [MANIFEST_PATH]: TWO_AGENTS };

/** The deploy step with the manifest, on pull request 7. */
function deploy(github: GitHubInputs): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    {
      'api-url': emu.url,
      'api-key': API_KEY,
      'integration-id': INTEGRATION,
      name: TEMPLATE,
      agents: MANIFEST_PATH,
    },
    { 'pr-comment': 'true', ...github },
    { event: pullRequestEvent(), files },
  );
  return runAction(given, options);
}

/** The retire step with the manifest, once pull request 7 is merged. */
function retire(github: GitHubInputs, inputs: Record<string, string> = {}): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    {
      'api-url': emu.url,
      'api-key': API_KEY,
      name: TEMPLATE,
      agents: MANIFEST_PATH,
      'dashboard-url': DASHBOARD,
      ...inputs,
    },
    github,
    { event: pullRequestEvent(undefined, undefined, 'merged'), files, action: 'retire/action.yml' },
  );
  return runAction(given, options);
}

const commentWrites = () =>
  gh.requests.filter(
    (request) =>
      (request.method === 'POST' || request.method === 'PATCH') && /\/comments/.test(request.path),
  );
const states = () => gh.deployments.map((record) => [record.environment, gh.stateOf(record.id)]);

type Deployments = Record<string, Record<string, unknown>>;

describe('retire with a manifest of agents', () => {
  it("retires every agent's preview: each environment inactive, the one comment rewritten once", async () => {
    const deployed = await deploy({ environment: 'preview-pr-7-{agent}' });
    expect(deployed.exitCode, printed(deployed)).toBe(0);
    expect(gh.comments).toHaveLength(1);
    const comment = gh.comments[0];
    const marker = comment?.body.split('\n')[0] ?? '';
    expect(marker).toMatch(/^<!-- deploy-agent-agents:.* -->$/);
    const before = gh.requests.length;
    const writesBefore = commentWrites().length;
    emu.requests.length = 0;

    const run = await retire({ environment: 'preview-pr-7-{agent}' });

    expect(run.exitCode, printed(run)).toBe(0);
    const support = emu.deployments.find((d) => d.name === 'support-pr-7');
    const research = emu.deployments.find((d) => d.name === 'research-assistant-pr-7');
    const link = (id: string | undefined) =>
      `https://console.example/o/${TENANT_ID}/deployments/${id ?? ''}`;
    expect(run.outputs).toMatchObject({
      'deployment-id': '',
      status: '',
      'dashboard-url': '',
      retired: '2',
    });
    expect(JSON.parse(run.outputs.deployments ?? '{}') as Deployments).toEqual({
      support: {
        name: 'support-pr-7',
        'deployment-id': support?.id,
        status: support?.status,
        'dashboard-url': link(support?.id),
        retired: 1,
      },
      research: {
        name: 'research-assistant-pr-7',
        'deployment-id': research?.id,
        status: research?.status,
        'dashboard-url': link(research?.id),
        retired: 1,
      },
    });
    // Read-only in the service; each agent's environment marked inactive.
    expect(emu.requests.every((request) => request.method === 'GET')).toBe(true);
    expect(states()).toEqual([
      ['preview-pr-7-support', 'inactive'],
      ['preview-pr-7-research-assistant', 'inactive'],
    ]);
    // The deploy's one comment, rewritten once in place, its marker kept.
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]?.id).toBe(comment?.id);
    expect(commentWrites().length - writesBefore).toBe(1);
    const body = gh.comments[0]?.body ?? '';
    expect(body.startsWith(marker)).toBe(true);
    const seen = whatAReaderSees(body);
    expect(seen.text).toContain('This pull request was merged, so its previews are retired');
    expect(seen.tables[0]?.slice(1)).toEqual([
      ['support', 'support-pr-7', support?.id, support?.status, 'Dashboard'],
      ['research', 'research-assistant-pr-7', research?.id, research?.status, 'Dashboard'],
    ]);
    expect(body).toContain(`[Dashboard](${link(support?.id)})`);
    expect(gh.requests.length).toBeGreaterThan(before);
    expect(run.summary).toContain('support-pr-7');
    expectNoSecret([API_KEY], run, gh);

    // A second retire writes nothing more: the comment already says so, the records are inactive.
    const writes = commentWrites().length;
    const again = await retire({ environment: 'preview-pr-7-{agent}' });
    expect(again.exitCode, printed(again)).toBe(0);
    expect(commentWrites().length).toBe(writes);
    expect(again.outputs.retired).toBe('0');
  });

  it('with one environment for the manifest, marks its record once and counts it once', async () => {
    const deployed = await deploy({ environment: 'preview-pr-7' });
    expect(deployed.exitCode, printed(deployed)).toBe(0);
    expect(gh.deployments).toHaveLength(1);

    const run = await retire({ environment: 'preview-pr-7' });

    expect(run.exitCode, printed(run)).toBe(0);
    expect(states()).toEqual([['preview-pr-7', 'inactive']]);
    const statuses = gh.deployments[0]?.statuses ?? [];
    expect(statuses.filter((status) => status.state === 'inactive')).toHaveLength(1);
    expect(run.outputs.retired).toBe('1');
    const deployments = JSON.parse(run.outputs.deployments ?? '{}') as Deployments;
    expect(deployments.support?.retired).toBe(1);
    expect(deployments.research?.retired).toBe(1);
  });

  it('a name without {agent} is an input error, before any request', async () => {
    const run = await retire({ environment: 'preview-pr-7' }, { name: 'my-agent-pr-7' });

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/name.*does not hold \{agent\}/);
    expect(emu.requests).toHaveLength(0);
    expect(gh.requests).toHaveLength(0);
  });
});
