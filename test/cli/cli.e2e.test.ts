/**
 * dist/cli.js against the service emulator over real HTTP, as a GitLab job,
 * a CircleCI job or a person at a terminal runs it: create, reuse, wait,
 * time out, bad input, interrupt, commit targeting from the CI's variables,
 * and no secret in anything it writes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { hangFirstCheck } from '../support/hang.ts';
import { optionTable } from '../../src/cli/option-table.ts';
import { INTEGRATION } from '../support/fixtures.ts';
import { readGitLabDotenv } from '../support/gitlab-dotenv.ts';
import { runCli, startCli, type CliRun } from './run-cli.ts';
import { QUICK } from '../support/quick.ts';
import { expectNoSecret } from '../support/no-secret.ts';

const KEY = 'cli-api-key-0123456789';
const SECRET = 'openai-secret-value-42';
const TENANT = 'tenant-header-value-7';
const HEAD = '1234567890abcdef1234567890abcdef12345678';
const MERGE = 'fedcba0987654321fedcba0987654321fedcba09';
const OUT = ['out.json', 'deploy.env', 'summary.md'];

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
  emu.seedRepos(INTEGRATION, [{ name: 'agent' }]);
});
afterEach(async () => {
  await emu.close();
});

/** The service options, from the environment as a CI job sets them. */

function serviceEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, ...extra };
}

const DOCKER = ['--name', 'agent', '--source', 'external_docker', '--image-uri', 'reg/agent:1'];
const OUTPUTS = ['--json', '--dotenv', 'deploy.env', '--summary', 'summary.md'];

function posts() {
  return emu.requests.filter((request) => request.method === 'POST');
}

/** The dotenv report as GitLab reads it (and refuses it). */
function dotenv(run: CliRun): Record<string, string> {
  return readGitLabDotenv(run.files['deploy.env'] ?? '');
}

