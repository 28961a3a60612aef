/**
 * Property-based tests of the inputs (README, "Inputs"): the sensitive inputs (api-key, headers, secrets): no value ever shows in a message.
 * Shared arbitraries and helpers: test/support/property-inputs.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SOURCES } from '../../src/service/schemas.ts';
import {
  INTEGRATION_ID,
  messageOf,
  anyText,
  junkLine,
  sensitiveValue,
} from '../support/property-inputs.ts';

/** How a sensitive value is written: the real one, or a distinctive placeholder. */
type Show = (index: number) => string;
const placeholder: Show = (index) => `PLACEHOLDER${index}ZQX`;

type SecretLine =
  | { kind: 'secret'; name: string; value: number; spaced: boolean }
  | { kind: 'empty'; name: string }
  | { kind: 'junk'; text: string }
  | { kind: 'comment'; text: string }
  | { kind: 'blank' }
  /** A line of a multi-line value pasted by mistake: the value alone, or around an `=`. */
  | { kind: 'pasted'; value: number; form: 'alone' | 'name' | 'after' };

const secretNameish = fc.oneof(
  fc.constantFrom('A', 'B', 'OPENAI_API_KEY', '_X'),
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/),
  fc.constantFrom('1ABC', 'MY-KEY', 'MY KEY', 'A.B', '', ' ', 'ü', '{', '#A'),
);

function secretLines(values: number): fc.Arbitrary<SecretLine[]> {
  const index = fc.nat({ max: values - 1 });
  return fc.array(
    fc.oneof(
      {
        arbitrary: fc.record({
          kind: fc.constant('secret' as const),
          name: secretNameish,
          value: index,
          spaced: fc.boolean(),
        }),
        weight: 5,
      },
      {
        arbitrary: fc.record({ kind: fc.constant('empty' as const), name: secretNameish }),
        weight: 1,
      },
      { arbitrary: fc.record({ kind: fc.constant('junk' as const), text: junkLine }), weight: 2 },
      {
        arbitrary: fc.record({ kind: fc.constant('comment' as const), text: junkLine }),
        weight: 1,
      },
      { arbitrary: fc.constant({ kind: 'blank' as const }), weight: 1 },
      {
        arbitrary: fc.record({
          kind: fc.constant('pasted' as const),
          value: index,
          form: fc.constantFrom('alone' as const, 'name' as const, 'after' as const),
        }),
        weight: 1,
      },
    ),
    { minLength: 1, maxLength: 8 },
  );
}

function renderSecretLines(lines: SecretLine[], crlf: boolean, show: Show): string {
  return lines
    .map((line) => {
      switch (line.kind) {
        case 'secret':
          return line.spaced
            ? ` ${line.name} = ${show(line.value)}`
            : `${line.name}=${show(line.value)}`;
        case 'empty':
          return `${line.name}=`;
        case 'junk':
          return line.text;
        case 'comment':
          return `# ${line.text}`;
        case 'blank':
          return '';
        case 'pasted':
          return line.form === 'alone'
            ? show(line.value)
            : line.form === 'name'
              ? `${show(line.value)}=`
              : `=${show(line.value)}`;
      }
    })
    .join(crlf ? '\r\n' : '\n');
}

type JsonEntry =
  | { key: string; value: number; shape: 'string' | 'array' | 'object' }
  | {
      key: string;
      literal: string;
    };

function jsonEntries(values: number): fc.Arbitrary<JsonEntry[]> {
  return fc.array(
    fc.oneof(
      fc.record({
        key: secretNameish,
        value: fc.nat({ max: values - 1 }),
        shape: fc.constantFrom(
          'string' as const,
          'string' as const,
          'array' as const,
          'object' as const,
        ),
      }),
      fc.record({
        key: secretNameish,
        literal: fc.constantFrom('""', '12345', 'null', 'true', '{}', '[]', '"ok-value"'),
      }),
    ),
    { minLength: 1, maxLength: 6 },
  );
}

function renderJson(entries: JsonEntry[], corruption: string, show: Show): string {
  const members = entries.map((entry) => {
    const key = JSON.stringify(entry.key);
    if ('literal' in entry) return `${key}: ${entry.literal}`;
    const value = JSON.stringify(show(entry.value));
    const json =
      entry.shape === 'string' ? value : entry.shape === 'array' ? `[${value}]` : `{"v": ${value}}`;
    return `${key}: ${json}`;
  });
  const body = `{${members.join(', ')}`;
  switch (corruption) {
    case 'trailing-comma':
      return `${body},}`;
    case 'unclosed':
      return body;
    case 'line-break':
      return `${body.replace(/, /g, ',\n')}\n}`;
    default:
      return `${body}}`;
  }
}

type HeaderLine =
  | { kind: 'header'; name: string; value: number }
  | { kind: 'empty'; name: string }
  | { kind: 'junk'; text: string };

const headerNameish = fc.oneof(
  fc.constantFrom('X-Tenant', 'x-tenant', 'X-Api-Key', 'Authorization', 'Content-Type', 'Host'),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,12}$/),
  fc.constantFrom('X Tenant', 'X-Tenant(1)', 'Ünicode', '', ' '),
);

function headerLines(values: number): fc.Arbitrary<HeaderLine[]> {
  return fc.array(
    fc.oneof(
      {
        arbitrary: fc.record({
          kind: fc.constant('header' as const),
          name: headerNameish,
          value: fc.nat({ max: values - 1 }),
        }),
        weight: 5,
      },
      {
        arbitrary: fc.record({ kind: fc.constant('empty' as const), name: headerNameish }),
        weight: 1,
      },
      { arbitrary: fc.record({ kind: fc.constant('junk' as const), text: junkLine }), weight: 1 },
    ),
    { maxLength: 5 },
  );
}

