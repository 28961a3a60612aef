/**
 * End-to-end: the bundled action (dist/index.js) under Node 24, spawned as
 * the runner spawns it, against the emulator over real HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { hangFirstCheck } from '../support/hang.ts';
import { WORKFLOW_REPOSITORY } from '../support/action.ts';
import { whatAReaderSees } from '../support/github-render.ts';
import { runAction, type ActionRun } from '../support/run-action.ts';
import { INTEGRATION, codehostStep } from '../support/fixtures.ts';
import { expectMaskedFirst, expectNoSecret } from '../support/no-secret.ts';

const API_KEY = 'key-9f8e7d6c5b4a3210';
const SECRET_A = 'sk-live-0123456789abcdef';
const SECRET_B = 'pa55-w0rd=with=equals';
const TENANT = 'tenant-header-value-77';
const SENSITIVE = [API_KEY, SECRET_A, SECRET_B, TENANT];

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: API_KEY, requiredHeaders: { 'x-tenant-id': TENANT } });
  emu.seedRepos(INTEGRATION, [
    { owner: 'other', name: 'thing' },
    {
      owner: 'Acme',
      name: 'Agent',
      default_branch: 'trunk',
      url: 'https://git.example/Acme/Agent',
    },
  ]);
});

afterEach(async () => {
  await emu.close();
});

/** The inputs of a typical codehost step. */
function codehost(extra: Record<string, string> = {}): Record<string, string> {
  return codehostStep(emu, {
    'api-key': API_KEY,
    headers: `X-Tenant-Id: ${TENANT}`,
    'agent-config-path': 'agent.json',
    secrets: `# model keys\nOPENAI_API_KEY=${SECRET_A}\n\nDB_PASSWORD=${SECRET_B}\n`,
    ...extra,
  });
}

function requestLine(request: { method: string; path: string }): string {
  return `${request.method} ${request.path}`;
}

describe('codehost', () => {
  it('creates the deployment from the resolved repository and reports it', async () => {
    const run = await runAction(codehost());

    expect(run.error).toBeUndefined();
    expect(run.exitCode).toBe(0);
    expect(emu.requests.map(requestLine)).toEqual([
      `GET /v1/integrations/forge/codehost/${INTEGRATION}/repos`,
      'GET /v2/deployments',
      'POST /v2/deployments',
      // The name looked up once more: the service does not enforce unique names.
      'GET /v2/deployments',
    ]);
    expect(emu.requests[1]?.query).toEqual({
      name_contains: 'my-agent',
      limit: '100',
      offset: '0',
    });
    for (const request of emu.requests) {
      expect(request.headers['x-api-key']).toBe(API_KEY);
      expect(request.headers['x-tenant-id']).toBe(TENANT);
    }
    expect(emu.requests[2]?.body).toEqual({
      name: 'my-agent',
      source: 'codehost',
      source_config: {
        integration_id: INTEGRATION,
        repo_url: 'https://git.example/Acme/Agent',
        build_on_push: true,
      },
      source_revision_config: { agent_config_path: 'agent.json', repo_ref: 'trunk' },
      secrets: [
        { name: 'OPENAI_API_KEY', value: SECRET_A },
        { name: 'DB_PASSWORD', value: SECRET_B },
      ],
    });

    const stored = emu.deployments[0];
    expect(emu.deployments).toHaveLength(1);
    expect(run.outputs).toMatchObject({
      'deployment-id': stored?.id,
      status: 'AWAITING_DATABASE',
      created: 'true',
      'latest-revision-id': stored?.latest_revision_id,
      'active-revision-id': '',
      'repo-url': 'https://git.example/Acme/Agent',
      'repo-ref': 'trunk',
    });
    const deployment = JSON.parse(run.outputs.deployment ?? '{}') as {
      id: string;
      secrets: unknown;
    };
    expect(deployment.id).toBe(stored?.id);
    expect(deployment.secrets).toEqual([
      { name: 'OPENAI_API_KEY', value: '***' },
      { name: 'DB_PASSWORD', value: '***' },
    ]);

    expect(run.summary).toContain('my-agent');
    expect(run.summary).toContain(stored?.id);
    expect(run.summary).toContain('created');
    expect(run.summary).toContain('c0ffee012345');
    expect(run.summary).not.toMatch(/undefined|null/);
    expect(run.stdout).toContain('::group::');
    expectNoSecret(SENSITIVE, run);
  });

  it('masks every sensitive value for the runner before the first log line', async () => {
    const run = await runAction(codehost());
    expectMaskedFirst(run, SENSITIVE);
  });

  it('uses repo-ref over the default branch, and matches the repository case-insensitively', async () => {
    const run = await runAction(codehost({ repository: 'acme/AGENT', 'repo-ref': 'release' }));

    expect(run.exitCode).toBe(0);
    expect(run.outputs['repo-ref']).toBe('release');
    expect(emu.requests[2]?.body).toMatchObject({
      source_revision_config: { repo_ref: 'release' },
    });
  });

  it('fails naming the repository and some listed ones when the integration cannot see it', async () => {
    const run = await runAction(codehost({ repository: 'acme/missing' }));

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain('acme/missing');
    expect(run.error).toContain('other/thing');
    expect(emu.requests.map(requestLine)).toEqual([
      `GET /v1/integrations/forge/codehost/${INTEGRATION}/repos`,
    ]);
  });

  it('takes the workflow repository from the run when repository is given empty', async () => {
    const run = await runAction(codehost({ repository: '' }));

    expect(run.exitCode).toBe(0);
    expect(run.outputs['repo-url']).toBe('https://git.example/Acme/Agent');
  });

  it('defaults to the workflow repository, preferring an entry that matches its case exactly', async () => {
    emu.seedRepos(INTEGRATION, [
      { owner: 'acme', name: 'agent', url: 'https://git.example/acme/agent' },
    ]);
    const run = await runAction(codehost());

    expect(WORKFLOW_REPOSITORY).toBe('acme/agent');
    expect(emu.repos.get(INTEGRATION)?.map((repo) => `${repo.owner}/${repo.name}`)).toContain(
      'Acme/Agent',
    );
    expect(run.outputs['repo-url']).toBe('https://git.example/acme/agent');
  });
});

