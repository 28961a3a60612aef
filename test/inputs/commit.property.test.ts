/**
 * Property-based tests of the inputs (README, "Inputs"): commit: only auto, none or a full sha.
 * Shared arbitraries and helpers: test/support/property-inputs.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attempt, rejectedInputs, anyText } from '../support/property-inputs.ts';

describe('commit', () => {
  it('only auto, none or a full sha (lower-cased) reaches the plan', () => {
    const shaLike = fc
      .tuple(fc.stringMatching(/^[0-9a-fA-F]{1,45}$/), fc.constantFrom('', ' ', 'g', '\n'))
      .map(([hex, tail]) => `${hex}${tail}`);
    fc.assert(
      fc.property(fc.oneof(shaLike, anyText, fc.constantFrom('auto', 'none')), (text) => {
        const outcome = attempt({ commit: text });
        const raw = text.trim();
        if (raw === 'auto' || raw === 'none') {
          expect(outcome.spec?.commit.kind).toBe('none'); // no event: auto derives nothing
        } else if (/^[0-9a-fA-F]{40}$/.test(raw)) {
          expect(outcome.spec?.commit).toEqual({ kind: 'sha', sha: raw.toLowerCase() });
        } else {
          expect(rejectedInputs({ commit: text })).toEqual(['commit']);
        }
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------
// 3. Secrets round trips
// ---------------------------------------------------------------------------
