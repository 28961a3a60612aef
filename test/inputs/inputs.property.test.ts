/**
 * Property-based tests of the inputs (README, "Inputs" and "Secrets"): whatever text a workflow passes, `readPlan` either
 * returns a plan or throws an `InputError` that names declared inputs, and no
 * sensitive value ever shows in its message.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServiceClient } from '../../src/service/client.ts';
import { INPUT_NAMES } from '../../src/inputs/declared.ts';
import { InputError } from '../../src/inputs/errors.ts';
import { MAX_WAIT_TIMEOUT_SECONDS, parseName } from '../../src/inputs/parsers.ts';
import { readPlan } from '../../src/inputs/read-plan.ts';
import type { Plan } from '../../src/inputs/plan.ts';
import { SOURCES } from '../../src/service/schemas.ts';
import { Service } from '../../src/service/endpoints.ts';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { reader, withDefaults } from '../support/action.ts';
import { FakeClock, MemoryLogger } from '../support/clock.ts';

/** An empty workspace: a `config` that looks like a file path finds nothing in it. */
const WORKSPACE = mkdtempSync(path.join(tmpdir(), 'inputs-property-'));
afterAll(() => rmSync(WORKSPACE, { recursive: true, force: true }));

/**
 * The yaml parser reports odd documents (an unknown `%` directive or tag) with
 * process.emitWarning: harmless, but thousands of fuzzed configs would flood the
 * test output. Other warnings pass through.
 */
const emitWarning = process.emitWarning.bind(process);
beforeAll(() => {
  vi.spyOn(process, 'emitWarning').mockImplementation(
    (warning: string | Error, ...rest: unknown[]) => {
      if (warning instanceof Error && warning.name === 'YAMLWarning') return;
      Reflect.apply(emitWarning, process, [warning, ...rest]);
    },
  );
});
afterAll(() => {
  vi.restoreAllMocks();
});

const INTEGRATION_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DECLARED: readonly string[] = INPUT_NAMES;

/** The least a valid codehost step needs; each property overrides some inputs. */
const BASE: Record<string, string> = {
  'api-url': 'https://api.example.com',
  name: 'my-agent',
  'integration-id': INTEGRATION_ID,
};

type Outcome = { plan: Plan; error?: undefined } | { plan?: undefined; error: unknown };

/**
 * `reader(given)` of support/action.ts, with action.yml read once rather than on
 * every call (it dominates the run time of thousands of examples).
 */
const DEFAULTS = withDefaults({});
function fastReader(given: Record<string, string>): (name: string) => string {
  for (const name of Object.keys(given)) {
    if (!(name in DEFAULTS)) throw new Error(`input '${name}' is not declared in action.yml`);
  }
  const values = { ...DEFAULTS, ...given };
  return (name) => (values[name] ?? '').trim();
}

function attempt(given: Record<string, string>): Outcome {
  try {
    return { plan: readPlan(fastReader({ ...BASE, ...given }), { workspace: WORKSPACE }) };
  } catch (error) {
    return { error };
  }
}

/**
 * What every failure of readPlan must be: an InputError (anything else would
 * surface as an "Unexpected error") whose problems each name a declared input,
 * as the message shows them.
 */
function expectInputError(error: unknown): InputError {
  expect(error).toBeInstanceOf(InputError);
  const inputError = error as InputError;
  expect(inputError.problems.length).toBeGreaterThan(0);
  for (const { input, problem } of inputError.problems) {
    expect(DECLARED).toContain(input);
    expect(problem).not.toBe('');
    expect(inputError.message).toContain(`input '${input}'`);
  }
  return inputError;
}

/** The InputError's message, undefined when a plan was read. */
function messageOf(given: Record<string, string>): string | undefined {
  const outcome = attempt(given);
  return outcome.plan !== undefined ? undefined : expectInputError(outcome.error).message;
}

/** The inputs named by the problems of the InputError thrown (fails if none is thrown). */
function rejectedInputs(given: Record<string, string>): string[] {
  const outcome = attempt(given);
  expect(outcome.plan).toBeUndefined();
  return expectInputError(outcome.error).problems.map((problem) => problem.input);
}