describe('reuse', () => {
  it('finds the exact name among many partial matches across pages, and sends no POST', async () => {
    emu.seedDeployments(230, (i) => ({ name: `my-agent-${i}`, source: 'codehost' }));
    const existing = emu.seedDeployment({ name: 'my-agent', source: 'codehost', status: 'READY' });
    emu.seedDeployments(40, (i) => ({ name: `x-my-agent-${i}` }));

    const run = await runAction(codehost());

    expect(run.exitCode).toBe(0);
    const lists = emu.requests.filter((request) => request.path === '/v2/deployments');
    expect(lists.map((request) => request.query.offset)).toEqual(['0', '100', '200']);
    expect(emu.requests.some((request) => request.method === 'POST')).toBe(false);
    expect(run.outputs).toMatchObject({
      'deployment-id': existing.id,
      created: 'false',
      status: 'READY',
    });
    expect(run.summary).toContain('reused');
    expectNoSecret(SENSITIVE, run);
  });

  it('creates when only partial matches exist, reading to the end of the list', async () => {
    emu.seedDeployments(150, (i) => ({ name: `my-agent-${i}` }));

    const run = await runAction(codehost());

    expect(run.exitCode).toBe(0);
    expect(run.outputs.created).toBe('true');
    expect(emu.deployments.filter((d) => d.name === 'my-agent')).toHaveLength(1);
  });

  it('fails when the existing deployment has another source', async () => {
    emu.seedDeployment({ name: 'my-agent', source: 'internal_docker' });

    const run = await runAction(codehost());

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain('internal_docker');
    expect(emu.requests.some((request) => request.method === 'POST')).toBe(false);
  });
});

