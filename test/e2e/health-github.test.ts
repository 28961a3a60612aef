/**
 * End-to-end, what the health check answered where the action tells people (ACTION-CONTRACT.md
 * behaviour 31): the bundle under Node 24, against the service's emulator serving each
 * deployment's own address and GitHub's emulator. The job summary, the pull request comment
 * (read back as GitHub renders it) and the GitHub deployment status each say the address checked
 * and what it answered: `success` only once the deployment answers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator } from '../emulator/emulator.ts';
import { type GitHubEmulator } from '../emulator/github.ts';
import { AGENT_REPO_URL, INTEGRATION, codehostStep } from '../support/fixtures.ts';
import { PR_HEAD, gitHubStep, pullRequestEvent } from '../support/github-step.ts';
import { whatAReaderSees } from '../support/github-render.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { startPullRequestWorld } from '../support/pull-request-world.ts';
import { printed, runAction, type ActionRun, KILL_AFTER_MS } from '../support/run-action.ts';
import { QUICK } from '../support/quick.ts';

const API_KEY = 'sk-service-key-health-0123456789';
const preview = { environment: 'preview-pr-7', 'pr-comment': 'true' };

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  ({ emu, gh } = await startPullRequestWorld(API_KEY, { addresses: true }));
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

/** The preview, live on the pull request's head, served at its own address; that address. */
function livePreview(name = 'my-agent'): string {
  emu.seedDeployment({
    name,
    source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
    source_revision_config: {
      repo_ref: 'feature',
      agent_config_path: 'agent.json',
      repo_commit_sha: PR_HEAD,
    },
  });
  return `${emu.addressOf(name)}/ok`;
}

function deploy(
  inputs: Record<string, string>,
  files: Record<string, string> = {},
): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    codehostStep(emu, {
      'api-key': API_KEY,
      'agent-config-path': 'agent.json',
      'wait-for-ready': 'true',
      'health-check': '/ok',
      ...inputs,
    }),
    preview,
    { event: pullRequestEvent(), env: QUICK, files, killAfterMs: KILL_AFTER_MS },
  );
  return runAction(given, options);
}

/** A labelled table's value for `label`, as a reader of `markdown` sees it. */
function rowOf(markdown: string, label: string): string | undefined {
  return whatAReaderSees(markdown)
    .tables.flat()
    .find((cells) => cells[0] === label)?.[1];
}

const comment = () => gh.comments.find((c) => c.user.login === 'github-actions[bot]')?.body ?? '';
const statuses = () => gh.deployments[0]?.statuses ?? [];