describe('deploy', () => {
  it('creates a deployment and writes --json, --dotenv and --summary', async () => {
    const run = await runCli(['deploy', ...DOCKER, ...OUTPUTS], {
      env: serviceEnv(),
      read: OUT,
    });

    expect(run.stderr).toContain("created 'agent': ");
    expect(run.exitCode).toBe(0);
    expect(emu.deployments).toHaveLength(1);
    const id = emu.deployments[0]?.id;
    expect(run.json).toMatchObject({
      'deployment-id': id,
      created: true,
      live: false,
      status: 'AWAITING_DATABASE',
      drift: [],
      deployment: { id, name: 'agent' },
    });
    expect(run.json).not.toHaveProperty('error');
    expect(dotenv(run)).toMatchObject({
      DEPLOYMENT_ID: id,
      DEPLOYMENT_CREATED: 'true',
      DEPLOYMENT_LIVE: 'false',
      DEPLOYMENT_STATUS: 'AWAITING_DATABASE',
    });
    expect(run.files['summary.md']).toContain('Deployment: <code>agent</code>');
    expect(run.files['summary.md']).toContain(String(id));
  });

  it('reuses the deployment of that exact name: no POST, created false', async () => {
    const existing = emu.seedDeployment({
      name: 'agent',
      source: 'external_docker',
      source_revision_config: { image_uri: 'reg/agent:1', repo_commit_sha: null },
    } as never);
    emu.seedDeployment({ name: 'agent-staging' });

    const run = await runCli(['deploy', ...DOCKER, '--json'], { env: serviceEnv() });

    expect(run.exitCode).toBe(0);
    expect(posts()).toHaveLength(0);
    expect(run.json).toMatchObject({ 'deployment-id': existing.id, created: false, live: true });
  });

  it('waits until live with --wait, one log line per status change, not one per check', async () => {
    emu.setOptions({ readyAfterPolls: 3 });

    const run = await runCli(['deploy', ...DOCKER, '--wait', '--json'], {
      env: serviceEnv(QUICK),
    });

    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({ status: 'READY', live: true, created: true });
    const waiting = run.stderr.split('\n').filter((line) => line.startsWith('waiting until live'));
    // Three checks saw the same status: one line, not three.
    expect(waiting).toEqual([
      expect.stringMatching(/^waiting until live: status is AWAITING_DATABASE, not READY/),
    ]);
    expect(run.stderr).toContain("'agent' is live");
    // No terminal: no live line, no colour.
    expect(run.stderr).not.toContain('\r');
    expect(run.stderr).not.toContain('\u001b');
  });

  it('writes a waiting line at least every heartbeat while nothing changes, in CI as in the action', async () => {
    const run = await runCli(['deploy', ...DOCKER, '--wait', '--wait-timeout', '3'], {
      env: serviceEnv({ DEPLOY_AGENT_HEARTBEAT_MS: '500' }),
    });

    expect(run.exitCode).toBe(1);
    const waiting = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('waiting until live: status is AWAITING_DATABASE'));
    expect(waiting.length).toBeGreaterThanOrEqual(6);
    expect(waiting.every((line) => / s so far\)$/.test(line))).toBe(true);
  });

  it('keeps the heartbeat while the service does not answer a status check', async () => {
    hangFirstCheck(emu);
    const run = await runCli(['deploy', ...DOCKER, '--wait', '--wait-timeout', '4'], {
      env: serviceEnv({ DEPLOY_AGENT_HEARTBEAT_MS: '300' }),
    });

    expect(run.exitCode).toBe(1);
    const checks = emu.requests.filter((request) => request.query.deployment_ids !== undefined);
    expect(checks).toHaveLength(1);
    // The check, 1 s in, hangs until the deadline 3 s later: a line each 0.3 s meanwhile, which
    // says the silence once it lasts a second.
    const hung = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('waiting until live: status is AWAITING_DATABASE'))
      .filter((line) => line.includes('; the service has not answered a status check for '));
    expect(hung.length).toBeGreaterThanOrEqual(4);
  });

  it('fails with exit 1 at --wait-timeout, and still writes --json and --dotenv', async () => {
    const run = await runCli(['deploy', ...DOCKER, '--wait', '--wait-timeout', '1', ...OUTPUTS], {
      env: serviceEnv(),
      read: OUT,
    });

    expect(run.exitCode).toBe(1);
    const id = emu.deployments[0]?.id;
    expect(run.json).toMatchObject({
      'deployment-id': id,
      status: 'AWAITING_DATABASE',
      live: false,
    });
    expect(run.json?.error).toMatch(/is not live after 1\.0 s .*Raise --wait-timeout/);
    expect(dotenv(run)).toMatchObject({ DEPLOYMENT_ID: id, DEPLOYMENT_LIVE: 'false' });
    expect(run.files['summary.md']).toContain('Deployment failed');
    expect(run.stderr).toMatch(/^error: Deployment 'agent' .* is not live after 1\.0 s/m);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});

describe('status', () => {
  it('reports the deployment of that exact name, read-only, whatever the deploy options say', async () => {
    const existing = emu.seedDeployment({
      name: 'agent',
      source: 'codehost',
      source_config: { repo_url: 'https://github.com/acme/agent' },
    } as never);
    emu.seedDeployment({ name: 'agent-staging' });

    // A GitLab job's environment and a deploy's variables: status reads neither source nor slug.
    const run = await runCli(['status', '--name', 'agent', ...OUTPUTS], {
      env: serviceEnv({
        DEPLOY_SOURCE: 'bogus',
        DEPLOY_DASHBOARD_URL: 'https://console.example/d/{id}',
        GITLAB_CI: 'true',
        CI_PROJECT_PATH: 'g/s/agent',
      }),
      read: OUT,
    });

    expect(run.exitCode).toBe(0);
    expect(emu.requests.every((request) => request.method === 'GET')).toBe(true);
    expect(run.json).toMatchObject({
      'deployment-id': existing.id,
      status: 'READY',
      created: false,
      live: true,
      'commit-sha': existing.source_revision_config.repo_commit_sha,
      'repo-url': 'https://github.com/acme/agent',
      drift: [],
    });
    expect(dotenv(run)).toMatchObject({
      DEPLOYMENT_ID: existing.id,
      DEPLOYMENT_LIVE: 'true',
      DEPLOYMENT_DASHBOARD_URL: `https://console.example/d/${existing.id}`,
    });
    expect(run.files['summary.md']).toContain('codehost');
    expect(run.stderr).toMatch(/deployment 'agent': .* \(READY\), live/);
  });

  it('exits 1 when no deployment has that name, and creates none', async () => {
    emu.seedDeployment({ name: 'agent-staging' });

    const run = await runCli(['status', '--name', 'agent', '--json'], { env: serviceEnv() });

    expect(run.exitCode).toBe(1);
    expect(posts()).toHaveLength(0);
    expect(run.json?.error).toMatch(/No deployment is named 'agent'/);
  });

  it('waits until live with --wait', async () => {
    emu.seedDeployment({ name: 'agent', source: 'external_docker', status: 'DEPLOYING' } as never);
    emu.setOptions({ readyAfterPolls: 1 });

    const run = await runCli(['status', '--name', 'agent', '--wait', '--json'], {
      env: serviceEnv(QUICK),
    });

    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({ status: 'READY', live: true, created: false });
    expect(run.stderr).toContain("'agent' is live");
    expect(posts()).toHaveLength(0);
  });

  it('takes no deploy option', async () => {
    const run = await runCli(['status', '--name', 'agent', '--source', 'codehost'], {
      env: serviceEnv(),
    });

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('status takes no option --source');
    expect(emu.requests).toHaveLength(0);
  });
});