describe('deployment type', () => {
  const typeRow = (run: ActionRun) =>
    /<th align="left">Deployment type<\/th><td>(.*?)<\/td>/.exec(run.summary)?.[1];
  const asking = (type: string, extra: Record<string, string> = {}) =>
    codehost({ config: `source_config:\n  deployment_type: ${type}\n`, ...extra });

  it('is sent on create and shown in the summary', async () => {
    const run = await runAction(asking('prod'));

    expect(run.exitCode).toBe(0);
    const post = emu.requests.find((request) => request.method === 'POST');
    expect(post?.body).toMatchObject({
      source_config: {
        deployment_type: 'prod',
        integration_id: INTEGRATION,
        repo_url: 'https://git.example/Acme/Agent',
      },
    });
    expect(emu.deployments[0]?.source_config.deployment_type).toBe('prod');
    expect(run.outputs.created).toBe('true');
    expect(run.outputs.drift).toBe('[]');
    expect(typeRow(run)).toBe('<code>prod</code>');
    expectNoSecret(SENSITIVE, run);
  });

  it('is drift when a deployment created as dev is asked to be prod, with the remedy', async () => {
    expect((await runAction(asking('dev'))).outputs.created).toBe('true');

    const run = await runAction(asking('prod'));

    expect(run.exitCode).toBe(0);
    // The first run's POST only: the second reused what it created.
    expect(emu.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect(run.outputs.created).toBe('false');
    expect(JSON.parse(run.outputs.drift ?? 'null')).toEqual([
      { field: 'source_config.deployment_type', wanted: 'prod', live: 'dev' },
    ]);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('::warning::'))).toEqual([
      '::warning::drift: source_config.deployment_type: the step wants prod, the deployment has dev',
    ]);
    expect(run.stdout).toContain(
      '1 difference not applied: source_config.deployment_type. The service cannot update a deployment: change it in the service, or deploy under a new name.',
    );
    // The summary shows what the deployment is, and the difference in the drift table.
    expect(typeRow(run)).toBe('<code>dev</code>');
    expect(run.summary).toContain('Drift: not applied');
    expect(run.summary).toContain(
      '<tr><td><code>source_config.deployment_type</code></td><td><code>prod</code></td><td><code>dev</code></td></tr>',
    );
  });

  it('passes on a type the action does not know (serverless), with one warning naming the known ones', async () => {
    const run = await runAction(asking('serverless'));

    expect(run.error).toBeUndefined();
    expect(run.exitCode).toBe(0);
    const post = emu.requests.find((request) => request.method === 'POST');
    expect(post?.body).toMatchObject({ source_config: { deployment_type: 'serverless' } });
    expect(emu.deployments[0]?.source_config.deployment_type).toBe('serverless');
    expect(run.outputs.created).toBe('true');
    expect(run.stdout.split('\n').filter((line) => line.startsWith('::warning::'))).toEqual([
      "::warning::config: source_config.deployment_type 'serverless' is not one this release knows (dev_free, dev, prod): it is passed on as it is, and the service decides",
    ]);
    expect(typeRow(run)).toBe('<code>serverless</code>');
    expectNoSecret(SENSITIVE, run);
  });

  it('reuses a deployment of that type in a status the action does not know, with no drift', async () => {
    await runAction(asking('serverless'));
    const created = emu.deployments[0];
    if (created !== undefined) created.status = 'SCALED_TO_ZERO';

    const run = await runAction(asking('serverless'));

    expect(run.exitCode).toBe(0);
    expect(emu.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect(run.outputs).toMatchObject({
      created: 'false',
      drift: '[]',
      status: 'SCALED_TO_ZERO',
    });
    expect(run.stdout.split('\n').filter((line) => line.startsWith('::warning::'))).toHaveLength(1);
  });

  it('fails on that drift with on-drift: fail, naming the field and the remedy', async () => {
    await runAction(asking('dev'));

    const run = await runAction(asking('prod', { 'on-drift': 'fail' }));

    expect(run.exitCode).toBe(1);
    expect(run.error).toBe(
      "Deployment 'my-agent' differs from what the step asks for (on-drift: fail): source_config.deployment_type. The service cannot update a deployment: change it in the service, or deploy under a new name.",
    );
    expect(run.outputs['deployment-id']).toBe(emu.deployments[0]?.id);
  });
});

