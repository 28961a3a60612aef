/**
 * What the property-based tests of the inputs (test/inputs/*.property.test.ts)
 * share: a reader of plans with action.yml's defaults read once, assertions on
 * the InputError, and arbitraries of the text a workflow could pass.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { INPUT_NAMES } from '../../src/inputs/core-inputs.ts';
import { InputError } from '../../src/inputs/errors.ts';
import type { DeploySpec } from '../../src/inputs/deploy-spec.ts';
import { readDeploySpec } from './plan-inputs.ts';
import { withDefaults } from './action.ts';

/** An empty workspace: a `config` that looks like a file path finds nothing in it. */
export const WORKSPACE = mkdtempSync(path.join(tmpdir(), 'inputs-property-'));
afterAll(() => rmSync(WORKSPACE, { recursive: true, force: true }));

/**
 * The yaml parser reports odd documents (an unknown `%` directive or tag) with
 * process.emitWarning: harmless, but thousands of fuzzed configs would flood the
 * test output. Other warnings pass through.
 */
export const emitWarning = process.emitWarning.bind(process);
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

export const INTEGRATION_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const DECLARED: readonly string[] = INPUT_NAMES;

/** The least a valid codehost step needs; each property overrides some inputs. */
export const BASE: Record<string, string> = {
  'api-url': 'https://api.example.com',
  name: 'my-agent',
  'integration-id': INTEGRATION_ID,
};

export type Outcome =
  { spec: DeploySpec; error?: undefined } | { spec?: undefined; error: unknown };

/**
 * `reader(given)` of support/action.ts, with action.yml read once rather than on
 * every call (it dominates the run time of thousands of examples).
 */
export const DEFAULTS = withDefaults({});
export function fastReader(given: Record<string, string>): (name: string) => string {
  for (const name of Object.keys(given)) {
    if (!(name in DEFAULTS)) throw new Error(`input '${name}' is not declared in action.yml`);
  }
  const values = { ...DEFAULTS, ...given };
  return (name) => (values[name] ?? '').trim();
}

export function attempt(given: Record<string, string>): Outcome {
  try {
    return { spec: readDeploySpec(fastReader({ ...BASE, ...given }), { workspace: WORKSPACE }) };
  } catch (error) {
    return { error };
  }
}

/**
 * What every failure of readPlan must be: an InputError (anything else would
 * surface as an "Unexpected error") whose problems each name a declared input,
 * as the message shows them.
 */
export function expectInputError(error: unknown): InputError {
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
export function messageOf(given: Record<string, string>): string | undefined {
  const outcome = attempt(given);
  return outcome.spec !== undefined ? undefined : expectInputError(outcome.error).message;
}

/** The inputs named by the problems of the InputError thrown (fails if none is thrown). */
export function rejectedInputs(given: Record<string, string>): string[] {
  const outcome = attempt(given);
  expect(outcome.spec).toBeUndefined();
  return expectInputError(outcome.error).problems.map((problem) => problem.input);
}

// ---------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------

/** Pieces that mean something to one of the parsers (YAML, JSON, lines, URLs, numbers). */
export const TOKENS = [
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

export const tokenText = fc
  .array(fc.constantFrom(...TOKENS), { maxLength: 30 })
  .map((pieces) => pieces.join(''));

/** Very long texts, and deeply nested ones (which overflow a recursive parser's stack). */
export const longText = fc.oneof(
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
export const anyText = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 60 }), weight: 2 },
  { arbitrary: tokenText, weight: 4 },
  { arbitrary: longText, weight: 1 },
);

/** Lines without a line break: junk a secrets or headers text may hold. */
export const junkLine = fc
  .oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), tokenText)
  .map((line) => line.replace(/[\r\n]/g, ' '));

/** A value worth keeping secret: at least 6 characters, no line break, trimmed. */
export const sensitiveValue = fc
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

export const FUZZED_INPUTS = [
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
