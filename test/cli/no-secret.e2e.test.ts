/**
 * End-to-end, no secret anywhere when answers echo them: dist/cli.js against the service's
 * emulator (serving each deployment's address). An agent whose every answer echoes the
 * request's headers and query, and a service whose error answers hold every secret it was
 * given: stderr, `--json`, `--events` and the `--dotenv` file hold none of them, for one
 * deployment and for a manifest (`deploy --agents`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { QUICK } from '../support/quick.ts';
import { runCli, type CliRun } from './run-cli.ts';
import { KILL_AFTER_MS } from '../support/run-action.ts';

const KEY = 'cli-no-secret-service-key-0123456789';
const TENANT = 'cli-tenant-no-secret-4f1d2c3b';
const OPENAI = 'sk-cli-no-secret-openai-98765432';
const AGENT_KEY = 'cli-agent-key-no-secret-13579b';
const TRACE = 'cli-trace-no-secret-2468ace0';
const TICKET = 'cli-ticket-no-secret-0f1e2d3c';
const SECRETS = [KEY, TENANT, OPENAI, AGENT_KEY, TRACE, TICKET];
/** What a service that echoes everything it holds answers. */
const ECHOED = { detail: `refused: api key ${KEY}, tenant ${TENANT}, secret ${OPENAI}` };
/** An agent that echoes every request and wants another key: 401 each time, the request echoed. */
const ECHO_REFUSING = { echo: true, requireHeader: { name: 'X-Agent-Key', value: 'other-key' } };
const IMAGE = ['--source', 'external_docker', '--image-uri', 'reg/agent:1'];
/** Every secret given as the command takes them: the values from the environment. */
const GIVEN = [
  '--header',
  'X-Tenant-Id',
  '--secret',
  'OPENAI_API_KEY',
  '--health-check-header',
  'X-Agent-Key',
  '--health-check-header',
  'X-Trace',
];
const OUTPUTS = ['--dotenv', 'deploy.env', '--wait', '--wait-timeout', '60'];

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({
    apiKey: KEY,
    addresses: true,
    readyAfterPolls: 1,
    requiredHeaders: { 'x-tenant-id': TENANT },
  });
});

afterEach(async () => {
  await emu.close();
});

/** `deploy-agent deploy` with every secret, `args` after, `--json` or `--events`. */
function deploy(args: string[], files: Record<string, string> = {}): Promise<CliRun> {
  return runCli(['deploy', ...IMAGE, ...GIVEN, ...OUTPUTS, ...args], {
    env: {
      DEPLOY_API_URL: emu.url,
      DEPLOY_API_KEY: KEY,
      X_TENANT_ID: TENANT,
      OPENAI_API_KEY: OPENAI,
      X_AGENT_KEY: AGENT_KEY,
      X_TRACE: TRACE,
      ...QUICK,
    },
    files,
    read: ['deploy.env'],
    killAfterMs: KILL_AFTER_MS,
  });
}

const single = ['--name', 'agent', '--health-check', `/ok?ticket=${TICKET}`];
const answered = (name: string) =>
  emu.addressRequests.filter((r) => r.name === name).map((r) => r.status);

