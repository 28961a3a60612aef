/**
 * Property-based tests of the inputs (README, "Inputs"): name: encoded in the query, matched exactly against the emulator.
 * Shared arbitraries and helpers: test/support/property-inputs.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/service/client.ts';
import { parseName } from '../../src/inputs/parsers.ts';
import { Service } from '../../src/service/endpoints.ts';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { FakeClock, MemoryLogger } from '../support/clock.ts';

const NAME_PIECES = [
  ' ',
  '&',
  '+',
  '%',
  '/',
  '#',
  '?',
  '=',
  ';',
  ',',
  '%20',
  '%2B',
  '%%',
  '+&=',
  'a',
  'Z',
  '-',
  '_',
  '.',
  '..',
  '\\',
  '"',
  "'",
  '<',
  '>',
  '*',
  '(',
  ')',
  '[',
  ']',
  'ü',
  'é',
  'İ',
  'ß',
  '日本',
  '😀',
  '👩‍💻',
  '\u00a0x',
];

/** A name parseName accepts, as an input (trimmed) gives it. */
const deploymentName = fc
  .oneof(
    fc
      .array(fc.constantFrom(...NAME_PIECES), { minLength: 1, maxLength: 10 })
      .map((pieces) => pieces.join('')),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }),
  )
  .map((name) => name.trim())
  .filter((name) => {
    try {
      return parseName(name) === name && name !== '';
    } catch {
      return false;
    }
  });

describe('names in the query string', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterAll(async () => {
    await emu.close();
  });

  it('ServiceClient.url carries the name unchanged in name_contains', () => {
    const client = new ServiceClient({
      baseUrl: 'http://127.0.0.1:1/prefix',
      headers: {},
      clock: new FakeClock(),
      logger: new MemoryLogger(),
    });
    fc.assert(
      fc.property(deploymentName, (name) => {
        const url = new URL(client.url('/v2/deployments', { name_contains: name, limit: 100 }));
        expect(url.pathname).toBe('/prefix/v2/deployments');
        expect(url.searchParams.get('name_contains')).toBe(name);
        expect(url.searchParams.get('limit')).toBe('100');
        expect(url.hash).toBe('');
      }),
      { numRuns: 500 },
    );
  });

  it('findByName sends the exact name and finds only the deployment of that exact name', async () => {
    await fc.assert(
      fc.asyncProperty(deploymentName, fc.boolean(), async (name, seedExact) => {
        emu.deployments.length = 0;
        emu.requests.length = 0;
        const decoys = [`${name}-x`, `x${name}`, `x${name}-x`, `${name}${name}`];
        for (const variant of [name.toUpperCase(), name.toLowerCase()]) {
          if (variant !== name) decoys.push(variant);
        }
        for (const decoy of decoys.slice(0, 2)) emu.seedDeployment({ name: decoy });
        const exact = seedExact ? emu.seedDeployment({ name }) : undefined;
        for (const decoy of decoys.slice(2)) emu.seedDeployment({ name: decoy });

        const logger = new MemoryLogger();
        const client = new ServiceClient({
          baseUrl: emu.url,
          headers: {},
          clock: new FakeClock(),
          logger,
        });
        const found = await new Service(client, logger).findByName(name);

        expect(found.map((deployment) => deployment.id)).toEqual(
          exact === undefined ? [] : [exact.id],
        );
        for (const deployment of found) expect(deployment.name).toBe(name);
        expect(emu.requests.length).toBe(1);
        for (const request of emu.requests) {
          expect(request.method).toBe('GET');
          expect(request.path).toBe('/v2/deployments');
          expect(request.query.name_contains).toBe(name);
        }
      }),
      { numRuns: 50 },
    );
  });
});
