/**
 * End-to-end under faults: the bundled action under Node 24 against an
 * emulator that drops, races, echoes secrets and answers badly. Each test
 * checks what the user sees: the exit code, the message, the outputs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  printed,
  runAction,
  startAction,
  type ActionRun,
  KILL_AFTER_MS,
} from '../support/run-action.ts';
import { INTEGRATION, codehostStep } from '../support/fixtures.ts';
import { expectNoSecret } from '../support/no-secret.ts';

const API_KEY = 'key-5a4b3c2d1e0f9988';
const SECRET = 'sk-live-faults-7766554433';
const TENANT = 'tenant-77-secret-header';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: API_KEY });
  emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent' }]);
});

afterEach(async () => {
  await emu.close();
});

function step(extra: Record<string, string> = {}): Record<string, string> {
  return codehostStep(emu, { 'api-key': API_KEY, secrets: `OPENAI_API_KEY=${SECRET}`, ...extra });
}

const posts = () => emu.requests.filter((request) => request.method === 'POST');

function expectOneSentence(run: ActionRun): void {
  expect(run.exitCode).toBe(1);
  expect(run.error).toBeDefined();
  expect(printed(run)).not.toMatch(/\n\s+at [\w.<>]+ \(/);
  expect(printed(run)).not.toContain('file://');
}

describe('never two deployments from one name', () => {
  it('uses the deployment a create committed before the connection dropped', async () => {
    emu.inject({ method: 'POST', drop: 'after' });

    const run = await runAction(step());

    expect(run.exitCode).toBe(0);
    expect(emu.deployments).toHaveLength(1);
    expect(posts()).toHaveLength(1);
    expect(run.outputs['deployment-id']).toBe(emu.deployments[0]?.id);
    expect(run.stdout).toMatch(/may or may not have created 'my-agent'/);
  });

  it('four parallel runs on a service with unique names make one deployment and all report it', async () => {
    // All four reach their POST before the first is stored, however busy the machine: the
    // emulator holds each create until four have arrived (a guessed delay lost that race).
    emu.setOptions({ uniqueNames: true, createBarrier: 4 });

    const runs = await Promise.all(
      [1, 2, 3, 4].map(() => startAction(step(), { killAfterMs: KILL_AFTER_MS }).finished),
    );

    expect(runs.map((run) => run.exitCode)).toEqual([0, 0, 0, 0]);
    expect(emu.deployments).toHaveLength(1);
    const id = emu.deployments[0]?.id;
    expect(runs.map((run) => run.outputs['deployment-id'])).toEqual([id, id, id, id]);
    expect(runs.filter((run) => run.outputs.created === 'true')).toHaveLength(1);
    // Every run raced to a POST: three were told 409 and reused it.
    expect(posts()).toHaveLength(4);
  });
});

describe('cancellation', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops waiting at once on %s, keeps the outputs and says it was cancelled',
    async (signal) => {
      const started = startAction(step({ 'wait-for-ready': 'true' }), {
        killAfterMs: KILL_AFTER_MS,
      });
      for (let i = 0; i < 500 && !started.stdoutSoFar().includes('waiting until live'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      started.child.kill(signal);

      const run = await started.finished;

      expect(run.signal).toBeNull();
      expect(run.exitCode).toBe(1);
      expect(run.error).toMatch(/cancelled while deployment .* was AWAITING_DATABASE/);
      expect(run.outputs['deployment-id']).toBe(emu.deployments[0]?.id);
      expect(run.outputs.status).toBe('AWAITING_DATABASE');
      expect(run.summary).toContain('cancelled');
    },
  );
});

describe('secrets under failure', () => {
  it('redacts secret values the service echoes inside an error body', async () => {
    emu.inject({
      method: 'POST',
      status: 400,
      body: { detail: `secret OPENAI_API_KEY=${SECRET} rejected for tenant ${TENANT}` },
    });

    const run = await runAction(step({ headers: `X-Tenant-Id: ${TENANT}` }));

    expectOneSentence(run);
    expect(run.error).toContain('POST /v2/deployments failed: 400');
    expect(run.error).toContain('(service said: secret *** rejected for tenant ***)');
    expectNoSecret([API_KEY, SECRET, TENANT], run);
  });

  it('prints no secret in debug mode, through retries and a wait', async () => {
    emu.setOptions({ readyAfterPolls: 0 });
    emu.inject({ status: 503, body: { detail: `overloaded ${SECRET}` } });

    const run = await runAction(
      step({ headers: `X-Tenant-Id: ${TENANT}`, 'wait-for-ready': 'true' }),
      {
        env: { RUNNER_DEBUG: '1' },
      },
    );

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(
      /retrying GET \/v1\/integrations\/forge\/codehost\/.* \(attempt 2 of 5\): 503/,
    );
    expect(run.stdout).toContain('::debug::');
    expectNoSecret([API_KEY, SECRET, TENANT], run);
  });
});

describe('hostile answers', () => {
  it('invalid JSON on a 200', async () => {
    emu.inject({ path: '/v2/deployments', method: 'GET', rawBody: '{"resources": [' });

    const run = await runAction(step());

    expectOneSentence(run);
    expect(run.error).toBe(
      'GET /v2/deployments failed: 200 answer is not JSON (application/json, 15 bytes, it ends early)',
    );
    expect(posts()).toHaveLength(0);
  });

  it('an HTML page on a 200: named by its title, never echoed', async () => {
    const page =
      '<!doctype html><html><head><title>Sign in</title></head><body><h1>Welcome back</h1></body></html>';
    emu.inject({
      path: '/v2/deployments',
      status: 200,
      body: page,
      headers: { 'content-type': 'text/html' },
    });

    const run = await runAction(step());

    expectOneSentence(run);
    expect(run.error).toBe(
      `GET /v2/deployments failed: 200 answer is not JSON (text/html, ${page.length} bytes, it does not start like JSON, page titled 'Sign in')`,
    );
  });

  it('a listed deployment without an id', async () => {
    emu.seedDeployment({ name: 'my-agent-old' });
    emu.inject({
      path: '/v2/deployments',
      bodyTransform: (body) => {
        const page = body as { resources: Record<string, unknown>[] };
        delete page.resources[0]?.id;
        return page;
      },
    });

    const run = await runAction(step());

    expectOneSentence(run);
    expect(run.error).toMatch(
      /^GET \/v2\/deployments failed: 200 answer does not match the service's schema: resources\[0\]\.id: /,
    );
    expect(posts()).toHaveLength(0);
  });

  it('a list whose offset never stops advancing ends at the page cap', async () => {
    emu.setOptions({ pagination: 'never-ending' });

    const run = await runAction(step());

    expectOneSentence(run);
    expect(run.error).toMatch(/no end of the list after 1000 pages/);
    expect(emu.requests.filter((request) => request.path === '/v2/deployments')).toHaveLength(1000);
    expect(posts()).toHaveLength(0);
  });
});

describe('remedies', () => {
  it('404 on the repository listing names the integration-id input', async () => {
    const run = await runAction(step({ 'integration-id': '00000000-0000-4000-8000-000000000000' }));

    expectOneSentence(run);
    expect(run.error).toMatch(/404 Not Found.*\nCheck the integration-id input/s);
  });

  it('403 points at permissions and the headers input, with the request id', async () => {
    emu.inject({
      status: 403,
      body: { detail: 'Forbidden for this workspace' },
      headers: { 'x-request-id': 'req-42' },
    });

    const run = await runAction(step());

    expectOneSentence(run);
    expect(run.error).toContain('403 Forbidden (service said: Forbidden for this workspace)');
    expect(run.error).toContain('headers input');
    expect(run.error).toContain('request id: req-42');
  });
});