describe('bad input: exit 2, before any request', () => {
  it.each([
    [
      ['--wait-timeout', 'abc'],
      {},
      /^error: invalid input --wait-timeout: must be a positive number of seconds, got 'abc'$/m,
    ],
    [
      [],
      { DEPLOY_WAIT_TIMEOUT: '-3' },
      /^error: invalid input DEPLOY_WAIT_TIMEOUT: must be a positive number/m,
    ],
    [
      ['--image-uri', 'x'],
      { DEPLOY_SOURCE: 'ftp' },
      /^error: invalid input DEPLOY_SOURCE: must be one of codehost, /m,
    ],
    [['--bogus'], {}, /^deploy-agent: unknown option --bogus/m],
    [['--api-key', 'x'], {}, /--api-key is not an option/],
    [
      ['--secret', 'UNSET_SECRET'],
      {},
      /^deploy-agent: --secret UNSET_SECRET: the environment variable UNSET_SECRET is not set/m,
    ],
  ] as const)('%j %j', async (args, env, message) => {
    const run = await runCli(['deploy', '--name', 'agent', ...args, '--json'], {
      env: serviceEnv({ DEPLOY_SOURCE: 'external_docker', DEPLOY_IMAGE_URI: 'reg/a:1', ...env }),
    });

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(emu.requests).toHaveLength(0);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it.each([
    [['deploy', '--api-key', 'abc'], '--api-key is not an option: a key on the command line'],
    [['status', '--image-uri', 'x'], 'status takes no option --image-uri'],
  ])('%j: one error, naming the option; its value is not a second error', async (args, message) => {
    const run = await runCli([...args, '--name', 'agent'], { env: serviceEnv() });

    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(message)]);
    expect(run.stderr).not.toContain('unexpected argument');
    expect(emu.requests).toHaveLength(0);
  });

  it('names every bad input at once, as the option or variable it came from', async () => {
    const run = await runCli(['deploy', '--name', 'agent', '--source', 'codehost', '--json'], {
      env: serviceEnv({ DEPLOY_ON_DRIFT: 'explode', DEPLOY_INTEGRATION_ID: 'nope' }),
    });

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('DEPLOY_INTEGRATION_ID: must be a uuid');
    expect(run.stderr).toContain("DEPLOY_ON_DRIFT: must be warn or fail, got 'explode'");
    expect(run.json?.error).toEqual(expect.stringContaining('DEPLOY_ON_DRIFT'));
    expect(emu.requests).toHaveLength(0);
  });

  it('says a required option is missing, naming its variable too', async () => {
    const run = await runCli(['deploy', '--source', 'external_docker', '--image-uri', 'x'], {
      env: { DEPLOY_API_URL: emu.url },
    });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--name (or DEPLOY_NAME): is required');
    expect(emu.requests).toHaveLength(0);
  });
});

