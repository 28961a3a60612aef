/**
 * `deploy-agent plan` (issue 31, CLI-CONTRACT v1.3): dist/cli.js against the
 * service emulator over real HTTP. The plan sub-action's verdict (create,
 * reuse with every difference, fail) through --json, --dotenv and --summary,
 * the exit a required merge request job uses (--on-change fail), GET
 * requests only, and a bad --on-change refused before any request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { readGitLabDotenv } from '../support/gitlab-dotenv.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import { runCli, type CliRun } from './run-cli.ts';
import { expectNoSecret } from '../support/no-secret.ts';

const KEY = 'cli-plan-api-key-0123456789';
const SECRET = 'plan-secret-value-42';
const OUT = ['plan.env', 'plan.md'];

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
});
afterEach(async () => {
  await emu.close();
});

function serviceEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, OPENAI_API_KEY: SECRET, ...extra };
}

const DOCKER = ['--name', 'agent', '--source', 'external_docker', '--image-uri', 'reg/agent:2'];
const OUTPUTS = ['--json', '--dotenv', 'plan.env', '--summary', 'plan.md'];

/** The deployment `agent` as an earlier deploy of reg/agent:1 left it. */
function existing(overrides: Record<string, unknown> = {}) {
  return emu.seedDeployment({
    name: 'agent',
    source: 'external_docker',
    source_revision_config: { image_uri: 'reg/agent:1', repo_commit_sha: null },
    ...overrides,
  } as never);
}

const methods = () => [...new Set(emu.requests.map((request) => request.method))];

function dotenv(run: CliRun): Record<string, string> {
  return readGitLabDotenv(run.files['plan.env'] ?? '');
}

describe('deploy-agent plan', () => {
  it('create: no deployment has the name; the plan as JSON, dotenv and summary; GET only', async () => {
    const run = await runCli(['plan', ...DOCKER, '--secret', 'OPENAI_API_KEY', ...OUTPUTS], {
      env: serviceEnv(),
      read: OUT,
    });

    expect(run.stderr).toContain('the deploy would create it');
    expect(run.exitCode).toBe(0);
    expect(run.json).toEqual({
      action: 'create',
      changes: '0',
      'deployment-id': '',
      status: '',
      'dashboard-url': '',
      plan: { action: 'create', 'deployment-id': null, changes: [], reason: null },
    });
    expect(dotenv(run)).toEqual({ DEPLOYMENT_PLAN_ACTION: 'create', DEPLOYMENT_CHANGES: '0' });
    expect(run.files['plan.md']).toContain('would create');
    expect(run.files['plan.md']).toContain('OPENAI_API_KEY');
    expect(methods()).toEqual(['GET']);
    expect(emu.deployments).toHaveLength(0);
    expectNoSecret([SECRET, KEY], run);
  });

  it('reuse with a difference: each field, exit 0 with --on-change none (the default)', async () => {
    const deployment = existing();

    const run = await runCli(['plan', ...DOCKER, ...OUTPUTS], {
      env: serviceEnv({ DEPLOY_DASHBOARD_URL: 'https://console.example/d/{id}' }),
      read: OUT,
    });

    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({
      action: 'reuse',
      changes: '1',
      'deployment-id': deployment.id,
      status: deployment.status,
      'dashboard-url': `https://console.example/d/${deployment.id}`,
      plan: {
        action: 'reuse',
        'deployment-id': deployment.id,
        changes: [
          {
            field: 'source_revision_config.image_uri',
            wanted: 'reg/agent:2',
            live: 'reg/agent:1',
          },
        ],
      },
    });
    expect(run.json).not.toHaveProperty('error');
    expect(dotenv(run)).toEqual({
      DEPLOYMENT_PLAN_ACTION: 'reuse',
      DEPLOYMENT_CHANGES: '1',
      DEPLOYMENT_ID: deployment.id,
      DEPLOYMENT_STATUS: deployment.status,
      DEPLOYMENT_DASHBOARD_URL: `https://console.example/d/${deployment.id}`,
    });
    expect(run.files['plan.md']).toContain('Not applied by the deploy');
    expect(methods()).toEqual(['GET']);
  });

  it('--on-change fail exits 1 on a difference, after writing the outputs, naming the field', async () => {
    existing();

    const run = await runCli(['plan', ...DOCKER, '--on-change', 'fail', ...OUTPUTS], {
      env: serviceEnv(),
      read: OUT,
    });

    expect(run.exitCode).toBe(1);
    expect(run.json).toMatchObject({ action: 'reuse', changes: '1' });
    expect(run.json?.error).toContain('source_revision_config.image_uri');
    // The command's own words for it, not the action's input.
    expect(run.json?.error).toContain('(--on-change fail)');
    expect(dotenv(run)).toMatchObject({ DEPLOYMENT_PLAN_ACTION: 'reuse', DEPLOYMENT_CHANGES: '1' });
    expect(methods()).toEqual(['GET']);
  });

  it('DEPLOY_ON_CHANGE=fail exits 0 when there is no difference', async () => {
    existing();

    const run = await runCli(['plan', ...DOCKER.slice(0, -1), 'reg/agent:1', '--json'], {
      env: serviceEnv({ DEPLOY_ON_CHANGE: 'fail' }),
    });

    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({ action: 'reuse', changes: '0' });
    expect(methods()).toEqual(['GET']);
  });

  it('fail: a deployment being deleted; exit 1, its id and status still written', async () => {
    const deployment = existing({ status: 'AWAITING_DELETE' });

    const run = await runCli(['plan', ...DOCKER, ...OUTPUTS], { env: serviceEnv(), read: OUT });

    expect(run.exitCode).toBe(1);
    expect(run.json).toMatchObject({
      action: 'fail',
      'deployment-id': deployment.id,
      status: 'AWAITING_DELETE',
      plan: { action: 'fail', 'deployment-id': deployment.id },
    });
    expect((run.json?.plan as { reason: string }).reason).toContain('AWAITING_DELETE');
    expect(run.json?.error).toContain('AWAITING_DELETE');
    expect(dotenv(run)).toMatchObject({
      DEPLOYMENT_PLAN_ACTION: 'fail',
      DEPLOYMENT_ID: deployment.id,
      DEPLOYMENT_STATUS: 'AWAITING_DELETE',
    });
    expect(methods()).toEqual(['GET']);
  });

  it('a 401 is no verdict: exit 1, the error names the call, the status and the message; no action', async () => {
    existing();
    // The service echoes the key it refused: the command shows its message, the key masked.
    emu.inject({ status: 401, body: { detail: `Invalid API key ${KEY}` }, times: Infinity });

    const run = await runCli(['plan', ...DOCKER, ...OUTPUTS], { env: serviceEnv(), read: OUT });

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/GET \/v\d\/\S+ failed: 401/);
    expect(run.stderr).toContain('Invalid API key ***');
    expect(run.json?.error).toMatch(/GET \/v\d\/\S+ failed: 401/);
    expect(run.json?.action).toBeUndefined();
    expect(run.json?.plan).toBeUndefined();
    expect(dotenv(run).DEPLOYMENT_PLAN_ACTION).toBeUndefined();
    expectNoSecret([SECRET, KEY], run);
    expect(methods()).toEqual(['GET']);
  });

  it('a bad --on-change is an input error: exit 2, before any request', async () => {
    const run = await runCli(['plan', ...DOCKER, '--on-change', 'block', '--json'], {
      env: serviceEnv(),
    });

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--on-change');
    expect(run.stderr).toContain("must be none or fail, got 'block'");
    expect(emu.requests).toHaveLength(0);
  });

  it.each([
    ['--wait'],
    ['--wait-timeout', '60'],
    ['--commit', 'none'],
    ['--on-drift', 'fail'],
    ['--dry-run'],
  ])('takes no %s (usage error, exit 2, before any request)', async (...option) => {
    const run = await runCli(['plan', ...DOCKER, ...option], { env: serviceEnv() });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`plan takes no option ${option[0] ?? ''}`);
    expect(emu.requests).toHaveLength(0);
  });

  it('--help lists its options, --on-change with its variable and default', async () => {
    const run = await runCli(['plan', '--help']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('Usage: deploy-agent plan');
    expect(run.stdout).toContain('--on-change VALUE  (env DEPLOY_ON_CHANGE; default: none)');
    for (const option of ['--name', '--image-uri', '--secrets-file', '--json', '--dotenv']) {
      expect(run.stdout).toContain(option);
    }
    const listed = run.stdout.split('\n').filter((line) => line.startsWith('  --'));
    for (const option of ['--wait', '--commit', '--on-drift', '--dry-run']) {
      expect(
        listed.filter((line) => line.startsWith(`  ${option} `) || line === `  ${option}`),
      ).toEqual([]);
    }
  });
});

