/**
 * End-to-end, no secret anywhere when answers echo them: the bundle (dist/index.js) on a pull
 * request, against the service's emulator (serving each deployment's address) and GitHub's.
 * An agent whose every answer echoes the request's headers and query, and a service whose
 * error answers hold every secret it was given: the log, the outputs, the summary, the pull
 * request comment, the GitHub deployment and its statuses hold none of them, for one
 * deployment and for a manifest, and the runner is told every value before the first line.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator } from '../emulator/emulator.ts';
import { type GitHubEmulator } from '../emulator/github.ts';
import { AGENT_REPO_URL, INTEGRATION, codehostStep } from '../support/fixtures.ts';
import { PR_HEAD, gitHubStep, pullRequestEvent } from '../support/github-step.ts';
import { expectMaskedBefore, expectMaskedFirst, expectNoSecret } from '../support/no-secret.ts';
import { startPullRequestWorld } from '../support/pull-request-world.ts';
import { QUICK } from '../support/quick.ts';
import { printed, runAction, type ActionRun, KILL_AFTER_MS } from '../support/run-action.ts';

const API_KEY = 'sk-no-secret-service-key-0123456789';
const TENANT = 'tenant-no-secret-4f1d2c3b';
const OPENAI = 'sk-no-secret-openai-9876543210';
const TAVILY = 'tvly-no-secret-abcdef012345';
const AGENT_KEY = 'agent-key-no-secret-13579bdf';
const TRACE = 'trace-token-no-secret-2468ace0';
const TICKET = 'ticket-no-secret-0f1e2d3c4b';
/** The step's own secrets: the api key, the `headers` value, the deployment's secrets. */
const STEP_SECRETS = [API_KEY, TENANT, OPENAI, TAVILY];
/** The health check's: its header values and its query value. */
const CHECK_SECRETS = [AGENT_KEY, TRACE, TICKET];
const SECRETS = [...STEP_SECRETS, ...CHECK_SECRETS];
/** What a service that echoes everything it holds answers. */
const ECHOED = { detail: `refused: api key ${API_KEY}, tenant ${TENANT}, ${OPENAI} ${TAVILY}` };
/** An agent that echoes every request and wants another key: 401 each time, the request echoed. */
const ECHO_REFUSING = { echo: true, requireHeader: { name: 'X-Agent-Key', value: 'other-key' } };

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  ({ emu, gh } = await startPullRequestWorld(API_KEY, {
    addresses: true,
    readyAfterPolls: 1,
    requiredHeaders: { 'x-tenant-id': TENANT },
  }));
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

/** The preview `name`, live on `commit` (the pull request's head), served at its own address. */
function livePreview(name: string, commit = PR_HEAD): void {
  emu.seedDeployment({
    name,
    source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
    source_revision_config: {
      repo_ref: 'feature',
      agent_config_path: 'agent.json',
      repo_commit_sha: commit,
    },
  });
}

/** The step on pull request 7, every secret given, waiting, checking `/ok?ticket=…`. */
function deploy(
  inputs: Record<string, string> = {},
  files: Record<string, string> = {},
): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    codehostStep(emu, {
      'api-key': API_KEY,
      headers: `X-Tenant-Id: ${TENANT}`,
      secrets: `OPENAI_API_KEY=${OPENAI}\nTAVILY_API_KEY=${TAVILY}`,
      'agent-config-path': 'agent.json',
      'wait-for-ready': 'true',
      'wait-timeout': '60',
      'health-check': `/ok?ticket=${TICKET}`,
      'health-check-headers': `X-Agent-Key: ${AGENT_KEY}\nX-Trace: ${TRACE}`,
      ...inputs,
    }),
    { environment: 'preview-pr-7', 'pr-comment': 'true' },
    { event: pullRequestEvent(), env: QUICK, files, killAfterMs: KILL_AFTER_MS },
  );
  return runAction(given, options);
}

const comment = () => gh.comments.find((c) => c.user.login === 'github-actions[bot]')?.body ?? '';
const statuses = () => gh.deployments.flatMap((record) => record.statuses);