describe('interrupt', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'on %s: exit 130, and what was known is written',
    async (signal) => {
      const started = startCli(['deploy', ...DOCKER, '--wait', ...OUTPUTS], {
        env: serviceEnv(),
        read: OUT,
      });
      for (let i = 0; i < 500 && !started.stderrSoFar().includes('waiting until live'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      started.child.kill(signal);
      const run = await started.finished;

      expect(run.signal).toBeNull();
      expect(run.exitCode).toBe(130);
      const id = emu.deployments[0]?.id;
      expect(run.json).toMatchObject({
        'deployment-id': id,
        status: 'AWAITING_DATABASE',
      });
      expect(run.json?.error).toMatch(/cancelled while deployment .* was AWAITING_DATABASE/);
      expect(dotenv(run)).toMatchObject({
        DEPLOYMENT_ID: id,
        DEPLOYMENT_STATUS: 'AWAITING_DATABASE',
      });
      expect(run.files['summary.md']).toContain(String(id));
    },
  );
});

describe('which commit, from the CI system', () => {
  const CODEHOST = ['--name', 'agent', '--integration-id', INTEGRATION, '--json'];
  const WAIT = ['--wait', '--wait-timeout', '10'];

  beforeEach(() => {
    emu.setOptions({ readyAfterPolls: 0 });
  });

  it('GitLab merged-results pipeline: targets the source branch head, not the merge commit', async () => {
    emu.setHead('https://github.com/acme/agent', 'feature', HEAD);

    const run = await runCli(['deploy', ...CODEHOST, ...WAIT, '--repo-ref', 'feature'], {
      env: serviceEnv({
        GITLAB_CI: 'true',
        CI: 'true',
        CI_PROJECT_PATH: 'acme/agent',
        CI_MERGE_REQUEST_ID: '41',
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
        CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
        CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: HEAD,
        CI_COMMIT_SHA: MERGE,
        CI_COMMIT_REF_NAME: 'feature',
      }),
    });

    expect(run.stderr).toContain(`run: GitLab CI/CD, branch feature at ${HEAD.slice(0, 12)}`);
    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({ live: true, 'commit-sha': HEAD });
    expect(run.stderr).not.toContain(MERGE.slice(0, 12));
    // --repository came from CI_PROJECT_PATH.
    expect(emu.deployments[0]?.source_config.repo_url).toBe('https://github.com/acme/agent');
  });

  it('CircleCI branch build: --repository from the project, the commit from CIRCLE_SHA1', async () => {
    emu.setHead('https://github.com/acme/agent', 'main', HEAD);

    const run = await runCli(['deploy', ...CODEHOST, ...WAIT], {
      env: serviceEnv({
        CIRCLECI: 'true',
        CI: 'true',
        CIRCLE_PROJECT_USERNAME: 'acme',
        CIRCLE_PROJECT_REPONAME: 'agent',
        CIRCLE_BRANCH: 'main',
        CIRCLE_SHA1: HEAD,
      }),
    });

    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({ live: true, 'commit-sha': HEAD, 'repo-ref': 'main' });
    expect(run.stderr).toContain(`run: CircleCI, branch main at ${HEAD.slice(0, 12)}`);
  });

  it('a branch the deployment does not track: nothing targeted, one line says why', async () => {
    const run = await runCli(['deploy', ...CODEHOST], {
      env: serviceEnv({
        CIRCLECI: 'true',
        CIRCLE_PROJECT_USERNAME: 'acme',
        CIRCLE_PROJECT_REPONAME: 'agent',
        CIRCLE_BRANCH: 'feature',
        CIRCLE_SHA1: HEAD,
      }),
    });

    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain(
      'no commit is targeted: the run is for branch feature, and the deployment tracks main',
    );
  });
  it('a terminal in a git checkout: targets HEAD of its branch', async () => {
    const checkout = mkdtempSync(path.join(tmpdir(), 'cli-checkout-'));
    try {
      // A checkout of its own, with none of this machine's git configuration.
      const script = `git init -q -b main && git -c user.name=t -c user.email=t@example.invalid commit -q --allow-empty -m one && git rev-parse HEAD`;
      const head = execFileSync('sh', ['-c', script], {
        cwd: checkout,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      }).trim();
      emu.setHead('https://github.com/acme/agent', 'main', head);

      const run = await runCli(['deploy', ...CODEHOST, ...WAIT, '--repository', 'acme/agent'], {
        env: serviceEnv(),
        cwd: checkout,
      });

      expect(run.stderr).toContain(`run: the git checkout, branch main at ${head.slice(0, 12)}`);
      expect(run.exitCode).toBe(0);
      expect(run.json).toMatchObject({ live: true, 'commit-sha': head });
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });

  it('a CI system the command does not know: nothing targeted, one line says why', async () => {
    const run = await runCli(['deploy', ...CODEHOST, '--repository', 'acme/agent'], {
      env: serviceEnv({ CI: 'true', CI_COMMIT_SHA: MERGE }),
    });

    expect(run.exitCode).toBe(0);
    const why = run.stderr.split('\n').filter((line) => line.startsWith('no commit is targeted'));
    expect(why).toEqual([
      expect.stringContaining('CI is set but the CI system is not one the command recognises'),
    ]);
    expect(run.json ?? {}).not.toHaveProperty('commit-sha', MERGE);
  });
});

describe('secrets', () => {
  const SECRET_OPTIONS = ['--secret', 'OPENAI_KEY', '--header', 'X-Tenant-Id', ...OUTPUTS];
  const SECRET_ENV = { OPENAI_KEY: SECRET, X_TENANT_ID: TENANT };

  it('appear nowhere it writes, though the service echoes them', async () => {
    const run = await runCli(['deploy', ...DOCKER, ...SECRET_OPTIONS], {
      env: serviceEnv(SECRET_ENV),
      read: OUT,
    });

    expect(run.exitCode).toBe(0);
    // They were sent.
    expect(emu.requests.at(-1)?.headers['x-tenant-id']).toBe(TENANT);
    expect(posts()[0]?.body).toMatchObject({ secrets: [{ name: 'OPENAI_KEY', value: SECRET }] });
    expect(run.json).toMatchObject({
      deployment: { secrets: [{ name: 'OPENAI_KEY', value: '***' }] },
    });
    expectNoSecret([KEY, SECRET, TENANT], run);
  });

  it('appear nowhere when the service echoes them in an error', async () => {
    emu.inject({
      method: 'POST',
      status: 400,
      body: { detail: `bad secret ${SECRET} for tenant ${TENANT} with key ${KEY}` },
    });

    const run = await runCli(['deploy', ...DOCKER, ...SECRET_OPTIONS], {
      env: serviceEnv(SECRET_ENV),
      read: OUT,
    });

    expect(run.exitCode).toBe(1);
    expect(run.json?.error).toContain('bad secret *** for tenant *** with key ***');
    expectNoSecret([KEY, SECRET, TENANT], run);
  });

  it('reads the key from --api-key-file', async () => {
    const run = await runCli(['deploy', ...DOCKER, '--api-key-file', 'key.txt', '--json'], {
      env: { DEPLOY_API_URL: emu.url },
      files: { 'key.txt': `${KEY}\n` },
    });
    expect(run.exitCode).toBe(0);
    expect(emu.requests[0]?.headers['x-api-key']).toBe(KEY);
    expectNoSecret([KEY, SECRET, TENANT], run);
  });
});

describe('every option can come from its environment variable', () => {
  /**
   * For each variable, a value and what shows that the command read it: an
   * input error naming the variable (no request), or the value in a dry run's
   * request body. Keyed by variable, and checked against the option table, so
   * that an option added without a way to check its variable fails here.
   */
  const CHECKS: Record<
    string,
    { value: string; shows: RegExp; env?: Record<string, string>; command?: string }
  > = {
    DEPLOY_ON_CHANGE: {
      value: 'block',
      shows: /DEPLOY_ON_CHANGE: must be none or fail, got 'block'/,
      command: 'plan',
    },
    DEPLOY_API_URL: {
      value: 'ftp://example.com',
      shows: /DEPLOY_API_URL: must be an https:\/\/ URL/,
    },
    DEPLOY_API_KEY: { value: 'bad\u0001key', shows: /DEPLOY_API_KEY: the value/ },
    DEPLOY_API_KEY_HEADER: { value: 'Bad Header', shows: /DEPLOY_API_KEY_HEADER: / },
    DEPLOY_HEADERS: {
      value: 'no colon here',
      shows: /DEPLOY_HEADERS: line 1 is not 'Name: value'/,
    },
    DEPLOY_NAME: {
      value: 'bad\u0001name',
      shows: /DEPLOY_NAME: must not contain control characters/,
    },
    DEPLOY_AGENTS: {
      value: '{"agents": {}}',
      shows: /DEPLOY_AGENTS: agents: the manifest holds no agent/,
    },
    DEPLOY_SOURCE: { value: 'ftp', shows: /DEPLOY_SOURCE: must be one of/ },
    DEPLOY_CONFIG: { value: '{"bogus": 1}', shows: /DEPLOY_CONFIG: .*bogus/ },
    DEPLOY_INTEGRATION_ID: { value: 'nope', shows: /DEPLOY_INTEGRATION_ID: must be a uuid/ },
    DEPLOY_REPOSITORY: { value: 'a/b/c', shows: /DEPLOY_REPOSITORY: must be owner\/name/ },
    DEPLOY_REPO_REF: { value: 'ref-from-env', shows: /"repo_ref": "ref-from-env"/ },
    DEPLOY_AGENT_CONFIG_PATH: {
      value: 'from-env.json',
      shows: /"agent_config_path": "from-env.json"/,
    },
    DEPLOY_IMAGE_URI: {
      value: 'reg/from-env:2',
      shows: /"image_uri": "reg\/from-env:2"/,
      env: { DEPLOY_SOURCE: 'external_docker' },
    },
    DEPLOY_SECRETS: { value: 'not a line', shows: /DEPLOY_SECRETS: line 1 is not NAME=value/ },
    DEPLOY_WAIT: { value: 'yes', shows: /DEPLOY_WAIT: must be true or false, got 'yes'/ },
    DEPLOY_WAIT_TIMEOUT: { value: 'abc', shows: /DEPLOY_WAIT_TIMEOUT: must be a positive number/ },
    DEPLOY_HEALTH_CHECK: {
      value: '/ok/{version}',
      shows: /DEPLOY_HEALTH_CHECK: may hold only the placeholder \{url\}, got '\{version\}'/,
    },
    DEPLOY_HEALTH_CHECK_HEADERS: {
      value: 'no colon here',
      shows: /DEPLOY_HEALTH_CHECK_HEADERS: line 1 is not 'Name: value'/,
    },
    DEPLOY_HEALTH_CHECK_EXPECT: {
      value: 'v2',
      shows: /DEPLOY_HEALTH_CHECK_EXPECT: is set but --health-check is empty/,
    },
    DEPLOY_COMMIT: {
      value: 'abc123',
      shows: /DEPLOY_COMMIT: must be a full 40-character commit sha/,
    },
    DEPLOY_ON_DRIFT: { value: 'explode', shows: /DEPLOY_ON_DRIFT: must be warn or fail/ },
    DEPLOY_DRY_RUN: { value: 'yes', shows: /DEPLOY_DRY_RUN: must be true or false/ },
    DEPLOY_CHANGED_SINCE: {
      value: '--output=x',
      shows: /DEPLOY_CHANGED_SINCE takes a git revision/,
    },
    DEPLOY_EVENTS: { value: 'yes', shows: /DEPLOY_EVENTS: must be true or false, got 'yes'/ },
    DEPLOY_DASHBOARD_URL: {
      value: 'https://console.example/{bogus}',
      shows: /DEPLOY_DASHBOARD_URL: .*\{bogus\}/,
    },
    // list's own: a value it refuses, or one it passes on with a warning (an unknown type or status).
    DEPLOY_NAME_CONTAINS: {
      value: 'bad\u0001name',
      shows: /DEPLOY_NAME_CONTAINS: must not contain control characters/,
      command: 'list',
    },
    DEPLOY_STATUS: { value: 'SCALED', shows: /status 'SCALED' is not one/, command: 'list' },
    DEPLOY_REMOTE_RECONCILED: {
      value: 'maybe',
      shows: /DEPLOY_REMOTE_RECONCILED: must be true or false, got 'maybe'/,
      command: 'list',
    },
    DEPLOY_TAG_VALUE_IDS: {
      value: 'nope',
      shows: /DEPLOY_TAG_VALUE_IDS: must be uuids separated by commas/,
      command: 'list',
    },
    DEPLOY_IMAGE_VERSION: {
      value: 'bad\u0001version',
      shows: /DEPLOY_IMAGE_VERSION: must not contain control characters/,
      command: 'list',
    },
    DEPLOY_DEPLOYMENT_TYPE: {
      value: 'serverless',
      shows: /deployment-type 'serverless' is not one/,
      command: 'list',
    },
    DEPLOY_DEPLOYMENT_IDS: {
      value: 'nope',
      shows: /DEPLOY_DEPLOYMENT_IDS: must be uuids separated by commas/,
      command: 'list',
    },
    DEPLOY_LIMIT: {
      value: '0',
      shows: /DEPLOY_LIMIT: must be a whole number, at least 1/,
      command: 'list',
    },
    DEPLOY_ALL: { value: 'yes', shows: /DEPLOY_ALL: must be true or false/, command: 'list' },
  };

  it('checks every variable of the option table', () => {
    const variables = optionTable()
      .map((spec) => spec.variable)
      .filter((variable) => variable !== undefined);
    expect(Object.keys(CHECKS).sort()).toEqual([...new Set(variables)].sort());
  });

  it.each(Object.entries(CHECKS))('%s', async (variable, { value, shows, env, command }) => {
    // A codehost dry run, so that the text inputs show in the request body it prints.
    const base: Record<string, string> = {
      DEPLOY_API_URL: emu.url,
      DEPLOY_API_KEY: KEY,
      DEPLOY_NAME: 'agent',
      DEPLOY_INTEGRATION_ID: INTEGRATION,
      DEPLOY_REPOSITORY: 'acme/agent',
      DEPLOY_DRY_RUN: 'true',
    };
    const run = await runCli([command ?? 'deploy'], {
      env: { ...base, ...env, [variable]: value },
    });
    expect(`${run.stderr}`).toMatch(shows);
  });
});

describe('hardening IV: the command passes on a commit only', () => {
  it('a repo_commit_sha of $(id) is no commit: commit-sha is empty in --json, with one warning', async () => {
    emu.seedDeployment({
      name: 'agent',
      source: 'external_docker',
      source_revision_config: { repo_commit_sha: '$(id)' },
    } as never);

    const run = await runCli(['status', '--name', 'agent', '--json'], { env: serviceEnv() });

    expect(run.exitCode).toBe(0);
    expect(run.json?.['commit-sha']).toBe('');
    expect(run.stderr).toContain(
      "the service's repo_commit_sha of 'agent' is not a 40-hex commit ($(id)): it is not passed on",
    );
  });
});

describe('status and the summary', () => {
  it('names the source of the deployment found, not the placeholder status reads its plan with', async () => {
    emu.seedDeployment({ name: 'agent', source: 'external_docker' } as never);

    const run = await runCli(['status', '--name', 'agent', '--summary', 'summary.md'], {
      env: serviceEnv(),
      read: ['summary.md'],
    });

    expect(run.exitCode).toBe(0);
    expect(run.files['summary.md']).toContain(
      '<tr><th align="left">Source</th><td><code>external_docker</code></td></tr>',
    );
  });
});

describe("a fork's pull request on another CI", () => {
  it('leads with the fork, not with the empty secrets it causes: exit 2, no request', async () => {
    const run = await runCli(['deploy', ...DOCKER], {
      env: {
        DEPLOY_API_URL: emu.url,
        // CircleCI gives a fork's build no secrets: the key is unset, the secret empty.
        DEPLOY_SECRETS: 'OPENAI_API_KEY=',
        CIRCLECI: 'true',
        CI: 'true',
        CIRCLE_PROJECT_USERNAME: 'acme',
        CIRCLE_PROJECT_REPONAME: 'agent',
        CIRCLE_SHA1: HEAD,
        CIRCLE_BRANCH: 'pull/12',
        CIRCLE_PULL_REQUEST: 'https://github.com/acme/agent/pull/12',
        CIRCLE_PR_USERNAME: 'contributor',
        CIRCLE_PR_REPONAME: 'agent',
      },
    });

    expect(run.exitCode).toBe(2);
    const error = run.stderr.split('\n').find((line) => line.includes('invalid input'));
    expect(error).toMatch(
      /^error: invalid input the API key \(DEPLOY_API_KEY or --api-key-file\): is empty: this run is for a pull request from the fork contributor\/agent, and a fork's runs get no secrets.* The empty values in 'secrets' have the same cause\.$/,
    );
    expect(run.stderr).not.toContain('has an empty value');
    expect(emu.requests).toEqual([]);
  });
});