describe('every source', () => {
  const cases: [string, Record<string, string>, Record<string, unknown>][] = [
    [
      'external_docker',
      {
        'image-uri': 'ghcr.io/acme/agent:1.2.3',
        config: 'secret_references:\n  - {name: DB_URL, secret_name: db, secret_key: url}\n',
      },
      {
        source_revision_config: { image_uri: 'ghcr.io/acme/agent:1.2.3' },
        secret_references: [{ name: 'DB_URL', secret_name: 'db', secret_key: 'url' }],
      },
    ],
    [
      'internal_docker',
      { 'image-uri': 'registry.internal/agent:7' },
      { source_revision_config: { image_uri: 'registry.internal/agent:7' } },
    ],
    [
      'internal_source',
      { config: '{"source_revision_config": {"source_tarball_path": "uploads/agent.tgz"}}' },
      { source_revision_config: { source_tarball_path: 'uploads/agent.tgz' } },
    ],
    ['internal_template', {}, { source_config: {}, source_revision_config: {} }],
  ];

  it.each(cases)('%s: creates without a repository look-up', async (source, given, body) => {
    const run = await runAction({
      'api-url': emu.url,
      'api-key': API_KEY,
      headers: `X-Tenant-Id: ${TENANT}`,
      name: `agent-${source}`,
      source,
      ...given,
    });

    expect(run.error).toBeUndefined();
    expect(run.exitCode).toBe(0);
    expect(emu.requests.map(requestLine)).toEqual([
      'GET /v2/deployments',
      'POST /v2/deployments',
      'GET /v2/deployments',
    ]);
    expect(emu.requests[1]?.body).toMatchObject({ name: `agent-${source}`, source, ...body });
    expect(run.outputs).toMatchObject({ created: 'true', 'repo-url': '', 'repo-ref': '' });
  });
});

describe('secrets as a JSON object', () => {
  it('sends them, masks the values and keeps the deployment output valid JSON', async () => {
    const run = await runAction(
      codehost({
        secrets: `{\n  "OPENAI_API_KEY": "${SECRET_A}",\n  "DB_PASSWORD": "${SECRET_B}"\n}`,
      }),
    );

    expect(run.exitCode).toBe(0);
    expect(emu.requests[2]?.body).toMatchObject({
      secrets: [
        { name: 'OPENAI_API_KEY', value: SECRET_A },
        { name: 'DB_PASSWORD', value: SECRET_B },
      ],
    });
    const deployment = JSON.parse(run.outputs.deployment ?? '') as { id: string };
    expect(deployment.id).toBe(emu.deployments[0]?.id);
    expect(run.stdout).not.toMatch(/^::add-mask::[{}]$/m);
    expectNoSecret(SENSITIVE, run);
  });
});

describe('config file', () => {
  it('reads a YAML file from the workspace, explicit inputs winning', async () => {
    const run = await runAction(
      codehost({ config: 'deploy/config.yml', 'agent-config-path': 'b.json' }),
      {
        files: {
          'deploy/config.yml': [
            'source_config:',
            '  build_on_push: false',
            '  resource_spec:',
            '    min_scale: 1',
            '    cpu: 0.5',
            '    labels: {team: agents}',
            'source_revision_config:',
            '  agent_config_path: a.json',
          ].join('\n'),
        },
      },
    );

    expect(run.exitCode).toBe(0);
    expect(emu.requests[2]?.body).toMatchObject({
      source_config: {
        build_on_push: false,
        resource_spec: { min_scale: 1, cpu: 0.5, labels: { team: 'agents' } },
      },
      source_revision_config: { agent_config_path: 'b.json' },
    });
  });
});

describe('dry run', () => {
  it('does every look-up, prints the redacted body and sends no POST', async () => {
    const run = await runAction(codehost({ 'dry-run': 'true', 'wait-for-ready': 'true' }));

    expect(run.exitCode).toBe(0);
    expect(emu.requests.map(requestLine)).toEqual([
      `GET /v1/integrations/forge/codehost/${INTEGRATION}/repos`,
      'GET /v2/deployments',
    ]);
    expect(emu.deployments).toHaveLength(0);
    expect(run.stdout).toContain('"repo_url": "https://git.example/Acme/Agent"');
    expect(run.stdout).toContain('"name": "OPENAI_API_KEY"');
    expect(run.stdout).toContain('"value": "***"');
    expect(run.outputs).toMatchObject({ created: 'false', 'repo-ref': 'trunk' });
    expect(run.outputs['deployment-id']).toBeUndefined();
    expect(run.summary).toContain('dry run');
    expectNoSecret(SENSITIVE, run);
  });
});

describe('dry run of an existing deployment', () => {
  it('reports it and does not wait, even when asked to', async () => {
    const existing = emu.seedDeployment({
      name: 'my-agent',
      source: 'codehost',
      status: 'AWAITING_DATABASE',
    });

    const run = await runAction(codehost({ 'dry-run': 'true', 'wait-for-ready': 'true' }));

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ 'deployment-id': existing.id, created: 'false' });
    expect(run.stdout).toContain("dry run: 'my-agent' exists, so nothing would be sent");
    expect(run.stdout).toContain('dry run: not waiting');
    expect(
      emu.requests.filter((request) => request.query.deployment_ids !== undefined),
    ).toHaveLength(0);
  });
});