describe.each([['--json'], ['--events']])('deploy %s', (format) => {
  it('an agent that echoes every header and the query: none of their values anywhere', async () => {
    emu.setOptions({ addressBehaviour: ECHO_REFUSING });

    const run = await deploy([...single, format]);

    expect(run.exitCode, run.stderr).toBe(1);
    expect(answered('agent')).toEqual([401, 401, 401]);
    expect(emu.addressRequests[0]?.query.ticket).toBe(TICKET);
    expect(emu.addressRequests[0]?.headers).toMatchObject({
      'x-agent-key': AGENT_KEY,
      'x-trace': TRACE,
    });
    expect(run.stderr).toContain('{"query":{"ticket":"***"}');
    expect(run.stderr).toContain('"x-agent-key":"***","x-trace":"***"');
    expect(run.stdout).toContain('401');
    expect(run.files['deploy.env']).toBeDefined();
    expectNoSecret(SECRETS, run);
  });

  it('a service whose error answers hold every secret it was given: none of them anywhere', async () => {
    emu.inject(
      { method: 'GET', path: '/v2/deployments', status: 500, body: ECHOED, times: 1 },
      { method: 'POST', path: '/v2/deployments', status: 422, body: ECHOED },
    );

    const run = await deploy([...single, format]);

    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/retrying GET \/v2\/deployments .*500 Internal Server Error/);
    expect(run.stderr).toContain('refused: api key ***, tenant ***, secret ***');
    expect(run.stdout).toContain('refused: api key ***, tenant ***, secret ***');
    expectNoSecret(SECRETS, run);
  });
});

const TICKET_FAST = 'cli-ticket-fast-no-secret-5a6b7c';
const TICKET_REFUSED = 'cli-ticket-refused-no-secret-9e8d';
const MANIFEST = `agents:
  fast:
    health-check: /ok?ticket=${TICKET_FAST}
  refused:
    health-check: /ok?ticket=${TICKET_REFUSED}
`;
const MANIFEST_SECRETS = [...SECRETS.filter((s) => s !== TICKET), TICKET_FAST, TICKET_REFUSED];
const manifest = ['--agents', 'agents.yaml'];

/** The deployment `name` as an earlier deploy of the same image left it. */
function existing(name: string): void {
  emu.seedDeployment({
    name,
    source: 'external_docker',
    source_revision_config: { image_uri: 'reg/agent:1', repo_commit_sha: null },
  } as never);
}

describe.each([['--json'], ['--events']])('deploy --agents %s', (format) => {
  it('agents that echo every header and the query: none of their values anywhere', async () => {
    existing('fast');
    existing('refused');
    emu.serveAddress('fast', { echo: true, slowStartRequests: 2 });
    emu.serveAddress('refused', ECHO_REFUSING);

    const run = await deploy([...manifest, format], { 'agents.yaml': MANIFEST });

    expect(run.exitCode, run.stderr).toBe(1);
    expect(answered('fast')).toEqual([503, 503, 200]);
    expect(answered('refused')).toEqual([401, 401, 401]);
    expect(emu.addressRequests.find((r) => r.name === 'fast')?.query.ticket).toBe(TICKET_FAST);
    expect(run.stderr).toContain('{"query":{"ticket":"***"}');
    expect(run.stderr).toContain('"x-agent-key":"***","x-trace":"***"');
    expectNoSecret(MANIFEST_SECRETS, run);
  });

  it('a service whose error answers hold every secret it was given: none of them anywhere', async () => {
    emu.inject({ method: 'POST', path: '/v2/deployments', status: 422, body: ECHOED });

    const run = await deploy([...manifest, format], { 'agents.yaml': MANIFEST });

    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stderr).toContain('refused: api key ***, tenant ***, secret ***');
    expect(run.stdout).toContain('refused: api key ***, tenant ***, secret ***');
    expectNoSecret(MANIFEST_SECRETS, run);
  });
});

describe('a secret given where a name belongs', () => {
  it.each([
    [
      'as NAME=VALUE',
      `OPENAI_API_KEY=${OPENAI}`,
      /--secret takes a name, not NAME=VALUE: export OPENAI_API_KEY, then pass --secret OPENAI_API_KEY/,
    ],
    [
      'as its value',
      OPENAI,
      /--secret wants a secret name .*the text given, 32 characters, is not one \(not shown: it may be a value\)/,
    ],
  ])('%s: a usage error before any request that never shows it', async (_said, given, said) => {
    const run = await runCli(['deploy', '--name', 'agent', ...IMAGE, '--secret', given, '--json'], {
      env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY },
    });

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(said);
    expect(emu.requests).toEqual([]);
    expectNoSecret([OPENAI, KEY], run);
  });
});