// ---------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------

/** Pieces that mean something to one of the parsers (YAML, JSON, lines, URLs, numbers). */
const TOKENS = [
  '{',
  '}',
  '[',
  ']',
  ':',
  ': ',
  '=',
  ',',
  '"',
  "'",
  '#',
  '\n',
  '\r\n',
  '\r',
  '\t',
  '\u0000',
  '  ',
  '- ',
  '&a ',
  '*a',
  '!!str ',
  '!!binary ',
  '? ',
  '<<: ',
  '%YAML 1.1\n---\n',
  '---\n',
  '...\n',
  '|\n  ',
  'null',
  '~',
  'true',
  '1e3',
  '0x10',
  '-1',
  '0',
  '.5',
  '21600',
  '__proto__',
  'constructor',
  'source_config',
  'source_revision_config',
  'secret_references',
  'integration_id',
  'resource_spec',
  'min_scal',
  'A',
  'OPENAI_API_KEY',
  'X-Tenant',
  'Content-Type',
  'https://',
  'http://',
  'localhost',
  '127.0.0.1',
  '[::1]',
  '@',
  '/',
  '\\',
  '..',
  '.json',
  '.yaml',
  '.yml',
  '?x=1',
  'acme/agent',
  INTEGRATION_ID,
  'codehost',
  'ü',
  '日本',
  '😀',
  '\u202e',
  '\ufeff',
  '\u2028',
];

const tokenText = fc
  .array(fc.constantFrom(...TOKENS), { maxLength: 30 })
  .map((pieces) => pieces.join(''));

/** Very long texts, and deeply nested ones (which overflow a recursive parser's stack). */
const longText = fc.oneof(
  fc
    .tuple(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
      fc.integer({ min: 200, max: 2_000 }),
    )
    .map(([piece, times]) => piece.repeat(times)),
  fc
    .tuple(
      fc.constantFrom('[', '{', '{"a":', '- ', 'source_config: {', '{"source_config":', '&a [*a, '),
      fc.integer({ min: 50, max: 5_000 }),
    )
    .map(([piece, times]) => piece.repeat(times)),
);

/** Any text a workflow could pass, weighted towards what the parsers find tricky. */
const anyText = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 60 }), weight: 2 },
  { arbitrary: tokenText, weight: 4 },
  { arbitrary: longText, weight: 1 },
);

/** Lines without a line break: junk a secrets or headers text may hold. */
const junkLine = fc
  .oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), tokenText)
  .map((line) => line.replace(/[\r\n]/g, ' '));

/** A value worth keeping secret: at least 6 characters, no line break, trimmed. */
const sensitiveValue = fc
  .oneof(
    fc.stringMatching(/^[A-Za-z0-9]{6,24}$/),
    fc.string({ unit: 'grapheme', minLength: 6, maxLength: 24 }),
  )
  // Sendable in a header (no control character, nothing beyond Latin-1), so that whether the
  // inputs are valid never depends on the value; unsendable values have a property of their own.
  .map((value) => value.replace(/[^\x20-\x7e\xa0-\xff]/g, '_').trim())
  .filter((value) => value.length >= 6);

// ---------------------------------------------------------------------------
// 1. Anything in, a plan or an InputError out
// ---------------------------------------------------------------------------

