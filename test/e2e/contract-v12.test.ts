/**
 * End-to-end, the core's part of forks, renamed creates and addresses through the bundle against
 * the service emulator: a fork's pull request without a key fails before any
 * request, a renamed create still sets its outputs and the `url` and `dashboard-url` outputs. The GitHub API side is in
 * test/e2e/github.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { runAction } from '../support/run-action.ts';
import {
  INTEGRATION,
  codehostStep,
  AGENT_REPO_URL,
  seedAgentRepository,
} from '../support/fixtures.ts';
import { TENANT_ID } from '../support/ids.ts';

const REPO = AGENT_REPO_URL;
const HEAD = '4444444444444444444444444444444444444444';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ tenantId: TENANT_ID });
  seedAgentRepository(emu);
});

afterEach(async () => {
  await emu.close();
});

const pullRequestFrom = (repository: string) => ({
  name: 'pull_request',
  ref: 'refs/pull/7/merge',
  sha: 'c0ffee0123456789c0ffee0123456789c0ffee01',
  payload: {
    number: 7,
    pull_request: {
      number: 7,
      head: { ref: 'feature', sha: HEAD, repo: { full_name: repository } },
    },
  },
});

describe("a fork's pull request without an api key", () => {
  it('fails before any request, saying why and showing the if: that skips forks', async () => {
    const run = await runAction(codehostStep(emu), { event: pullRequestFrom('someone/agent') });

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain(
      "input 'api-key': is empty: this run is for a pull request from the fork someone/agent, and a fork's runs get no secrets, so the step cannot authenticate.",
    );
    expect(run.error).toContain(
      'Skip them with `if: github.event.pull_request.head.repo.full_name == github.repository` on the step or the job.',
    );
    expect(emu.requests).toEqual([]);
  });

  // The README's `secrets: OPENAI_API_KEY=${{ secrets.OPENAI_API_KEY }}`, on a fork: empty too.
  it.each([
    ['the deploy step', 'action.yml', 'OPENAI_API_KEY='],
    ['the deploy step', 'action.yml', '{"OPENAI_API_KEY": ""}'],
    ['the plan step', 'plan/action.yml', 'OPENAI_API_KEY='],
  ])(
    '%s leads with the fork, not with the empty secrets it causes (%s, %s)',
    async (_step, action, secrets) => {
      const run = await runAction(codehostStep(emu, { secrets }), {
        action,
        event: pullRequestFrom('someone/agent'),
      });

      expect(run.exitCode).toBe(1);
      const [first, ...rest] = (run.error ?? '').split('\n');
      expect(first).toBe(
        "Invalid input 'api-key': is empty: this run is for a pull request from the fork someone/agent, and a fork's runs get no secrets, so the step cannot authenticate. Skip them with `if: github.event.pull_request.head.repo.full_name == github.repository` on the step or the job. The empty values in 'secrets' have the same cause.",
      );
      expect(rest).toEqual([]);
      expect(run.error).not.toContain('has an empty value');
      expect(emu.requests).toEqual([]);
    },
  );

  it('still reports the inputs that are wrong for another reason, after the fork', async () => {
    const run = await runAction(
      codehostStep(emu, { secrets: 'OPENAI_API_KEY=', 'wait-timeout': 'soon' }),
      { event: pullRequestFrom('someone/agent') },
    );

    expect(run.exitCode).toBe(1);
    const lines = (run.error ?? '').split('\n');
    expect(lines[0]).toMatch(
      /^Invalid input 'api-key': is empty: this run is for a pull request from the fork someone\/agent.*`if: github\.event\.pull_request\.head\.repo\.full_name == github\.repository`/,
    );
    expect(lines[1]).toBe('Other invalid inputs:');
    expect(lines.slice(2)).toEqual([expect.stringMatching(/^ {2}- input 'wait-timeout': /)]);
    expect(emu.requests).toEqual([]);
  });

  it("the retire step says the same when a fork's pull request closes", async () => {
    const run = await runAction(
      { 'api-url': emu.url, name: 'pr-7' },
      {
        action: 'retire/action.yml',
        event: {
          ...pullRequestFrom('someone/agent'),
          payload: { ...pullRequestFrom('someone/agent').payload, action: 'closed' },
        },
      },
    );

    expect(run.exitCode).toBe(1);
    expect(run.error?.split('\n')[0]).toContain(
      "Invalid input 'api-key': is empty: this run is for a pull request from the fork someone/agent",
    );
    expect(emu.requests).toEqual([]);
  });

  it("runs as before on the repository's own pull request", async () => {
    const run = await runAction(codehostStep(emu), { event: pullRequestFrom('acme/agent') });
    expect(run.exitCode).toBe(0);
    expect(run.outputs.created).toBe('true');
  });
});

describe('a create stored under another name', () => {
  it('fails, and still sets deployment-id, created and status', async () => {
    emu.setOptions({ normalizeNames: 'lowercase' });
    const run = await runAction(codehostStep(emu, { name: 'My-Agent' }));

    const created = emu.deployments[0];
    expect(run.exitCode).toBe(1);
    expect(run.error).toContain(`The service stored deployment ${created?.id} as 'my-agent'`);
    expect(run.outputs).toMatchObject({
      'deployment-id': created?.id,
      created: 'true',
      status: created?.status,
      live: 'false',
    });
    expect(run.summary).toContain(created?.id);
  });
});

describe('url and dashboard-url', () => {
  it('hands the deployment own address and its filled dashboard link to later steps', async () => {
    const seeded = emu.seedDeployment({
      name: 'my agent',
      source_config: {
        integration_id: INTEGRATION,
        repo_url: REPO,
        custom_url: 'https://agent.example',
      },
      source_revision_config: { repo_ref: 'main' },
    });
    const run = await runAction(
      codehostStep(emu, {
        name: 'my agent',
        'dashboard-url': 'https://console.example/o/{tenant_id}/deployments/{id}?q={name}',
      }),
    );

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({
      url: 'https://agent.example',
      'dashboard-url': `https://console.example/o/${TENANT_ID}/deployments/${seeded.id}?q=my%20agent`,
    });
  });

  it('rejects a template with an unknown placeholder or plain http before any request', async () => {
    const run = await runAction(
      codehostStep(emu, { 'dashboard-url': 'https://console.example/{deployment_id}' }),
    );

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain(
      "input 'dashboard-url': has an unknown placeholder {deployment_id}",
    );

    const plain = await runAction(
      codehostStep(emu, { 'dashboard-url': 'http://console.example/{id}' }),
    );

    expect(plain.exitCode).toBe(1);
    expect(plain.error).toContain(
      "input 'dashboard-url': must use https:// (http:// is allowed only for localhost, 127.0.0.0/8 and [::1]), got 'http://console.example/id'",
    );
    expect(emu.requests).toEqual([]);
  });
});