describe("the plan in GitLab's words (issue 46)", () => {
  it('says merge request, not pull request, in a merge request pipeline', async () => {
    seedAgentRepository(emu);
    existing({ source: 'codehost', source_config: { repo_url: AGENT_REPO_URL } });
    const head = 'b'.repeat(40);

    const run = await runCli(['plan', '--name', 'agent', '--integration-id', INTEGRATION], {
      env: serviceEnv({
        CI: 'true',
        GITLAB_CI: 'true',
        CI_PIPELINE_ID: '7',
        CI_PROJECT_PATH: 'acme/agent',
        CI_COMMIT_SHA: head,
        CI_COMMIT_REF_NAME: 'feature',
        CI_MERGE_REQUEST_ID: '99',
        CI_MERGE_REQUEST_IID: '4',
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
        CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
        CI_MERGE_REQUEST_PROJECT_PATH: 'acme/agent',
        CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: 'acme/agent',
      }),
    });

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'no commit is targeted: a plan describes the deploy a merge starts: a push to the branch the deployment tracks, not a commit of the merge request',
    );
    expect(run.stderr).not.toContain('pull request');
  });

  it('says pull request on another CI, such as CircleCI building a GitHub pull request', async () => {
    seedAgentRepository(emu);
    existing({ source: 'codehost', source_config: { repo_url: AGENT_REPO_URL } });

    const run = await runCli(['plan', '--name', 'agent', '--integration-id', INTEGRATION], {
      env: serviceEnv({
        CI: 'true',
        CIRCLECI: 'true',
        CIRCLE_BUILD_NUM: '12',
        CIRCLE_PROJECT_USERNAME: 'acme',
        CIRCLE_PROJECT_REPONAME: 'agent',
        CIRCLE_SHA1: 'b'.repeat(40),
        CIRCLE_BRANCH: 'feature',
        CIRCLE_PULL_REQUEST: 'https://github.com/acme/agent/pull/4',
      }),
    });

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('not a commit of the pull request');
    expect(run.stderr).not.toContain('merge request');
  });
});
