/**
 * The HTTP client against the emulator over real HTTP: success codes,
 * failure messages, retries, Retry-After, timeouts. A fake clock makes
 * backoff instant; the per-request timeout is real but tiny.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { excerpt, serviceMessageOf } from '../../src/service/answers.ts';
import { ServiceClient } from '../../src/service/client.ts';
import { parseRetryAfter, type RetryPolicy } from '../../src/service/retry.ts';
import { ServiceError } from '../../src/service/errors.ts';
import { DeploymentListSchema, DeploymentSchema } from '../../src/service/schemas.ts';
import type { Emulator } from '../emulator/emulator.ts';
import type { FakeClock, MemoryLogger } from '../support/clock.ts';
import { startFlow } from '../support/flow.ts';

const RETRY: RetryPolicy = {
  attempts: 4,
  initialDelayMs: 1_000,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  requestTimeoutMs: 300,
};

let emu: Emulator;
let clock: FakeClock;
let logger: MemoryLogger;
let client: ServiceClient;

beforeEach(async () => {
  ({ emu, clock, logger, client } = await startFlow({
    retry: RETRY,
    headers: { 'X-Api-Key': 'k' },
  }));
});

afterEach(async () => {
  await emu.close();
});

const list = () =>
  client.request({
    method: 'GET',
    path: '/v2/deployments',
    query: { limit: 1 },
    schema: DeploymentListSchema,
  });

const CREATE_BODY = {
  name: 'app',
  source: 'internal_template',
  source_config: {},
  source_revision_config: {},
  secrets: [],
};

const create = () =>
  client.request({
    method: 'POST',
    path: '/v2/deployments',
    body: CREATE_BODY,
    schema: DeploymentSchema,
  });

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('success', () => {
  it.each([200, 201, 202])('accepts %i with a valid body', async (status) => {
    emu.inject({ status, body: { resources: [], offset: 0 } });

    expect(await list()).toEqual({ resources: [], offset: 0 });
  });

  it('accepts the real 201 to a create', async () => {
    const deployment = await create();

    expect(deployment.name).toBe('app');
    expect(emu.requests[0]?.headers['content-type']).toBe('application/json');
    expect(emu.requests[0]?.headers['x-api-key']).toBe('k');
  });

  it('keeps unknown fields of a response', async () => {
    emu.inject({ bodyTransform: (body) => ({ ...(body as object), next_cursor: 'x' }) });

    expect(await list()).toMatchObject({ next_cursor: 'x' });
  });
});

describe('failure messages', () => {
  it('gives method, path, status and a string detail, without retrying a 400', async () => {
    emu.inject({ method: 'POST', status: 400, body: { detail: 'Error description.' } });

    const error = await failure(create());

    expect(error.message).toBe(
      'POST /v2/deployments failed: 400 Bad Request (service said: Error description.)',
    );
    expect(emu.requests).toHaveLength(1);
  });

  it('renders a 422 detail list as path: message lines, never the echoed input', async () => {
    const error = await failure(
      client.request({
        method: 'POST',
        path: '/v2/deployments',
        body: { name: 'x', secrets: [{ name: 'A', value: 'echoed-secret' }] },
        schema: DeploymentSchema,
      }),
    );

    expect(error.status).toBe(422);
    expect(error.message).toMatch(
      /POST \/v2\/deployments failed: 422 Unprocessable Entity:\n {2}body\.source: /,
    );
    expect(error.message).not.toContain('echoed-secret');
  });

  it.each([
    [{ message: 'quota exceeded' }, 'quota exceeded'],
    [{ error: 'bad tenant' }, 'bad tenant'],
  ])('reads the service message from %j', async (body, shown) => {
    emu.inject({ status: 400, body });

    expect((await failure(list())).message).toContain(`(service said: ${shown})`);
  });

  it.each([
    [401, /check the api-key input/i],
    [403, /permissions and workspace.*headers input/i],
    [404, /check api-url/i],
  ])('names the remedy for %i', async (status, remedy) => {
    emu.inject({ status });

    expect((await failure(list())).message).toMatch(remedy);
    expect(emu.requests).toHaveLength(1);
  });

  it("names the remedies in the entry's words when it gives them", async () => {
    const words = {
      apiKey: 'KEY-WORDS',
      apiKeyHeader: 'HEADER-WORDS',
      headers: 'HEADERS-WORDS',
      integrationId: 'ID-WORDS',
      apiUrl: 'URL-WORDS',
      name: 'NAME-WORDS',
      repository: 'REPO-WORDS',
      waitTimeout: 'WAIT-WORDS',
      healthCheckHeaders: 'HEALTH-WORDS',
      onDriftFail: 'DRIFT-WORDS',
      onChangeFail: 'CHANGE-WORDS',
      changeRequest: 'CHANGE-REQUEST-WORDS',
      asker: 'ASKER-WORDS',
      secrets: 'SECRETS-WORDS',
      healthCheck: 'HEALTH-CHECK-WORDS',
      commit: 'COMMIT-WORDS',
      noWait: 'NO-WAIT-WORDS',
    };
    const worded = new ServiceClient({
      baseUrl: emu.url,
      headers: { 'X-Api-Key': 'k' },
      retry: RETRY,
      clock,
      logger,
      words,
    });
    const listWith = (other: ServiceClient) =>
      other.request({ method: 'GET', path: '/v2/deployments', schema: DeploymentListSchema });
    emu.inject({ status: 401 });
    emu.inject({ status: 403 });
    emu.inject({ status: 404, body: { detail: 'Not Found' } });
    emu.inject({ status: 302, headers: { location: 'https://elsewhere.example/' } });

    await expect(listWith(worded)).rejects.toThrow(
      'Check KEY-WORDS (and HEADER-WORDS, if the service expects another header).',
    );
    await expect(listWith(worded)).rejects.toThrow(/workspace\/tenant header with HEADERS-WORDS\./);
    await expect(listWith(worded)).rejects.toThrow(/Check URL-WORDS first: /);
    await expect(listWith(worded)).rejects.toThrow(/Check URL-WORDS: the service redirected/);
  });

  it('includes the request id the service sent', async () => {
    emu.inject({ status: 400, body: { detail: 'no' }, headers: { 'x-request-id': 'req-8f2c' } });

    expect((await failure(list())).message).toMatch(/request id: req-8f2c/);
  });

  it('says so in one sentence when a 200 is not JSON', async () => {
    emu.inject({ rawBody: '<html><body>Welcome to nginx</body></html>' });

    const error = await failure(list());

    expect(error.message).toBe(
      'GET /v2/deployments failed: 200 answer is not JSON (application/json, 42 bytes, it does not start like JSON)',
    );
    expect(emu.requests).toHaveLength(1);
  });

  it('names the field path when a response misses a required field', async () => {
    emu.seedDeployment({ name: 'app' });
    emu.inject({
      bodyTransform: (body) => {
        const page = body as { resources: Record<string, unknown>[] };
        delete page.resources[0]?.id;
        return page;
      },
    });

    expect((await failure(list())).message).toMatch(
      /GET \/v2\/deployments failed: 200 answer does not match the service's schema: resources\[0\]\.id/,
    );
  });
});

describe('retries', () => {
  it('retries 503, 502 with an HTML page, 408 and 429, then succeeds, logging each retry', async () => {
    emu.inject(
      { status: 503 },
      {
        status: 502,
        body: '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>',
        headers: { 'content-type': 'text/html' },
      },
      { status: 408 },
    );

    expect(await list()).toEqual({ resources: [], offset: 0 });
    expect(emu.requests).toHaveLength(4);
    expect(clock.sleeps).toEqual([750, 1_500, 3_000]);
    expect(logger.lines.filter((line) => line.startsWith('warning'))).toEqual([
      'warning: retrying GET /v2/deployments in 0.8 s (attempt 2 of 4): 503 Service Unavailable',
      'warning: retrying GET /v2/deployments in 1.5 s (attempt 3 of 4): 502 Bad Gateway',
      'warning: retrying GET /v2/deployments in 3.0 s (attempt 4 of 4): 408 Request Timeout',
    ]);
  });

  it('stops after the last attempt with the last failure, its attempts and the service message', async () => {
    emu.inject({ status: 500, body: { detail: 'database unavailable' }, times: Infinity });

    const error = await failure(list());

    expect(error.message).toBe(
      'GET /v2/deployments failed after 4 attempts: 500 Internal Server Error (service said: database unavailable)',
    );
    expect(emu.requests).toHaveLength(4);
  });

  it('honours Retry-After in seconds and as an HTTP date, capped', async () => {
    emu.inject(
      { status: 429, headers: { 'retry-after': '7' } },
      { status: 503, headers: { 'retry-after': new Date(clock.now() + 12_000).toUTCString() } },
      { status: 429, headers: { 'retry-after': '3600' } },
    );

    await list();

    // The date is 12 s after the first request, which came 7 s before the second.
    expect(clock.sleeps).toEqual([7_000, 5_000, 30_000]);
  });

  it.each([400, 401, 403, 404, 409, 422])('never retries %i', async (status) => {
    emu.inject({ status, times: Infinity });

    await failure(list());

    expect(emu.requests).toHaveLength(1);
  });

  it('retries a dropped connection on a GET', async () => {
    emu.inject({ drop: 'before' });

    await list();

    expect(emu.requests).toHaveLength(2);
    expect(logger.text).toMatch(/retrying GET \/v2\/deployments .*connection|socket|closed/);
  });

  it('gives up on a hung answer after the per-request timeout, and retries it', async () => {
    emu.inject({ delayMs: 60_000, times: 2 });

    await list();

    expect(emu.requests).toHaveLength(3);
    expect(logger.text).toMatch(/no answer within 0.3 s/);
  });

  it('answers a redirect with a remedy instead of following it or retrying', async () => {
    emu.inject({ status: 302, headers: { location: 'https://elsewhere.example/v2/deployments' } });

    const error = await failure(list());

    expect(error.message).toMatch(/^GET \/v2\/deployments failed: 302 Found/);
    expect(error.message).toMatch(/redirected to https:\/\/elsewhere\.example\/v2\/deployments/);
    expect(emu.requests).toHaveLength(1);
  });

  it('takes a shorter timeout for one request when asked', async () => {
    emu.inject({ delayMs: 60_000 });

    await failure(
      client.request({
        method: 'GET',
        path: '/v2/deployments',
        schema: DeploymentListSchema,
        attempts: 1,
        timeoutMs: 100,
      }),
    );

    expect(logger.text).not.toMatch(/retrying/);
  });

  it('never retries a POST that may have been handled: it is thrown as ambiguous', async () => {
    for (const fault of [{ status: 503 }, { drop: 'after' as const }, { delayMs: 60_000 }]) {
      emu.inject({ method: 'POST', ...fault });
      const before = emu.requests.length;

      const error = await failure(create());

      expect(error.ambiguous).toBe(true);
      expect(emu.requests.length - before).toBe(1);
    }
  });

  it('retries a POST that was refused before it was handled (429)', async () => {
    emu.inject({ method: 'POST', status: 429, headers: { 'retry-after': '1' } });

    expect((await create()).name).toBe('app');
    expect(emu.deployments).toHaveLength(1);
  });
});

describe('helpers', () => {
  it('parses Retry-After forms', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('5', now)).toBe(5_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:09 GMT', now)).toBe(9_000);
    expect(parseRetryAfter('Sunday, 22-Nov-26 10:00:09 GMT', now)).toBe(9_000);
    expect(parseRetryAfter('Sun Nov 22 10:00:09 2026', now)).toBe(9_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('ignores a Retry-After that is neither whole seconds nor an HTTP date to come (RFC 9110)', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    // Date.parse reads each of these as some date; none is an HTTP date.
    for (const value of ['-5', '1.5', '+3', '2026-11-22T10:00:09Z', '5 s', '0x10', 'Infinity']) {
      expect(parseRetryAfter(value, now), value).toBeUndefined();
    }
    // A date already past says nothing of when to come back: the back-off applies.
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBeUndefined();
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:00 GMT', now)).toBeUndefined();
  });

  it('cuts long bodies to a one-line excerpt', () => {
    const long = excerpt(`${'x'.repeat(300)}\n\nmore`);
    expect(long).toHaveLength(201);
    expect(excerpt('<html><style>a{}</style><h1>Bad\nGateway</h1></html>')).toBe('Bad Gateway');
  });

  it('reads every error body shape', () => {
    expect(serviceMessageOf('{"detail":"nope"}')).toBe('nope');
    expect(
      serviceMessageOf('{"detail":[{"loc":["query","limit"],"msg":"too big","type":"x"}]}'),
    ).toBe('  query.limit: too big');
    expect(serviceMessageOf('plain text')).toBe('plain text');
    expect(serviceMessageOf('')).toBeUndefined();
    expect(serviceMessageOf('{"other": 1}')).toBe('{"other": 1}');
  });

  it('builds URLs with encoded query values', () => {
    expect(
      client.url('/v2/deployments', { name_contains: 'a b&c', offset: 0, skip: undefined }),
    ).toBe(`${emu.url}/v2/deployments?name_contains=a+b%26c&offset=0`);
  });
});

describe('answers that must not be echoed or kept whole (issue 8)', () => {
  it("describes a cut listing without echoing it: other deployments' secrets stay out", async () => {
    emu.seedDeployment({
      name: 'other',
      secrets: [{ name: 'TOKEN', value: 'stg-tok-9f8e7d6c5b4a' }],
    });
    emu.inject({ truncateAt: 120 });

    const error = await failure(list());

    expect(error.message).toMatch(
      /^GET \/v2\/deployments failed: 200 answer is not JSON \(application\/json, 120 bytes, it ends early\)$/,
    );
    expect(error.message).not.toContain('stg-tok');
    expect(error.message).not.toContain('"value"');
  });

  it('names an HTML page by its title only', async () => {
    emu.inject({
      rawBody:
        '<html><head><title>Sign in</title></head><body>{"value":"leak-me-please"}</body></html>',
    });

    const error = await failure(list());

    expect(error.message).toContain("page titled 'Sign in'");
    expect(error.message).not.toContain('leak-me-please');
  });

  it('redacts a secret before the service message is cut, so no prefix of it survives', async () => {
    const secret = 'abcdefghijklmnopqrst';
    const redacting = new ServiceClient({
      baseUrl: emu.url,
      headers: {},
      retry: RETRY,
      clock,
      logger,
      redact: (text) => text.split(secret).join('***'),
    });
    emu.inject({ status: 400, body: { detail: `${'x'.repeat(186)}${secret} trailing` } });

    const error = await failure(
      redacting.request({ method: 'GET', path: '/v2/deployments', schema: DeploymentListSchema }),
    );

    expect(error.message).not.toContain(secret.slice(0, 4));
    expect(error.message).toContain('***');
  });

  it('shows the first 20 entries of a long 422 list and counts the rest', async () => {
    const detail = Array.from({ length: 3_000 }, (_, i) => ({
      loc: ['body', 'secrets', i, 'value'],
      msg: 'bad value',
      type: 'value_error',
    }));
    emu.inject({ status: 422, body: { detail } });

    const error = await failure(list());

    expect(error.message.split('\n').filter((line) => line.startsWith('  body.'))).toHaveLength(20);
    expect(error.message).toContain('  and 2980 more');
    expect(error.message.length).toBeLessThan(2_000);
  });

  it('keeps each entry of a service message on one line', async () => {
    emu.inject({
      status: 422,
      body: {
        detail: [{ loc: ['body', 'name'], msg: 'bad\n::error title=injected::owned', type: 'x' }],
      },
    });

    const error = await failure(list());

    expect(error.message).toContain('  body.name: bad\\n::error title=injected::owned');
    expect(error.message.split('\n').some((line) => line.trimStart().startsWith('::'))).toBe(false);
  });

  it('stops reading an endless answer at the cap and names the call and the cap', async () => {
    const capped = new ServiceClient({
      baseUrl: emu.url,
      headers: {},
      retry: RETRY,
      clock,
      logger,
      maxAnswerBytes: 1024 * 1024,
    });
    emu.inject({ endless: true });

    const error = await failure(
      capped.request({ method: 'GET', path: '/v2/deployments', schema: DeploymentListSchema }),
    );

    expect(error.message).toBe(
      'GET /v2/deployments failed: 200 answer is larger than 1 MiB; stopped reading it (is api-url the service?)',
    );
    expect(emu.requests).toHaveLength(1);
  });

  it('names api-url first when the framework answers its generic 404', async () => {
    emu.inject({ status: 404, body: { detail: 'Not Found' } });

    const error = await failure(
      client.request({
        method: 'GET',
        path: '/v1/integrations/forge/codehost/x/repos',
        schema: z.array(z.unknown()),
        remedies: { 404: 'Check the integration-id input.' },
      }),
    );

    expect(error.message).toContain(
      `Check api-url first: ${emu.url} has no /v1/integrations/forge/codehost/x/repos (is a path prefix such as /api missing?).\nOtherwise: Check the integration-id input.`,
    );
  });

  it('keeps the endpoint remedy alone for a 404 the service explains', async () => {
    emu.inject({ status: 404, body: { detail: 'Integration not found' } });

    const error = await failure(
      client.request({
        method: 'GET',
        path: '/v1/x',
        schema: z.array(z.unknown()),
        remedies: { 404: 'Check the integration-id input.' },
      }),
    );

    expect(error.message).not.toContain('api-url');
    expect(error.message).toContain('Check the integration-id input.');
  });
});

describe('one retry loop for every method (issue 7, issue 8 #7)', () => {
  const reconciled = (found: () => Promise<unknown>) =>
    client.exchange({
      method: 'POST',
      path: '/v2/deployments',
      body: CREATE_BODY,
      schema: DeploymentSchema,
      idempotent: false,
      reconcile: () => found() as Promise<never>,
    });

  it('honours Retry-After on a 5xx to a POST once the reconcile hook found nothing', async () => {
    emu.inject({ method: 'POST', status: 503, headers: { 'retry-after': '3' } });

    const answered = await reconciled(() => Promise.resolve(undefined));

    expect(answered.via).toBe('answer');
    expect(clock.sleeps).toEqual([3_000]);
    expect(logger.text).toContain(
      'retrying POST /v2/deployments in 3.0 s (attempt 2 of 4): it did not take effect (503 Service Unavailable)',
    );
  });

  it('returns what the reconcile hook found after an ambiguous POST, without a second POST', async () => {
    emu.inject({ method: 'POST', drop: 'after' });

    const answered = await reconciled(() => Promise.resolve(emu.deployments[0]));

    expect(answered.via).toBe('ambiguous');
    expect(emu.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('asks the reconcile hook on a 409, and throws the 409 when it finds nothing', async () => {
    emu.setOptions({ uniqueNames: true });
    emu.seedDeployment({ name: 'app' });

    expect((await reconciled(() => Promise.resolve(emu.deployments[0]))).via).toBe('conflict');
    const error = await failure(reconciled(() => Promise.resolve(undefined)));
    expect(error.status).toBe(409);
  });
});

describe('schemas of answers', () => {
  it('validates with the schema it is given', async () => {
    const error = await failure(
      client.request({ method: 'GET', path: '/v2/deployments', schema: z.array(z.string()) }),
    );

    expect(error.message).toMatch(/does not match the service's schema/);
  });
});