describe('one deployment', () => {
  it('an agent that echoes every header and the query: none of their values anywhere', async () => {
    livePreview('my-agent');
    emu.serveAddress('my-agent', ECHO_REFUSING);

    const run = await deploy();

    expect(run.exitCode, printed(run)).toBe(1);
    expect(emu.addressRequests.map((request) => request.status)).toEqual([401, 401, 401]);
    // Every value was sent, and echoed back.
    const sent = emu.addressRequests[0];
    expect(sent?.query.ticket).toBe(TICKET);
    expect(sent?.headers).toMatchObject({ 'x-agent-key': AGENT_KEY, 'x-trace': TRACE });
    // The echo reached every place a user reads, each value hidden.
    expect(printed(run)).toContain('the answer begins: {"query":{"ticket":"***"}');
    expect(comment()).toContain('{"query":{"ticket":"***"}');
    expect(comment()).toContain('"x-agent-key":"***","x-trace":"***"');
    expect(statuses().at(-1)?.state).toBe('failure');
    expect(statuses().at(-1)?.description).toContain('{"query":{"ticket":"***"}');
    expectNoSecret(SECRETS, run, gh);
    expectMaskedFirst(run, SECRETS);
  });

  it('an answer holding a step secret across the excerpt’s cut: hidden whole, no part of it shown', async () => {
    livePreview('my-agent');
    // The deployment secret starts at character 175 of the answer: the 200-character excerpt
    // would end in its first 25 characters, which no whole-value redaction afterwards finds.
    const body = `${'x'.repeat(175)}${OPENAI} ${API_KEY}`;
    emu.scriptAddress('my-agent', [{ status: 503, times: Infinity, body }]);

    const run = await deploy({ 'wait-for-ready': 'false' });

    expect(emu.addressRequests.length, printed(run)).toBeGreaterThan(0);
    expect(printed(run)).toContain(`the answer begins: ${'x'.repeat(175)}*** ***`);
    expect(comment()).toContain(`${'x'.repeat(175)}*** ***`);
    expectNoSecret(SECRETS, run, gh);
  });

  it('a service whose error answers hold every secret it was given: none of them anywhere', async () => {
    // Live on an older commit: the step waits, and its check of the deployment is refused.
    livePreview('my-agent', '3'.repeat(40));
    const checks = { deployment_ids: /./ };
    emu.inject(
      { method: 'GET', path: '/v2/deployments', status: 500, body: ECHOED, times: 1 },
      { method: 'GET', path: '/v2/deployments', query: checks, status: 422, body: ECHOED },
    );

    const run = await deploy();

    expect(run.exitCode, printed(run)).toBe(1);
    expect(printed(run)).toMatch(/retrying GET \/v2\/deployments .*: 500 Internal Server Error/);
    expect(run.error).toContain('refused: api key ***, tenant ***, *** ***');
    expect(comment()).toContain('refused: api key \\*\\*\\*, tenant \\*\\*\\*');
    expect(statuses().at(-1)?.description).toContain('refused: api key ***, tenant ***');
    expectNoSecret(SECRETS, run, gh);
    expectMaskedFirst(run, SECRETS);
  });
});

const TICKET_FAST = 'ticket-fast-no-secret-5a6b7c8d';
const TICKET_REFUSED = 'ticket-refused-no-secret-9e8d7c';
const MANIFEST = `agents:
  fast:
    agent-config-path: agent.json
    secrets: [OPENAI_API_KEY]
    health-check: /ok?ticket=${TICKET_FAST}
  refused:
    agent-config-path: agent.json
    health-check: /ok?ticket=${TICKET_REFUSED}
`;
/** The step's secrets and its health check's headers (the manifest's checks have their queries). */
const MANIFEST_STEP_SECRETS = [...STEP_SECRETS, AGENT_KEY, TRACE];
const MANIFEST_SECRETS = [...MANIFEST_STEP_SECRETS, TICKET_FAST, TICKET_REFUSED];

/** The step with the manifest: its agents' checks in the manifest, the headers the step's. */
function deployManifest(): Promise<ActionRun> {
  return deploy(
    { name: '', agents: 'deploy/agents.yaml', 'health-check': '' },
    { 'deploy/agents.yaml': MANIFEST },
  );
}

describe('a manifest', () => {
  it('agents that echo every header and the query: none of their values anywhere', async () => {
    livePreview('fast');
    livePreview('refused');
    emu.serveAddress('fast', { echo: true, slowStartRequests: 2 });
    emu.serveAddress('refused', ECHO_REFUSING);

    const run = await deployManifest();

    expect(run.exitCode, printed(run)).toBe(1);
    const answered = (name: string) =>
      emu.addressRequests.filter((r) => r.name === name).map((r) => r.status);
    expect(answered('fast')).toEqual([503, 503, 200]);
    expect(answered('refused')).toEqual([401, 401, 401]);
    expect(emu.addressRequests.find((r) => r.name === 'fast')?.query.ticket).toBe(TICKET_FAST);
    expect(printed(run)).toContain('{"query":{"ticket":"***"}');
    expect(comment()).toContain('{"query":{"ticket":"***"}');
    expect(statuses().at(-1)?.state).toBe('failure');
    expectNoSecret(MANIFEST_SECRETS, run, gh);
  });

  it('a service whose error answers hold every secret it was given: none of them anywhere', async () => {
    emu.inject({ method: 'POST', path: '/v2/deployments', status: 422, body: ECHOED, times: 1 });

    const run = await deployManifest();

    expect(run.exitCode, printed(run)).toBe(1);
    expect(run.error).toContain('refused: api key ***, tenant ***, *** ***');
    expect(comment()).toContain('refused: api key \\*\\*\\*, tenant \\*\\*\\*');
    expectNoSecret(MANIFEST_SECRETS, run, gh);
  });

  it("tells the runner every secret of the step and of each agent's check before printing it", async () => {
    livePreview('fast');
    livePreview('refused');

    const run = await deployManifest();

    expect(run.exitCode, printed(run)).toBe(0);
    expectMaskedFirst(run, MANIFEST_STEP_SECRETS);
    expectMaskedBefore(run, TICKET_FAST, '[fast]');
    expectMaskedBefore(run, TICKET_REFUSED, '[refused]');
    expectNoSecret(MANIFEST_SECRETS, run, gh);
  });
});
