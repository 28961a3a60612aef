/**
 * Property-based tests of the inputs (README, "Inputs"): readPlan on arbitrary text: a plan, or an InputError naming declared inputs.
 * Shared arbitraries and helpers: test/support/property-inputs.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INPUT_NAMES } from '../../src/inputs/core-inputs.ts';
import { InputError } from '../../src/inputs/errors.ts';
import { SOURCES } from '../../src/service/schemas.ts';
import { reader } from '../support/action.ts';
import {
  INTEGRATION_ID,
  DECLARED,
  fastReader,
  attempt,
  expectInputError,
  anyText,
  FUZZED_INPUTS,
} from '../support/property-inputs.ts';

describe('readPlan on arbitrary text', () => {
  it('is read through the same reader as the example tests', () => {
    const given = fc.dictionary(fc.constantFrom(...INPUT_NAMES), anyText, { maxKeys: 6 });
    fc.assert(
      fc.property(given, (inputs) => {
        const fast = fastReader(inputs);
        const slow = reader(inputs);
        for (const name of INPUT_NAMES) expect(fast(name)).toBe(slow(name));
      }),
      { numRuns: 30 },
    );
  });

  it('returns a plan or throws an InputError whose problems each name a declared input', () => {
    const given = fc.record(
      Object.fromEntries(
        FUZZED_INPUTS.map((name) => [
          name,
          name === 'source'
            ? fc.oneof(fc.constantFrom(...SOURCES), anyText)
            : name === 'integration-id'
              ? fc.oneof(fc.constant(INTEGRATION_ID), anyText)
              : anyText,
        ]),
      ) as Record<(typeof FUZZED_INPUTS)[number], fc.Arbitrary<string>>,
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(given, (inputs) => {
        const outcome = attempt(inputs);
        if (outcome.spec !== undefined) {
          expect(SOURCES).toContain(outcome.spec.source);
          return;
        }
        expectInputError(outcome.error);
      }),
      { numRuns: 300 },
    );
  });

  it('names exactly the one bad input when only that one is fuzzed', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FUZZED_INPUTS), anyText, (name, text) => {
        const outcome = attempt({ [name]: text });
        if (outcome.error === undefined) return;
        expect(outcome.error).toBeInstanceOf(InputError);
        const inputs = (outcome.error as InputError).problems.map((problem) => problem.input);
        // source and config may make another input required; the fuzzed one is always named
        // unless the failure is such a consequence.
        for (const input of inputs) expect(DECLARED).toContain(input);
        if (name !== 'source' && name !== 'config') expect(inputs).toEqual([name]);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------
// 2. Sensitive values never show in an error message
// ---------------------------------------------------------------------------
