/**
 * End-to-end, the sweep step with a manifest of agents (`agents`) and
 * `pr-comment` on, through dist/sweep.js, after the deploy step
 * (dist/index.js) deployed the same manifest on pull request 7 and wrote its
 * one comment: once the pull request is merged, the sweep leaves it as the
 * retire step would, the manifest's one comment (found by the deploy's name
 * template, name-pattern with the number) rewritten once in place, a row an
 * agent saying its preview is retired. No comment is created where there is
 * none; a second sweep and a dry run write nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator } from '../emulator/emulator.ts';
import { type GitHubEmulator } from '../emulator/github.ts';
import { INTEGRATION } from '../support/fixtures.ts';
import { whatAReaderSees } from '../support/github-render.ts';
import { gitHubStep, pullRequestEvent } from '../support/github-step.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { startPullRequestWorld } from '../support/pull-request-world.ts';
import { printed, runAction, type ActionRun } from '../support/run-action.ts';
import { MANIFEST_PATH, TWO_AGENTS } from '../support/manifests.ts';

const REPO = 'acme/agent';
const API_KEY = 'sk-sweep-agents-0123456789ab';
const DASHBOARD = 'https://console.example/o/{tenant_id}/deployments/{id}';
const files = { [MANIFEST_PATH]: TWO_AGENTS };

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  ({ emu, gh } = await startPullRequestWorld(API_KEY));
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

/** The deploy step with the manifest on pull request 7: its one comment. */
function deploy(): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    {
      'api-url': emu.url,
      'api-key': API_KEY,
      'integration-id': INTEGRATION,
      name: '{agent}-pr-7',
      agents: MANIFEST_PATH,
    },
    { 'pr-comment': 'true', environment: 'preview-pr-7-{agent}' },
    { event: pullRequestEvent(), files },
  );
  return runAction(given, options);
}

/** The sweep with the manifest, on a schedule. */
function sweep(inputs: Record<string, string> = {}): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    {
      'api-url': emu.url,
      'api-key': API_KEY,
      agents: MANIFEST_PATH,
      'name-pattern': '{agent}-pr-{number}',
      'environment-pattern': 'preview-pr-{number}-{agent}',
      'dashboard-url': DASHBOARD,
      ...inputs,
    },
    {},
    {
      event: { name: 'schedule', ref: 'refs/heads/main', sha: 'a'.repeat(40), payload: {} },
      action: 'sweep/action.yml',
      files,
    },
  );
  return runAction(given, options);
}

const commentWrites = () =>
  gh.requests.filter(
    (request) =>
      (request.method === 'POST' || request.method === 'PATCH') && /\/comments/.test(request.path),
  );

describe("the sweep with a manifest rewrites a closed pull request's one comment", () => {
  it('once, in place, every orphaned agent in it; a second sweep and a dry run write nothing', async () => {
    const deployed = await deploy();
    expect(deployed.exitCode, printed(deployed)).toBe(0);
    expect(gh.comments).toHaveLength(1);
    const comment = gh.comments[0];
    const marker = comment?.body.split('\n')[0] ?? '';
    expect(marker).toMatch(/^<!-- deploy-agent-agents:.* -->$/);
    gh.seedPullRequest(REPO, 7, 'merged', '2026-11-02T10:00:00Z');
    // Pull request 8's orphan has no comment: none is created.
    gh.seedPullRequest(REPO, 8, 'closed', '2026-11-01T10:00:00Z');
    emu.seedDeployment({ name: 'support-pr-8' });

    const writes = gh.writes().length;
    const dry = await sweep({ 'dry-run': 'true' });
    expect(dry.exitCode, printed(dry)).toBe(0);
    expect(dry.outputs['orphan-count']).toBe('3');
    expect(gh.writes()).toHaveLength(writes);
    expect(gh.comments[0]?.body).toBe(comment?.body);

    const written = commentWrites().length;
    const run = await sweep();

    expect(run.exitCode, printed(run)).toBe(0);
    expect(run.outputs).toMatchObject({ 'orphan-count': '3', retired: '2' });
    // The deploy's one comment, rewritten once in place, its marker kept; none made for #8.
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]?.id).toBe(comment?.id);
    expect(commentWrites().length - written).toBe(1);
    expect(gh.calls(/^(POST|PATCH) .*\/issues\/8\//)).toEqual([]);
    const body = gh.comments[0]?.body ?? '';
    expect(body.startsWith(`${marker}\n`)).toBe(true);
    const support = emu.deployments.find((d) => d.name === 'support-pr-7');
    const research = emu.deployments.find((d) => d.name === 'research-assistant-pr-7');
    const seen = whatAReaderSees(body);
    expect(seen.text).toContain('This pull request was merged, so its previews are retired');
    expect(seen.tables[0]?.slice(1)).toEqual([
      ['support', 'support-pr-7', support?.id, support?.status, 'Dashboard'],
      ['research', 'research-assistant-pr-7', research?.id, research?.status, 'Dashboard'],
    ]);
    expect(run.summary).toContain('support-pr-8');
    expectNoSecret([API_KEY], run, gh);

    expect(run.summary).toContain('1 comment rewritten');
    const after = gh.writes().length;
    const again = await sweep();
    expect(again.exitCode, printed(again)).toBe(0);
    expect(again.outputs).toMatchObject({ 'orphan-count': '3', retired: '0' });
    expect(gh.writes()).toHaveLength(after);
    expect(again.summary).toContain('2 already retired by an earlier run');
    expect(gh.comments[0]?.body).toBe(body);
  });

  it('with pr-comment off, looks for no comment and leaves it as it is', async () => {
    const deployed = await deploy();
    expect(deployed.exitCode, printed(deployed)).toBe(0);
    const body = gh.comments[0]?.body;
    gh.seedPullRequest(REPO, 7, 'closed', '2026-11-02T10:00:00Z');
    const before = gh.calls(/\/issues\//).length;

    const run = await sweep({ 'pr-comment': 'false' });

    expect(run.exitCode, printed(run)).toBe(0);
    expect(run.outputs).toMatchObject({ 'orphan-count': '2', retired: '2' });
    expect(gh.calls(/\/issues\//)).toHaveLength(before);
    expect(gh.comments[0]?.body).toBe(body);
  });
});