function renderHeaders(lines: HeaderLine[], show: Show): string {
  return lines
    .map((line) =>
      line.kind === 'header'
        ? `${line.name}: ${show(line.value)}`
        : line.kind === 'empty'
          ? `${line.name}:`
          : line.text,
    )
    .join('\n');
}

/** Other inputs, good or bad: "whatever else is wrong". */
/** A good value most of the time, else one of the bad ones. */
function mostlyGood(good: string, ...bad: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constant(good), weight: 4 },
    { arbitrary: fc.constantFrom(...bad), weight: 1 },
  );
}

/**
 * Other inputs, good or bad: "whatever else is wrong". Mostly good, so that
 * the checks that run only once every input parsed (a header that clashes with
 * the api-key header, what a source needs) are reached often.
 */
const otherInputs = fc.oneof(
  fc.constant({}),
  fc.record(
    {
      'api-url': mostlyGood('https://api.example.com', 'http://api.example.com', 'not a url', ''),
      'api-key-header': fc.constantFrom('X-Api-Key', 'Authorization', 'X-Tenant', 'X Api Key', ''),
      name: mostlyGood('my-agent', '', 'my\tagent'),
      source: mostlyGood('codehost', ...SOURCES, 'github'),
      config: mostlyGood('', '{"bogus": 1}', 'a: b: c', 'missing.json'),
      'integration-id': mostlyGood(INTEGRATION_ID, '', 'nope'),
      repository: mostlyGood('acme/agent', 'no-slash', ''),
      'image-uri': fc.constantFrom('', 'img:1'),
      'wait-for-ready': mostlyGood('true', 'yes'),
      'wait-timeout': mostlyGood('900', '0', 'abc'),
      'dry-run': mostlyGood('false', '1'),
    },
    { requiredKeys: [] },
  ),
);

const leakCase = fc.uniqueArray(sensitiveValue, { minLength: 1, maxLength: 6 }).chain((values) =>
  fc.record({
    values: fc.constant(values),
    secretsForm: fc.constantFrom('lines', 'json', 'none'),
    secretLines: secretLines(values.length),
    crlf: fc.boolean(),
    json: jsonEntries(values.length),
    corruption: fc.constantFrom('none', 'trailing-comma', 'unclosed', 'line-break'),
    headers: headerLines(values.length),
    apiKey: fc.option(fc.nat({ max: values.length - 1 }), { nil: undefined }),
    others: otherInputs,
  }),
);

type LeakCase = typeof leakCase extends fc.Arbitrary<infer T> ? T : never;

function leakInputs(example: LeakCase, show: Show): Record<string, string> {
  const secrets =
    example.secretsForm === 'lines'
      ? renderSecretLines(example.secretLines, example.crlf, show)
      : example.secretsForm === 'json'
        ? renderJson(example.json, example.corruption, show)
        : '';
  return {
    ...example.others,
    secrets,
    headers: renderHeaders(example.headers, show),
    'api-key': example.apiKey === undefined ? '' : show(example.apiKey),
  };
}

describe('sensitive values', () => {
  it('secret, header and api-key values never show in an error message', () => {
    fc.assert(
      fc.property(leakCase, (example) => {
        const real = messageOf(leakInputs(example, (index) => example.values[index] ?? ''));
        const masked = messageOf(leakInputs(example, placeholder));
        // The message does not depend on the values at all (unless a value was pasted
        // on a line of its own: then its text decides how the line reads) ...
        if (!example.secretLines.some((line) => line.kind === 'pasted')) {
          expect(real).toBe(masked);
        }
        // ... and shows none of them (a placeholder is never echoed; a real value is
        // not either, unless it happens to be a word of the message itself).
        example.values.forEach((value, index) => {
          if (masked !== undefined) expect(masked).not.toContain(placeholder(index));
          if (real !== undefined && !(masked ?? '').includes(value)) {
            expect(real).not.toContain(value);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('an arbitrary api-key never shows in an error message, whatever else is wrong', () => {
    const apiKey = fc
      .oneof(
        fc.string({ unit: 'grapheme', minLength: 6, maxLength: 40 }),
        fc.string({ unit: 'binary', minLength: 6 }),
      )
      .map((key) => key.replace(/[^\t\x20-\x7e\x80-\xff]/g, '_'))
      .filter((key) => key.trim().length >= 6);
    // Some of them clash with the api-key header, which is reported naming the header only.
    const headersText = fc.oneof(
      anyText,
      fc.constantFrom(
        '',
        'X-Api-Key: other',
        'x-api-key: a\nX-Tenant: t',
        'AUTHORIZATION: Bearer b',
      ),
    );
    fc.assert(
      fc.property(apiKey, otherInputs, headersText, (key, others, headers) => {
        const given = { ...others, headers, 'api-key': key };
        const real = messageOf(given);
        const masked = messageOf({ ...given, 'api-key': 'PLACEHOLDERZQX' });
        expect(real).toBe(masked);
        if (masked === undefined) return;
        expect(masked).not.toContain('PLACEHOLDERZQX');
        const shown = key.trim();
        const elsewhere = Object.values({ ...others, headers }).some((text) =>
          text.includes(shown),
        );
        if (!masked.includes(shown) && !elsewhere) {
          expect(real).not.toContain(shown);
        }
      }),
      { numRuns: 200 },
    );
  });
});