describe('waiting', () => {
  it('polls deployment_ids until READY and reports the final state', async () => {
    emu.setOptions({ readyAfterPolls: 1 });

    const run = await runAction(codehost({ 'wait-for-ready': 'true' }));

    expect(run.error).toBeUndefined();
    expect(run.exitCode).toBe(0);
    const id = emu.deployments[0]?.id;
    const polls = emu.requests.filter((request) => request.query.deployment_ids !== undefined);
    expect(polls.map((request) => request.query.deployment_ids)).toEqual([id, id]);
    expect(run.outputs.status).toBe('READY');
    expect(run.outputs['active-revision-id']).toBe(emu.deployments[0]?.latest_revision_id);
    expect(run.stdout).toMatch(/waiting until live: status is AWAITING_DATABASE, not READY/);
    expect(run.summary).toContain('READY');
    expectNoSecret(SENSITIVE, run);
  });

  it('fails at once on AWAITING_DELETE, still reporting the id and status', async () => {
    emu.setOptions({ readyAfterPolls: 0, finalStatus: 'AWAITING_DELETE' });

    const run = await runAction(codehost({ 'wait-for-ready': 'true' }));

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain('AWAITING_DELETE');
    expect(run.outputs['deployment-id']).toBe(emu.deployments[0]?.id);
    expect(run.outputs.status).toBe('AWAITING_DELETE');
  });

  it('fails at wait-timeout, still reporting the id and last status', async () => {
    const run = await runAction(codehost({ 'wait-for-ready': 'true', 'wait-timeout': '1' }));

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/not live after 1\.0 s.*status is AWAITING_DATABASE/);
    expect(run.outputs['deployment-id']).toBe(emu.deployments[0]?.id);
    expect(run.outputs.status).toBe('AWAITING_DATABASE');
    expect(run.summary).toContain('failed');
  });
});

describe('a long wait in the log', () => {
  it('writes a line at least every heartbeat while nothing changes (short for the test; 30 s shipped)', async () => {
    const run = await runAction(codehost({ 'wait-for-ready': 'true', 'wait-timeout': '3' }), {
      env: { DEPLOY_AGENT_HEARTBEAT_MS: '500' },
    });

    expect(run.exitCode).toBe(1);
    const waiting = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('waiting until live: status is AWAITING_DATABASE'));
    // 3 s of an unchanged status, a line each 0.5 s: at least six (3 checks alone would make one).
    expect(waiting.length).toBeGreaterThanOrEqual(6);
    // A check slower than the heartbeat (a busy machine) says so.
    expect(
      waiting.every((line) =>
        / so far(; the service has not answered a status check for \d+\.\d s)?$/.test(line),
      ),
    ).toBe(true);
  });

  it('keeps the heartbeat while the service does not answer a status check', async () => {
    hangFirstCheck(emu);
    const run = await runAction(codehost({ 'wait-for-ready': 'true', 'wait-timeout': '4' }), {
      env: { DEPLOY_AGENT_HEARTBEAT_MS: '300' },
    });

    expect(run.exitCode).toBe(1);
    const checks = emu.requests.filter((request) => request.query.deployment_ids !== undefined);
    expect(checks).toHaveLength(1);
    // The check, 1 s in, hangs until the deadline 3 s later: a line each 0.3 s meanwhile, which
    // says the silence once it lasts a second.
    const hung = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('waiting until live: status is AWAITING_DATABASE'))
      .filter((line) => line.includes('; the service has not answered a status check for '));
    expect(hung.length).toBeGreaterThanOrEqual(4);
  });

  it('writes one line for an unchanged status without the heartbeat: not one per check', async () => {
    const run = await runAction(codehost({ 'wait-for-ready': 'true', 'wait-timeout': '4' }));

    expect(run.exitCode).toBe(1);
    const checks = emu.requests.filter((request) => request.query.deployment_ids !== undefined);
    expect(checks.length).toBeGreaterThanOrEqual(2);
    expect(
      run.stdout.split('\n').filter((line) => line.startsWith('waiting until live')),
    ).toHaveLength(1);
  });
});

