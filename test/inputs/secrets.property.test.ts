/**
 * Property-based tests of the inputs (README, "Inputs"): secrets: both formats round-trip.
 * Shared arbitraries and helpers: test/support/property-inputs.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SECRET_NAME, attempt } from '../support/property-inputs.ts';

/** A value as a workflow passes it: non-empty, one line, no surrounding whitespace. */
const secretValue = fc
  .oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
    fc
      .array(
        fc.constantFrom(
          '=',
          '#',
          ':',
          '"',
          "'",
          '\\',
          '{',
          '}',
          ' ',
          'a',
          'Z',
          '9',
          'ü',
          '😀',
          '==',
          '${{',
        ),
        {
          minLength: 1,
          maxLength: 12,
        },
      )
      .map((pieces) => pieces.join('')),
  )
  .filter((value) => value !== '' && !/[\r\n]/.test(value) && value === value.trim());

const secretMap = fc.uniqueArray(
  fc.record({
    name: fc.stringMatching(SECRET_NAME).filter((name) => name.length <= 40),
    value: secretValue,
  }),
  { selector: (secret) => secret.name, minLength: 1, maxLength: 8 },
);

describe('secrets round trips', () => {
  it('NAME=value lines parse to exactly those secrets, in order', () => {
    fc.assert(
      fc.property(secretMap, fc.boolean(), fc.boolean(), (secrets, crlf, decorated) => {
        const eol = crlf ? '\r\n' : '\n';
        const lines = secrets.flatMap(({ name, value }, index) =>
          decorated ? [`# comment ${index}`, '', `  ${name} =  ${value}  `] : [`${name}=${value}`],
        );
        const outcome = attempt({ secrets: lines.join(eol) });
        expect(outcome.error).toBeUndefined();
        expect(outcome.spec?.secrets).toEqual(secrets);
        expect(outcome.spec?.sensitiveValues).toEqual(
          expect.arrayContaining(secrets.map((s) => s.value)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('a JSON object parses to exactly those secrets, in order', () => {
    fc.assert(
      fc.property(secretMap, fc.boolean(), (secrets, pretty) => {
        const members = secrets.map(
          ({ name, value }) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`,
        );
        const text = pretty ? `{\n  ${members.join(',\n  ')}\n}` : `{${members.join(',')}}`;
        const outcome = attempt({ secrets: text });
        expect(outcome.error).toBeUndefined();
        expect(outcome.spec?.secrets).toEqual(secrets);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------
// 4. wait-timeout
// ---------------------------------------------------------------------------
