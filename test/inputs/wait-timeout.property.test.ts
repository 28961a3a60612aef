/**
 * Property-based tests of the inputs (README, "Inputs"): wait-timeout: a plain positive decimal up to 6 hours, never a fallback.
 * Shared arbitraries and helpers: test/support/property-inputs.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_WAIT_TIMEOUT_SECONDS } from '../../src/inputs/parsers.ts';
import { attempt, rejectedInputs, anyText } from '../support/property-inputs.ts';

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/** What the contract accepts: a plain positive decimal of at most 6 hours (after trimming). */
function acceptableTimeout(raw: string): boolean {
  const text = raw.trim();
  return PLAIN_DECIMAL.test(text) && Number(text) > 0 && Number(text) <= MAX_WAIT_TIMEOUT_SECONDS;
}

const positiveDecimal = fc
  .tuple(
    fc.stringMatching(/^0{0,3}$/),
    fc.integer({ min: 0, max: MAX_WAIT_TIMEOUT_SECONDS }),
    fc.option(fc.stringMatching(/^[0-9]{1,8}$/), { nil: undefined }),
  )
  .map(
    ([zeros, whole, fraction]) => `${zeros}${whole}${fraction === undefined ? '' : `.${fraction}`}`,
  )
  .filter((text) => Number(text) > 0 && Number(text) <= MAX_WAIT_TIMEOUT_SECONDS);

const nearlyANumber = fc.oneof(
  fc.constantFrom(
    '0',
    '00',
    '0.0',
    '000.000',
    '-1',
    '+5',
    '1e3',
    '1E3',
    '0x10',
    '0b1',
    '0o7',
    '1.',
    '.5',
    '1_000',
    '1,5',
    '1 000',
    'Infinity',
    'NaN',
    '10s',
    '５',
    '٣',
    '21600.0001',
    '21601',
    '99999999999999999999',
  ),
  fc
    .tuple(positiveDecimal, fc.constantFrom('s', 'e1', '.', '-', '%', ' x', '\n1', 'ms'))
    .map(([n, s]) => n + s),
  fc.tuple(fc.constantFrom('-', '+', '.', 'x', '$'), positiveDecimal).map(([p, n]) => p + n),
);

describe('wait-timeout', () => {
  it('reads any positive decimal up to 21600 as that number', () => {
    fc.assert(
      fc.property(positiveDecimal, (text) => {
        expect(attempt({ 'wait-timeout': text }).spec?.waitTimeoutSeconds).toBe(Number(text));
      }),
      { numRuns: 300 },
    );
  });

  it('rejects, naming wait-timeout, anything that is not a plain positive decimal', () => {
    fc.assert(
      fc.property(fc.oneof(nearlyANumber, anyText, positiveDecimal), (text) => {
        if (acceptableTimeout(text)) {
          expect(attempt({ 'wait-timeout': text }).spec?.waitTimeoutSeconds).toBe(
            Number(text.trim()),
          );
        } else {
          // Never silently defaulted: a user's 0 fails.
          expect(rejectedInputs({ 'wait-timeout': text })).toEqual(['wait-timeout']);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('rejects every spelling of zero', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^0{1,5}(\.0{1,5})?$/), (zero) => {
        expect(rejectedInputs({ 'wait-timeout': zero })).toEqual(['wait-timeout']);
      }),
      { numRuns: 200 },
    );
  });
});

// ---------------------------------------------------------------------------
// 5. integration-id
// ---------------------------------------------------------------------------