describe('bad input fails before any request', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['unknown source', { source: 'docker' }, "input 'source'"],
    ['unparsable config', { config: '{"source_config": ' }, "input 'config'"],
    [
      'unknown config key',
      { config: 'source_config:\n  resource_spec:\n    min_scal: 1' },
      'source_config.resource_spec.min_scal',
    ],
    [
      'a deployment_type that is not a string',
      { config: 'source_config:\n  deployment_type: 3' },
      "input 'config': source_config.deployment_type: Invalid input: expected string, received number",
    ],
    ['non-uuid integration-id', { 'integration-id': 'not-a-uuid' }, "input 'integration-id'"],
    ['codehost without an integration id', { 'integration-id': '' }, "input 'integration-id'"],
    [
      'secret_references with codehost',
      { config: '{"secret_references": [{"name": "a", "secret_name": "b", "secret_key": "c"}]}' },
      'secret_references',
    ],
    ['external_docker without an image', { source: 'external_docker' }, "input 'image-uri'"],
    ['internal_docker without an image', { source: 'internal_docker' }, "input 'image-uri'"],
    ['internal_source without a tarball', { source: 'internal_source' }, 'source_tarball_path'],
    ['malformed secrets line', { secrets: `OPENAI_API_KEY ${SECRET_A}` }, "input 'secrets'"],
    ['http to a remote host', { 'api-url': 'http://deploy.example.com' }, "input 'api-url'"],
    ['zero wait-timeout', { 'wait-timeout': '0' }, "input 'wait-timeout'"],
    ['non-numeric wait-timeout', { 'wait-timeout': 'ten' }, "input 'wait-timeout'"],
    ['non-boolean wait-for-ready', { 'wait-for-ready': 'yes' }, "input 'wait-for-ready'"],
  ];

  it.each(cases)('%s', async (_title, given, named) => {
    const run = await runAction(codehost(given));

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain(named);
    expect(emu.requests).toHaveLength(0);
    expect(run.stdout).not.toMatch(/\n\s+at /);
    expectNoSecret(SENSITIVE, run);
  });
});

describe('an input without its INPUT_ variable (a run outside a runner)', () => {
  it('reads as its declared default, whichever input it is', async () => {
    // source (codehost), repository (the run's), github-token and the rest: their defaults.
    const run = await runAction(codehost(), { onlyGiven: true });

    expect(run.error).toBeUndefined();
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ created: 'true', 'deployment-id': emu.deployments[0]?.id });
    expect(emu.deployments[0]?.source).toBe('codehost');
  });

  it('leaves a required input without a value, named before any request', async () => {
    const given = codehost();
    delete given.name;
    const run = await runAction(given, { onlyGiven: true });

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain("input 'name':");
    expect(emu.requests).toEqual([]);
  });
});

describe('service failures', () => {
  it('accepts any 2xx and shows a 422 field list with method, path and status', async () => {
    emu.inject({
      method: 'POST',
      status: 422,
      body: {
        detail: [
          {
            loc: ['body', 'source_config', 'resource_spec', 'cpu'],
            msg: 'Input should be less than or equal to 8',
            type: 'less_than_equal',
          },
        ],
      },
    });

    const run = await runAction(codehost());

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain('POST /v2/deployments failed: 422');
    expect(run.error).toContain(
      'body.source_config.resource_spec.cpu: Input should be less than or equal to 8',
    );
  });

  it('shows the resolved repository and ref in the summary of a failed create (issue 46)', async () => {
    emu.inject({ method: 'POST', status: 422, body: { detail: 'quota exceeded' } });

    const run = await runAction(codehost());

    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('https://git.example/Acme/Agent (default branch trunk)');
    const [table] = whatAReaderSees(run.summary ?? '').tables;
    const row = (label: string) => table?.find(([cell]) => cell === label)?.[1];
    expect(row('Repository')).toBe('https://git.example/Acme/Agent');
    expect(row('Ref')).toBe('trunk');
    expect(row('Id')).toBe('—');
  });

  it('names the api-key input on 401', async () => {
    const run = await runAction(codehost({ 'api-key': 'wrong-key-123456' }));

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain('401');
    expect(run.error).toContain('api-key');
    expectNoSecret(['wrong-key-123456'], run);
  });
});