describe('what the health check answered, on GitHub', () => {
  it('an address that answers after a slow start: live, and every place says it answers 200', async () => {
    const address = livePreview();
    const key = 'agent-key-0123456789abcdef';
    emu.serveAddress('my-agent', {
      slowStartRequests: 3,
      requireHeader: { name: 'X-Api-Key', value: key },
    });

    const r = await deploy({ 'wait-timeout': '60', 'health-check-headers': `X-Api-Key: ${key}` });

    expect(r.exitCode, printed(r)).toBe(0);
    expect(r.outputs).toMatchObject({ live: 'true', healthy: 'true', 'health-status': '200' });
    expect(emu.addressRequests.map((request) => request.status)).toEqual([503, 503, 503, 200]);
    expect(rowOf(r.summary, 'Health check')).toBe(`✅ ${address}: answers 200`);
    expect(rowOf(comment(), 'Health check')).toBe(`✅ ${address}: answers 200`);
    expect(whatAReaderSees(comment()).text).toContain('my-agent is live');
    expect(statuses().map((status) => status.state)).toEqual(['in_progress', 'success']);
    expect(statuses()[1]?.description).toBe(
      `my-agent is live at commit ${PR_HEAD.slice(0, 12)}; its health check answers 200`,
    );
    expectNoSecret([key, API_KEY], r, gh);
  });

  it('without a wait: one check, a warning, and the status says it does not answer yet', async () => {
    livePreview();
    emu.scriptAddress('my-agent', [{ status: 503, times: Infinity }]);

    const r = await deploy({ 'wait-for-ready': 'false' });

    expect(r.exitCode, printed(r)).toBe(0);
    expect(r.outputs).toMatchObject({ healthy: 'false', 'health-status': '503' });
    expect(r.stdout).toMatch(/^::warning.*503 Service Unavailable/m);
    expect(rowOf(comment(), 'Health check')).toMatch(/^❌ .*: 503 Service Unavailable/);
    expect(statuses().map((status) => status.state)).toEqual(['in_progress', 'in_progress']);
    expect(statuses()[1]?.description).toBe(
      'my-agent does not answer its health check: 503 Service Unavailable; the step did not wait',
    );
    expectNoSecret([API_KEY], r, gh);
  });

  it('an address that keeps answering 503: the wait ends, and every place says what it answered', async () => {
    const address = livePreview();
    const body = 'agent <b>down</b>: see [x](https://evil.example) @octocat';
    emu.scriptAddress('my-agent', [{ status: 503, times: Infinity, body }]);

    const r = await deploy({ 'wait-timeout': '5' });

    expect(r.exitCode, printed(r)).toBe(1);
    expect(r.outputs).toMatchObject({ live: 'false', healthy: 'false', 'health-status': '503' });
    expect(r.error).toContain(`health check: 503 Service Unavailable from ${address}`);
    const summaryRow = rowOf(r.summary, 'Health check');
    // The summary's cell breaks its line before the body (a table cell reads as one line here).
    expect(summaryRow).toBe(`❌ ${address}: 503 Service Unavailable the answer begins: ${body}`);
    expect(rowOf(comment(), 'Health check')).toBe(
      `❌ ${address}: 503 Service Unavailable; the answer begins: ${body}`,
    );
    for (const shown of [whatAReaderSees(r.summary), whatAReaderSees(comment())]) {
      expect(shown.html).not.toContain('<b>down');
      expect(shown.mentions).toEqual([]);
      expect(shown.links.map((link) => link.href)).not.toContain('https://evil.example');
    }
    expect(statuses().map((status) => status.state)).toEqual(['in_progress', 'failure']);
    const description = statuses()[1]?.description ?? '';
    expect(description).toMatch(
      /^my-agent does not answer its health check: 503 Service Unavailable; the answer begins: agent/,
    );
    expect(description.length).toBeLessThanOrEqual(140);
    expectNoSecret([API_KEY], r, gh);
  });

  it('a manifest: a health column in the summary and the comment; the shared status names the agent that does not answer', async () => {
    const fast = livePreview('fast');
    const down = livePreview('down');
    emu.serveAddress('fast', { slowStartRequests: 2 });
    emu.scriptAddress('down', [{ status: 503, times: Infinity, body: 'starting' }]);
    const manifest =
      'agents:\n  fast:\n    agent-config-path: agent.json\n  down:\n    agent-config-path: agent.json\n';

    const r = await deploy(
      { name: '', agents: 'deploy/agents.yaml', 'wait-timeout': '5' },
      { 'deploy/agents.yaml': manifest },
    );

    expect(r.exitCode, printed(r)).toBe(1);
    // The step's healthy: true only when every agent with a check answers.
    expect(r.outputs).toMatchObject({ live: 'false', healthy: 'false' });
    const summary = whatAReaderSees(r.summary);
    const [head, ...rows] = summary.tables[0] ?? [];
    const column = head?.indexOf('Health') ?? -1;
    expect(column).toBeGreaterThan(0);
    expect(rows.map((row) => [row[0], row[column]])).toEqual([
      ['fast', '✅ answers 200'],
      ['❌ down', '❌ 503 Service Unavailable'],
    ]);
    expect(summary.text).toContain(
      `Health check: ❌ ${down}: 503 Service Unavailable\nthe answer begins: starting`,
    );
    const shown = whatAReaderSees(comment());
    const [commentHead, ...commentRows] = shown.tables[0] ?? [];
    const healthColumn = commentHead?.indexOf('Health check') ?? -1;
    expect(commentRows.map((row) => [row[0], row[healthColumn]])).toEqual([
      ['fast', `✅ ${fast}: answers 200`],
      ['down', `❌ ${down}: 503 Service Unavailable; the answer begins: starting`],
    ]);
    expect(statuses().map((status) => status.state)).toEqual(['in_progress', 'failure']);
    expect(statuses()[1]?.description).toBe(
      '1 of 2 agents live; down does not answer its health check: 503 Service Unavailable; the answer begins: starting',
    );
    expectNoSecret([API_KEY], r, gh);
  });
});
