/**
 * Property-based tests of the inputs (README, "Inputs"): headers and api-key: what fetch cannot send, and the headers the action controls, never reach a plan.
 * Shared arbitraries and helpers: test/support/property-inputs.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attempt, expectInputError, messageOf } from '../support/property-inputs.ts';

describe('unsendable values', () => {
  it('an api-key or header value fetch could not send is rejected, naming the input only', () => {
    const unsendable = fc
      .tuple(
        fc.stringMatching(/^[A-Za-z0-9]{6,12}$/),
        fc.oneof(
          fc.constantFrom('\u0000', '\r', '\u0007', '\u007f'),
          fc
            .string({ unit: 'grapheme', minLength: 1, maxLength: 2 })
            .filter((c) => [...c].some((ch) => (ch.codePointAt(0) ?? 0) > 0xff)),
        ),
        // Not last: inputs are trimmed, so a trailing carriage return is no part of the value.
        fc.stringMatching(/^[A-Za-z0-9]{1,6}$/),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(unsendable, fc.constantFrom('api-key', 'headers'), (value, input) => {
        const given: Record<string, string> =
          input === 'api-key' ? { 'api-key': value } : { headers: `X-Tenant: ${value}` };
        const message = messageOf({
          'api-url': 'https://api.example.com',
          name: 'a',
          source: 'internal_template',
          ...given,
        });
        expect(message).toMatch(new RegExp(`input '${input}': .*cannot be sent in an HTTP header`));
        expect(message).not.toContain(value.trim());
      }),
      { numRuns: 200 },
    );
  });
});

describe('headers of a plan', () => {
  it('can all be sent: a value fetch would refuse is an input error, never a failed request', () => {
    const value = fc
      .oneof(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
        fc.string({ maxLength: 20 }),
      )
      .filter((text) => !text.includes('\n'));
    const header = fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,12}$/), value);
    fc.assert(
      fc.property(
        fc.array(header, { maxLength: 4 }),
        fc.option(value, { nil: '' }),
        (headers, key) => {
          const outcome = attempt({
            headers: headers.map(([name, text]) => `${name}: ${text}`).join('\n'),
            'api-key': key,
          });
          if (outcome.spec === undefined) return;
          expect(() => new Headers(outcome.spec.headers)).not.toThrow();
          for (const [name] of headers) expect(Object.keys(outcome.spec.headers)).toContain(name);
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** Headers a step may not set, in any case (README, Inputs; the HTTP client refuses or obeys them). */
const CONTROLLED = [
  'Accept',
  'Content-Type',
  'Content-Length',
  'Host',
  'Connection',
  'Expect',
  'Keep-Alive',
  'Proxy-Connection',
  'TE',
  'Trailer',
  'Transfer-Encoding',
  'Upgrade',
];
const controlledName = fc
  .tuple(fc.constantFrom(...CONTROLLED), fc.array(fc.boolean(), { maxLength: 20 }))
  .map(([name, upper]) =>
    [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''),
  );

describe('headers the action controls', () => {
  it('never reach a plan, from headers or as api-key-header', () => {
    const headerName = fc.oneof(controlledName, fc.stringMatching(/^X-[A-Za-z]{1,8}$/));
    fc.assert(
      fc.property(
        fc.uniqueArray(headerName, { maxLength: 4, selector: (name) => name.toLowerCase() }),
        fc.oneof(controlledName, fc.constant('X-Api-Key')),
        (names, apiKeyHeader) => {
          const given = {
            headers: names.map((name) => `${name}: value`).join('\n'),
            'api-key': 'k3y-value',
            'api-key-header': apiKeyHeader,
          };
          const outcome = attempt(given);
          const controlled = new Set(CONTROLLED.map((name) => name.toLowerCase()));
          if (outcome.spec !== undefined) {
            for (const name of Object.keys(outcome.spec.headers)) {
              expect(controlled.has(name.toLowerCase())).toBe(false);
            }
            return;
          }
          const inputs = expectInputError(outcome.error).problems.map(({ input }) => input);
          expect(inputs.includes('api-key-header')).toBe(
            controlled.has(apiKeyHeader.toLowerCase()),
          );
          const badHeader = names.some((name) => controlled.has(name.toLowerCase()));
          expect(inputs.includes('headers')).toBe(badHeader);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------
// 2b. commit
// ---------------------------------------------------------------------------