const FUZZED_INPUTS = [
  'config',
  'secrets',
  'headers',
  'api-key-header',
  'wait-timeout',
  'name',
  'integration-id',
  'api-url',
  'source',
  'wait-for-ready',
  'repository',
  'commit',
  'on-drift',
] as const;

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
        if (outcome.plan !== undefined) {
          expect(SOURCES).toContain(outcome.plan.source);
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
          if (outcome.plan === undefined) return;
          expect(() => new Headers(outcome.plan.headers)).not.toThrow();
          for (const [name] of headers) expect(Object.keys(outcome.plan.headers)).toContain(name);
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
          if (outcome.plan !== undefined) {
            for (const name of Object.keys(outcome.plan.headers)) {
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
          expect(outcome.plan?.commit.kind).toBe('none'); // no event: auto derives nothing
        } else if (/^[0-9a-fA-F]{40}$/.test(raw)) {
          expect(outcome.plan?.commit).toEqual({ kind: 'sha', sha: raw.toLowerCase() });
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
        expect(outcome.plan?.secrets).toEqual(secrets);
        expect(outcome.plan?.sensitiveValues).toEqual(
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
        expect(outcome.plan?.secrets).toEqual(secrets);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------
// 4. wait-timeout
// ---------------------------------------------------------------------------

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
        expect(attempt({ 'wait-timeout': text }).plan?.waitTimeoutSeconds).toBe(Number(text));
      }),
      { numRuns: 300 },
    );
  });

  it('rejects, naming wait-timeout, anything that is not a plain positive decimal', () => {
    fc.assert(
      fc.property(fc.oneof(nearlyANumber, anyText, positiveDecimal), (text) => {
        if (acceptableTimeout(text)) {
          expect(attempt({ 'wait-timeout': text }).plan?.waitTimeoutSeconds).toBe(
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

/** uuids, bent: what a path traversal or a copy-paste slip would give. */
const bentUuid = fc
  .tuple(
    fc.uuid(),
    fc.constantFrom(
      '',
      '/',
      '../',
      '%2F',
      '?x=1',
      '#',
      '{',
      ' ',
      '\n',
      '\u0000',
      'x',
      '0',
      '-',
      '/repos',
    ),
    fc.constantFrom(
      '',
      '/',
      '/..',
      '%2F..',
      '?x=1',
      '#',
      '}',
      '\n',
      'x',
      '0',
      '-',
      '/../../v2/deployments',
    ),
    fc.constantFrom('same', 'upper', 'no-dashes', 'braces', 'g'),
  )
  .map(([uuid, prefix, suffix, bend]) => {
    const bent =
      bend === 'upper'
        ? uuid.toUpperCase()
        : bend === 'no-dashes'
          ? uuid.replace(/-/g, '')
          : bend === 'braces'
            ? `{${uuid}}`
            : bend === 'g'
              ? uuid.replace(/[a-f]/, 'g')
              : uuid;
    return `${prefix}${bent}${suffix}`;
  });

const integrationIdText = fc.oneof(bentUuid, anyText, fc.uuid());

describe('integration-id', () => {
  it('only a uuid reaches the plan of a codehost step, from the input', () => {
    fc.assert(
      fc.property(integrationIdText, (text) => {
        const outcome = attempt({ 'integration-id': text });
        if (outcome.plan !== undefined) {
          expect(outcome.plan.source).toBe('codehost');
          if (outcome.plan.source === 'codehost') {
            expect(outcome.plan.integrationId).toMatch(UUID);
            expect(encodeURIComponent(outcome.plan.integrationId)).toBe(outcome.plan.integrationId);
          }
        } else {
          expect(rejectedInputs({ 'integration-id': text })).toEqual(['integration-id']);
          expect(text.trim()).not.toMatch(UUID);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('only a uuid reaches the plan of a codehost step, from config', () => {
    fc.assert(
      fc.property(integrationIdText, fc.constantFrom('json', 'yaml'), (text, format) => {
        const config =
          format === 'json'
            ? JSON.stringify({ source_config: { integration_id: text } })
            : `source_config:\n  integration_id: ${text}`;
        const outcome = attempt({ 'integration-id': '', config });
        if (outcome.plan !== undefined) {
          expect(outcome.plan.source).toBe('codehost');
          if (outcome.plan.source === 'codehost') {
            expect(outcome.plan.integrationId).toMatch(UUID);
            expect(outcome.plan.sourceConfig.integration_id).toBe(outcome.plan.integrationId);
          }
        } else {
          expect(outcome.error).toBeInstanceOf(InputError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------
// 6. Names with URL-significant characters, against the emulator
// ---------------------------------------------------------------------------

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
