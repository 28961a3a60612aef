/**
 * What the agents of one run share, against the emulator over real HTTP:
 * each integration's listing read once (twice for two integrations, one
 * failure for all that asked), the status of several deployments in one
 * request (at most 100 ids), and the slots in which a few agents work at once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/service/client.ts';
import { Service } from '../../../src/service/endpoints.ts';
import { sharedListings, Slots } from '../../../src/run/decisions/shared-work.ts';
import { startEmulator, type Emulator } from '../../emulator/emulator.ts';
import { FakeClock, MemoryLogger } from '../../support/clock.ts';
import { INTEGRATION } from '../../support/fixtures.ts';

const OTHER = '99999999-8888-4777-8666-555555555555';

let emu: Emulator;
let service: Service;

beforeEach(async () => {
  emu = await startEmulator();
  const logger = new MemoryLogger();
  const client = new ServiceClient({
    baseUrl: emu.url,
    headers: {},
    clock: new FakeClock(),
    logger,
  });
  service = new Service(client, logger);
  emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent' }]);
  emu.seedRepos(OTHER, [{ owner: 'acme', name: 'other' }]);
});

afterEach(async () => {
  await emu.close();
});

const listings = () => emu.requests.filter((request) => request.path.endsWith('/repos'));

describe('the repository listing', () => {
  it('is read once for five agents of one integration, and once more for another', async () => {
    const list = sharedListings(service);
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => list(INTEGRATION)),
      list(INTEGRATION.toUpperCase()),
      list(OTHER),
    ]);

    expect(listings()).toHaveLength(2);
    expect(answers.slice(0, 6).every((repos) => repos[0]?.name === 'agent')).toBe(true);
    expect(answers[6]?.[0]?.name).toBe('other');
  });

  it('fails every agent that asked with the one failure', async () => {
    emu.inject({ path: `/v1/integrations/forge/codehost/${INTEGRATION}/repos`, status: 401 });
    const list = sharedListings(service);
    const answers = await Promise.allSettled([list(INTEGRATION), list(INTEGRATION)]);

    expect(listings()).toHaveLength(1);
    expect(answers.map((answer) => answer.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('the status of several deployments', () => {
  it('is one request holding every id, with limit 100', async () => {
    const [a, b] = [emu.seedDeployment({ name: 'a' }), emu.seedDeployment({ name: 'b' })];
    const found = await service.getByIds([a.id, b.id]);

    expect([...found.keys()].sort()).toEqual([a.id, b.id].sort());
    const polls = emu.requests.filter((request) => request.query.deployment_ids !== undefined);
    expect(polls.map((poll) => poll.query)).toEqual([
      { deployment_ids: `${a.id},${b.id}`, limit: '100' },
    ]);
  });

  it("takes each record on its own: a malformed one is its id's answer, not the others'", async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => emu.seedDeployment({ name }));
    const unasked = emu.seedDeployment({ name: 'unasked' });
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      bodyTransform: (body) => {
        const page = body as { resources: Record<string, unknown>[] };
        const records = page.resources.map((record) =>
          record.name === 'b' ? { ...record, created_at: 'yesterday' } : record,
        );
        const twice = records.find((record) => record.name === 'c');
        const forged = { ...structuredClone(unasked), status: 'DEPLOYED' };
        // c listed twice, differently; an id nobody asked for; something that is no record.
        return { ...page, resources: [...records, { ...twice, status: 'FAILED' }, forged, 42] };
      },
    });

    const found = await service.getByIds([a?.id ?? '', b?.id ?? '', c?.id ?? '']);

    expect(found.get(a?.id ?? '')).toMatchObject({ name: 'a' });
    const bad = found.get(b?.id ?? '');
    expect(bad).toBeInstanceOf(Error);
    expect((bad as Error).message).toMatch(
      /does not match the service's schema: resources\[1\]\.created_at: /,
    );
    expect((found.get(c?.id ?? '') as Error).message).toContain(
      'is listed twice, with different contents',
    );
    expect(found.has(unasked.id)).toBe(false);
  });

  it('getById throws the error of a malformed record, as the batch gives it to its agent', async () => {
    const a = emu.seedDeployment({ name: 'a' });
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      bodyTransform: (body) => {
        const page = body as { resources: Record<string, unknown>[] };
        return { ...page, resources: page.resources.map((r) => ({ ...r, created_at: 'x' })) };
      },
    });

    await expect(service.getById(a.id)).rejects.toThrow(
      /does not match the service's schema: resources\[0\]\.created_at: /,
    );
  });

  it('refuses more than 100 ids before any request', () => {
    const ids = Array.from({ length: 101 }, (_, index) => `id-${index}`);
    expect(() => service.getByIds(ids)).toThrow(RangeError);
    expect(emu.requests).toEqual([]);
  });
});

describe('slots', () => {
  it('lets so many work at once, the others in the order they asked', async () => {
    const slots = new Slots(2);
    const order: string[] = [];
    const first = await slots.take();
    const second = await slots.take();
    const third = slots.take().then((release) => (order.push('third'), release));
    const fourth = slots.take().then((release) => (order.push('fourth'), release));
    expect(slots.busy).toBe(2);
    first();
    first();
    (await third)();
    second();
    (await fourth)();

    expect(order).toEqual(['third', 'fourth']);
    expect(slots.busy).toBe(0);
  });
});
