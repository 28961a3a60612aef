/**
 * Hardening VII (issue 55), through the bundles against the emulator: the
 * search before a create proves absence or fails (a listing that ignores
 * `offset` never leads to a `POST`), one agent's malformed record is that
 * agent's answer alone, and no pause the service asks for keeps an agent
 * past its own deadline.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import { printed, runAction } from '../support/run-action.ts';
import { runCli } from '../cli/run-cli.ts';
import { GITHUB_ACTIONS_BOT, startGitHubEmulator } from '../emulator/github.ts';
import { GITHUB_TOKEN, gitHubStep, pullRequestEvent } from '../support/github-step.ts';
import { QUICK } from '../support/quick.ts';
import {
  MAIN_HEAD,
  MAIN_PUSH,
  MANIFEST_PATH,
  manifestStep,
  THREE_AGENTS,
} from '../support/manifests.ts';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator();
  seedAgentRepository(emu);
});

afterEach(async () => {
  await emu.close();
});

const serviceEnv = () => ({
  DEPLOY_API_URL: emu.url,
  DEPLOY_API_KEY: 'hardening-vii-api-key-0123',
  DEPLOY_AGENT_RETRY_DELAY_MS: '1',
});

const posts = () => emu.requests.filter((request) => request.method === 'POST');

describe('the search before a create proves absence or fails', () => {
  const NOT_PAGED = 'the listing does not page (it ignores offset)';

  /** A full first page of names that contain 'my-agent', none of them it, and a service that ignores offset. */
  function unpagedListing() {
    emu.seedDeployments(100, (i) => ({ name: `my-agent-${i}` }));
    emu.setOptions({ pagination: 'offset-ignored' });
  }

  it('the deploy fails naming the paging, with no POST', async () => {
    unpagedListing();

    const run = await runAction({
      'api-url': emu.url,
      name: 'my-agent',
      'integration-id': INTEGRATION,
      commit: 'none',
    });

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain(NOT_PAGED);
    expect(run.error).toContain('stopped rather than risk creating a duplicate');
    expect(printed(run)).not.toMatch(/^\s+at /m);
    expect(posts()).toHaveLength(0);
    expect(run.outputs['deployment-id'] ?? '').toBe('');
  });

  const DEPLOY_OPTIONS = [
    '--name',
    'my-agent',
    '--integration-id',
    INTEGRATION,
    '--repository',
    'acme/agent',
    '--commit',
    'none',
  ];
  it.each([
    ['deploy', ['deploy', ...DEPLOY_OPTIONS]],
    ['plan', ['plan', ...DEPLOY_OPTIONS.slice(0, 6)]],
    ['status', ['status', '--name', 'my-agent']],
  ])('the command %s fails the same way, with no POST', async (_command, args) => {
    unpagedListing();

    const run = await runCli(args, { env: serviceEnv() });

    expect(run.stderr).toContain(NOT_PAGED);
    expect(run.exitCode).toBe(1);
    expect(posts()).toHaveLength(0);
  });

  it('retire fails the same way, and tells GitHub nothing', async () => {
    emu.seedDeployments(100, (i) => ({ name: `my-agent-pr-7-${i}` }));
    emu.setOptions({ pagination: 'offset-ignored' });
    const gh = await startGitHubEmulator();
    try {
      gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
      const [given, options] = gitHubStep(
        gh,
        { 'api-url': emu.url, name: 'my-agent-pr-7' },
        { environment: 'preview-pr-7' },
        { event: pullRequestEvent(undefined, undefined, 'merged'), action: 'retire/action.yml' },
      );

      const run = await runAction(given, options);

      expect(run.exitCode).toBe(1);
      expect(run.error).toContain(NOT_PAGED);
      expect(gh.requests.filter((request) => request.method !== 'GET')).toEqual([]);
    } finally {
      await gh.close();
    }
  });

  it('a short page still ends the search: the deploy creates', async () => {
    emu.seedDeployments(99, (i) => ({ name: `my-agent-${i}` }));
    emu.setOptions({ pagination: 'offset-ignored' });

    const run = await runAction({
      'api-url': emu.url,
      name: 'my-agent',
      'integration-id': INTEGRATION,
      commit: 'none',
    });

    expect(run.error).toBeUndefined();
    expect(run.outputs.created).toBe('true');
    expect(posts()).toHaveLength(1);
  });
});

describe("one agent's malformed record is that agent's answer", () => {
  it('fails research alone when the shared status check lists its record with a bad created_at', async () => {
    emu.setOptions({ readyAfterPolls: 1 });
    emu.setHead(AGENT_REPO_URL, 'main', MAIN_HEAD);
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      query: { deployment_ids: /,/ },
      times: Infinity,
      bodyTransform: (body) => {
        const page = body as { resources: Record<string, unknown>[] };
        return {
          ...page,
          resources: page.resources.map((record) =>
            record.name === 'research-assistant' ? { ...record, created_at: 'yesterday' } : record,
          ),
        };
      },
    });

    const run = await runAction(
      manifestStep(emu, { 'wait-for-ready': 'true', 'wait-timeout': '60' }),
      { env: QUICK, files: { [MANIFEST_PATH]: THREE_AGENTS }, event: MAIN_PUSH },
    );

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/^1 of 3 agents failed:\n- research: /);
    expect(run.error).toMatch(/does not match the service's schema: resources\[\d\]\.created_at/);
    const deployments = JSON.parse(run.outputs.deployments ?? '{}') as Record<
      string,
      Record<string, unknown>
    >;
    expect(deployments.support).toMatchObject({ live: true, 'commit-sha': MAIN_HEAD });
    expect(deployments.triage).toMatchObject({ live: true, 'commit-sha': MAIN_HEAD });
    expect(deployments.research).toMatchObject({ live: false });
    expect(emu.requests.filter((r) => (r.query.deployment_ids ?? '').includes(','))).not.toEqual(
      [],
    );
  });
});

describe("no pause outlasts an agent's deadline", () => {
  it('ends each agent of a manifest at its wait-timeout under 429s asking for minutes', async () => {
    emu.setHead(AGENT_REPO_URL, 'main', MAIN_HEAD);
    // One agent's create answers 2 s late: its wait starts while the other's pause holds.
    emu.inject(
      { method: 'POST', path: '/v2/deployments', delayMs: 2_000 },
      {
        method: 'GET',
        path: '/v2/deployments',
        query: { deployment_ids: /./ },
        status: 429,
        headers: { 'retry-after': '120' },
        times: Infinity,
      },
    );

    const run = await runCli(
      [
        'deploy',
        '--agents',
        `{"agents": {"support": {}, "research": {}}}`,
        '--integration-id',
        INTEGRATION,
        '--repository',
        'acme/agent',
        '--wait',
        '--wait-timeout',
        '8',
        '--json',
      ],
      { env: serviceEnv() },
    );

    expect(run.exitCode).toBe(1);
    const result = JSON.parse(run.stdout) as {
      deployments: Record<string, { error?: string }>;
    };
    for (const key of ['support', 'research']) {
      expect(result.deployments[key]?.error).toMatch(
        /is not live after 8\.0 s .*the service asked to pause 60\.0 s between checks/,
      );
    }
  }, 30_000);
});
