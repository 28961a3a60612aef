/**
 * The deploy flow in-process, with the real HTTP client against the
 * emulator and a fake clock (no real waiting).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/service/client.ts';
import type { RetryPolicy } from '../../../src/service/retry.ts';
import { buildCreateRequest, deploy } from '../../../src/run/decisions/deploy.ts';
import { resolveRepository } from '../../../src/run/decisions/find.ts';
import type { RunDependencies } from '../../../src/run/ports/dependencies.ts';
import { ActionError } from '../../../src/common/errors.ts';
import { ServiceError } from '../../../src/service/errors.ts';
import { readDeploySpec } from '../../support/plan-inputs.ts';
import type { CodehostSpec, DeploySpec } from '../../../src/inputs/deploy-spec.ts';
import { Service } from '../../../src/service/endpoints.ts';
import type { Emulator } from '../../emulator/emulator.ts';
import { reader } from '../../support/action.ts';
import type { FakeClock, MemoryLogger } from '../../support/clock.ts';
import { startFlow } from '../../support/flow.ts';
import { INTEGRATION } from '../../support/fixtures.ts';

const RETRY: RetryPolicy = {
  attempts: 4,
  initialDelayMs: 100,
  maxDelayMs: 1_000,
  maxRetryAfterMs: 5_000,
  requestTimeoutMs: 2_000,
};

let emu: Emulator;
let clock: FakeClock;
let logger: MemoryLogger;
let dependencies: RunDependencies;
let client: ServiceClient;
let service: Service;

beforeEach(async () => {
  ({ emu, clock, logger, client, service, dependencies } = await startFlow({ retry: RETRY }));
  emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent', default_branch: 'main' }]);
});

afterEach(async () => {
  await emu.close();
});

function plan(given: Record<string, string> = {}): DeploySpec {
  return readDeploySpec(
    reader({ 'api-url': emu.url, name: 'app', 'integration-id': INTEGRATION, ...given }),
    {
      workspace: process.cwd(),
    },
  );
}

const posts = () => emu.requests.filter((request) => request.method === 'POST');

describe('Service.list (deploy-agent list)', () => {
  it('stops at the limit, the last page only as large as what is left', async () => {
    emu.seedDeployments(250, (i) => ({ name: `app-${i}` }));
    const { deployments, more } = await service.list({ name_contains: 'app' }, 120);
    expect(deployments).toHaveLength(120);
    expect(more).toBe(false);
    expect(emu.requests.map((request) => [request.query.limit, request.query.offset])).toEqual([
      ['100', '0'],
      ['20', '100'],
    ]);
  });

  it('asks one more, only when probing, to say whether the list goes on past the limit', async () => {
    emu.seedDeployments(5, (i) => ({ name: `app-${i}` }));
    expect((await service.list({}, 5, { probe: true })).more).toBe(false);
    expect(emu.requests.map((request) => request.query.limit)).toEqual(['5', '1']);

    emu.seedDeployment({ name: 'app-5' });
    expect((await service.list({}, 5, { probe: true })).more).toBe(true);
    emu.requests.length = 0;
    expect((await service.list({}, 5)).more).toBe(false);
    expect(emu.requests).toHaveLength(1);
  });

  it('ends at a short page, and takes an offset that does not advance as the end, with a warning', async () => {
    emu.seedDeployments(150, (i) => ({ name: `app-${i}` }));
    expect((await service.list({}, 1_000)).deployments).toHaveLength(150);
    expect(emu.requests).toHaveLength(2);

    emu.requests.length = 0;
    emu.setOptions({ pagination: 'offset-stuck' });
    expect((await service.list({}, 1_000)).deployments).toHaveLength(100);
    expect(emu.requests).toHaveLength(1);
    expect(logger.text).toMatch(/does not advance/);
  });

  it('stops at the limit when the service never ends the list', async () => {
    emu.setOptions({ pagination: 'never-ending' });
    expect((await service.list({}, 250)).deployments).toHaveLength(250);
    expect(emu.requests).toHaveLength(3);
  });
});

describe('Service.findByName', () => {
  it('matches the exact, case-sensitive name only', async () => {
    emu.seedDeployment({ name: 'app-staging' });
    emu.seedDeployment({ name: 'App' });
    emu.seedDeployment({ name: 'my-app' });

    expect(await service.findByName('app')).toEqual([]);
    const exact = emu.seedDeployment({ name: 'app' });
    expect((await service.findByName('app')).map((d) => d.id)).toEqual([exact.id]);
  });

  it('URL-encodes names and matches them exactly', async () => {
    const name = 'agent & co + 100% / ünï 🚀';
    emu.seedDeployment({ name: `${name} (old)` });
    const exact = emu.seedDeployment({ name });

    const found = await service.findByName(name);

    expect(found.map((d) => d.id)).toEqual([exact.id]);
    expect(emu.requests[0]?.query.name_contains).toBe(name);
  });

  it('ends the list at a short page without reading further', async () => {
    emu.seedDeployments(100, (i) => ({ name: `app-${i}` }));

    expect(await service.findByName('app')).toEqual([]);
    // 100 partial matches: one full page, then an empty one.
    expect(emu.requests.map((request) => request.query.offset)).toEqual(['0', '100']);
  });

  it('stops at the page cap when the service never ends the list', async () => {
    emu.setOptions({ pagination: 'never-ending' });

    const capped = new Service(client, logger, { maxPages: 7 });
    const error = await capped.findByName('app').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ActionError);
    expect((error as Error).message).toMatch(/no end of the list after 7 pages/);
    expect(emu.requests).toHaveLength(7);
  });

  it.each(['offset-stuck', 'offset-backwards', 'offset-negative'] as const)(
    'takes an offset that does not advance (%s) as the end of the list',
    async (pagination) => {
      emu.seedDeployments(150, (i) => ({ name: `app-${i}` }));
      emu.setOptions({ pagination });

      expect(await service.findByName('app')).toEqual([]);
      expect(emu.requests.length).toBeLessThanOrEqual(2);
      expect(logger.text).toMatch(/does not advance/);
    },
  );

  it('scans every item of a page larger than the limit', async () => {
    emu.seedDeployments(150, (i) => ({ name: `app-${i}` }));
    const exact = emu.seedDeployment({ name: 'app' });
    emu.setOptions({ pagination: 'oversized' });

    expect((await service.findByName('app')).map((d) => d.id)).toEqual([exact.id]);
  });
});

describe('resolveRepository', () => {
  it('names the integration-id input when the service does not know the integration', async () => {
    const other = plan({
      'integration-id': '00000000-0000-4000-8000-000000000000',
    }) as CodehostSpec;

    const error = await resolveRepository(service, other).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ServiceError);
    expect((error as Error).message).toMatch(/404/);
    expect((error as Error).message).toMatch(/integration-id/);
  });
});

describe('buildCreateRequest', () => {
  it('takes repo_url, integration_id and the default branch from the resolved repository', async () => {
    const codehost = plan() as CodehostSpec;
    const repository = await resolveRepository(service, codehost);

    expect(buildCreateRequest(codehost, repository)).toEqual({
      name: 'app',
      source: 'codehost',
      source_config: {
        integration_id: repository.host_integration_id,
        repo_url: repository.url,
        build_on_push: true,
      },
      source_revision_config: { repo_ref: 'main' },
      secrets: [],
    });
  });

  it('builds on push unless config says otherwise, for codehost only', async () => {
    const off = plan({ config: 'source_config:\n  build_on_push: false\n' }) as CodehostSpec;
    const docker = plan({ source: 'external_docker', 'image-uri': 'registry.example/agent:1' });

    expect(
      buildCreateRequest(off, await resolveRepository(service, off)).source_config.build_on_push,
    ).toBe(false);
    expect(buildCreateRequest(docker).source_config).not.toHaveProperty('build_on_push');
  });

  it('keeps a repo_ref set in config over the default branch', async () => {
    const codehost = plan({
      config: '{"source_revision_config": {"repo_ref": "v2"}}',
    }) as CodehostSpec;
    const repository = await resolveRepository(service, codehost);

    expect(buildCreateRequest(codehost, repository).source_revision_config.repo_ref).toBe('v2');
  });
});

describe('deploy', () => {
  it('looks the name up after a dropped POST that did nothing, then creates it once', async () => {
    emu.inject({ method: 'POST', drop: 'before' });

    const result = await deploy(plan(), dependencies);

    expect(result.created).toBe(true);
    expect(emu.deployments).toHaveLength(1);
    expect(posts()).toHaveLength(2);
    expect(emu.requests.map((request) => request.method)).toEqual([
      'GET', // repos
      'GET', // look-up
      'POST', // dropped
      ...['GET', 'GET', 'GET', 'GET'], // looked up over the settle window: not there
      'POST',
      'GET', // the name looked up once more after the create
    ]);
  });

  it('answers a 409 from a concurrent run with a look-up and reuse', async () => {
    emu.setOptions({ uniqueNames: true, createDelayMs: 50 });
    const [a, b] = await Promise.all([deploy(plan(), dependencies), deploy(plan(), dependencies)]);

    expect(emu.deployments).toHaveLength(1);
    expect(a.deployment?.id).toBe(emu.deployments[0]?.id);
    expect(b.deployment?.id).toBe(emu.deployments[0]?.id);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(logger.text).toMatch(/409/);
  });

  it('creates once when a POST times out and a service with unique names commits it late', async () => {
    // The fake clock ends the settle window before the late commit, so the retried POST is
    // stored first and the late one is refused: once only where the service enforces names.
    emu.setOptions({ uniqueNames: true });
    const impatient = new ServiceClient({
      baseUrl: emu.url,
      headers: {},
      retry: { ...RETRY, requestTimeoutMs: 150 },
      clock,
      logger,
    });
    emu.inject({ method: 'POST', delayMs: 400 });

    const result = await deploy(plan(), {
      ...dependencies,
      service: new Service(impatient, logger),
    });
    // Once the late POST has been handled (committed or refused), not after a guessed time.
    await expect
      .poll(() => posts().every((post) => post.answeredAt !== undefined), { timeout: 10_000 })
      .toBe(true);
    expect(posts().length).toBeGreaterThan(1);

    expect(result.created).toBe(true);
    expect(emu.deployments).toHaveLength(1);
    expect(result.deployment?.id).toBe(emu.deployments[0]?.id);
    expect(logger.text).toMatch(/no answer within 0.15 s/);
  });

  it('says the create may have happened when the look-up after it fails too', async () => {
    emu.inject(
      { method: 'GET', delayMs: 0 }, // the first look-up answers normally
      { method: 'POST', status: 502 },
      { method: 'GET', status: 503, times: Infinity },
    );

    const error = await deploy(plan({ source: 'internal_template' }), dependencies).then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(ActionError);
    expect((error as Error).message).toMatch(
      /^POST \/v2\/deployments failed: 502 Bad Gateway[\s\S]*The create may have taken effect, and looking 'app' up failed too: GET \/v2\/deployments failed after 4 attempts: 503[\s\S]*Running the step again is safe/,
    );
    expect(posts()).toHaveLength(1);
  });

  it('tells onCreated the deployment the service answered, before the look-up after it fails', async () => {
    emu.inject(
      { method: 'GET', delayMs: 0 }, // the first look-up answers normally
      { method: 'GET', status: 503, times: Infinity },
    );
    const told: string[] = [];

    const error = await deploy(plan({ source: 'internal_template' }), dependencies, {
      onCreated: ({ deployment, created }) => told.push(`${deployment.id} ${String(created)}`),
    }).catch((e: unknown) => e);

    expect((error as Error).message).toMatch(/GET \/v2\/deployments failed after 4 attempts: 503/);
    expect(told).toEqual([`${emu.deployments[0]?.id} true`]);
  });

  it('tells onCreated of the one run that created, not of the run a 409 answered', async () => {
    emu.setOptions({ uniqueNames: true, createDelayMs: 50 });
    const told: string[] = [];
    const onCreated = ({ deployment }: { deployment: { id: string } }) => told.push(deployment.id);

    await Promise.all([
      deploy(plan(), dependencies, { onCreated }),
      deploy(plan(), dependencies, { onCreated }),
    ]);

    expect(posts()).toHaveLength(2);
    expect(told).toEqual([emu.deployments[0]?.id]);
  });

  it('gives up creating after the last attempt, looking the name up after each', async () => {
    emu.inject({ method: 'POST', status: 503, times: Infinity });

    const error = await deploy(plan({ source: 'internal_template' }), dependencies).then(
      () => undefined,
      (e: unknown) => e,
    );

    expect((error as Error).message).toMatch(
      /^POST \/v2\/deployments failed after 4 attempts: 503 Service Unavailable/,
    );
    // Each POST is followed by the look-ups of the settle window.
    expect(emu.requests.map((request) => request.method).join(' ')).toBe(
      `GET ${'POST GET GET GET GET '.repeat(4).trim()}`,
    );
    expect(emu.deployments).toHaveLength(0);
  });

  it('uses the deployment a dropped POST created, without a second POST', async () => {
    emu.inject({ method: 'POST', drop: 'after' });

    const result = await deploy(plan(), dependencies);

    expect(emu.deployments).toHaveLength(1);
    expect(posts()).toHaveLength(1);
    expect(result.deployment?.id).toBe(emu.deployments[0]?.id);
    expect(logger.text).toMatch(/may or may not have created/);
    // The look-up that found it is the last request: no second look-up after it.
    expect(emu.requests.map((request) => request.method)).toEqual(['GET', 'GET', 'POST', 'GET']);
  });
});

describe('never two, honestly (issue 8)', () => {
  it('waits for a listing that lags its writes before concluding a dropped POST did nothing', async () => {
    emu.setOptions({ listingLagReads: 2 });
    emu.inject({ method: 'POST', drop: 'after' });

    const result = await deploy(plan(), dependencies);

    expect(emu.deployments).toHaveLength(1);
    expect(posts()).toHaveLength(1);
    expect(result.deployment?.id).toBe(emu.deployments[0]?.id);
    expect(result.created).toBe(true);
  });

  it('looks again over the settle window after a 409 whose name is not listed yet', async () => {
    emu.setOptions({ uniqueNames: true, listingLagReads: 3 });
    const first = await deploy(plan(), dependencies);

    const second = await deploy(plan(), dependencies);

    expect(emu.deployments).toHaveLength(1);
    expect(second.deployment?.id).toBe(first.deployment?.id);
    expect(second.created).toBe(false);
    expect(logger.text).toMatch(/answered 409/);
  });

  it('fails a 409 whose name never shows up, after the settle window', async () => {
    emu.inject({ method: 'POST', status: 409, body: { detail: 'exists' } });

    const error = await deploy(plan({ source: 'internal_template' }), dependencies).catch(
      (e: unknown) => e,
    );

    expect((error as Error).message).toMatch(
      /409 Conflict[\s\S]*no deployment of that exact name was listed within 6\.0 s/,
    );
    expect(clock.sleeps).toEqual([0, 1_000, 2_000, 3_000]);
  });

  it('warns with every id when racing runs created two on a service without unique names', async () => {
    emu.setOptions({ uniqueNames: false, createDelayMs: 50 });

    const [a, b] = await Promise.all([deploy(plan(), dependencies), deploy(plan(), dependencies)]);

    expect(emu.deployments).toHaveLength(2);
    expect([a.created, b.created]).toEqual([true, true]);
    const warning = logger.lines.find((line) => line.includes('deployments are now named'));
    expect(warning).toContain(a.deployment?.id);
    expect(warning).toContain(b.deployment?.id);
    expect(warning).toContain('does not enforce unique names');
    expect(warning).toContain("'concurrency:'");
  });

  it('picks the deployment not being deleted, then the oldest, among duplicates, and says so', async () => {
    const deleting = emu.seedDeployment({
      name: 'app',
      status: 'AWAITING_DELETE',
      created_at: '2026-01-01T00:00:00Z',
    });
    const newer = emu.seedDeployment({ name: 'app', created_at: '2026-03-01T00:00:00Z' });
    const older = emu.seedDeployment({ name: 'app', created_at: '2026-02-01T00:00:00Z' });

    const result = await deploy(plan(), dependencies);

    expect(result.deployment?.id).toBe(older.id);
    const warning = logger.lines.find((line) => line.includes('3 deployments are named'));
    for (const id of [deleting.id, newer.id, older.id]) expect(warning).toContain(id);
    expect(warning).toContain(`Using ${older.id}`);
  });

  it('fails when the service stores another name than the one asked for', async () => {
    emu.setOptions({ normalizeNames: 'lowercase' });

    const error = await deploy(plan({ name: 'Agent-App' }), dependencies).catch((e: unknown) => e);

    expect((error as Error).message).toMatch(
      /stored deployment .* as 'agent-app', not 'Agent-App'.*Set the name input to 'agent-app'/,
    );
  });

  it('fails on a deployment that is being deleted', async () => {
    const deleting = emu.seedDeployment({ name: 'app', status: 'AWAITING_DELETE' });

    const error = await deploy(plan(), dependencies).catch((e: unknown) => e);

    expect((error as Error).message).toContain(
      `Deployment 'app' (${deleting.id}) is AWAITING_DELETE: it is being deleted`,
    );
    expect(posts()).toHaveLength(0);
  });

  it('takes the answer to its own create as the deployment, whatever its source says', async () => {
    emu.inject({
      method: 'POST',
      bodyTransform: (body) => ({ ...(body as object), source: 'internal_docker' }),
    });

    const result = await deploy(plan(), dependencies);

    expect(result.created).toBe(true);
    expect(result.deployment?.id).toBe(emu.deployments[0]?.id);
  });
});
