/**
 * The inputs action.yml declares, once: each input's name, in action.yml's
 * order, with its parser and its default. `INPUT_NAMES`, `InputName`, the
 * inputs masked before they are parsed, the defaults, and the keys of the zod
 * object that parses them all come from this one record
 * (test/repo/contract.test.ts checks it against action.yml and the README).
 */
import { z } from 'zod';
import { parseConfig } from './config.js';
import { parseDashboardUrl } from './dashboard-url.js';
import { parseApiKey, parseApiKeyHeader, parseHeaders } from './headers.js';
import { Invalid } from './errors.js';
import {
  parseApiUrl,
  parseBoolean,
  parseCommit,
  parseGuid,
  parseName,
  parseOnDrift,
  parseRepository,
  parseSource,
  parseText,
  parseWaitTimeout,
  unlessEmpty,
} from './parsers.js';
import type { RepositoryName } from './plan.js';
import type { RunDescription } from './run-description.js';
import { parseSecrets } from './secrets.js';

/**
 * An input's default: a text, or a field of the run's description, which
 * action.yml spells `${{ github.<field> }}`.
 */
export type InputDefault = string | { run: 'repository' };

export interface DeclaredInput<T> {
  /** From the input's text (trimmed, `''` when not given) to its value; throws `Invalid`. */
  readonly parse: (raw: string, run: RunDescription) => T;
  /** Its raw text is masked before it is parsed: it holds secret values. */
  readonly sensitive: boolean;
  /** The value when the input is not given; a required input has none. */
  readonly default?: InputDefault;
}

export function input<T>(
  parse: (raw: string, run: RunDescription) => T,
  options: { sensitive?: boolean; default?: InputDefault } = {},
): DeclaredInput<T> {
  return { parse, sensitive: options.sensitive ?? false, default: options.default };
}

/** `repository`, or the run's own when given empty. */
function parseRepositoryInput(raw: string, run: RunDescription): RepositoryName | undefined {
  return unlessEmpty(parseRepository)(raw === '' ? (run.repository ?? '') : raw);
}

export const INPUTS = {
  'api-url': input(parseApiUrl),
  'api-key': input(parseApiKey, { sensitive: true, default: '' }),
  'api-key-header': input(parseApiKeyHeader, { default: 'X-Api-Key' }),
  headers: input(parseHeaders, { sensitive: true, default: '' }),
  name: input(parseName),
  source: input(parseSource, { default: 'codehost' }),
  config: input((raw, run) => parseConfig(raw, run.workspace), { default: '' }),
  'integration-id': input(unlessEmpty(parseGuid), { default: '' }),
  repository: input(parseRepositoryInput, { default: { run: 'repository' } }),
  'repo-ref': input(unlessEmpty(parseText), { default: '' }),
  'agent-config-path': input(unlessEmpty(parseText), { default: '' }),
  'image-uri': input(unlessEmpty(parseText), { default: '' }),
  secrets: input(parseSecrets, { sensitive: true, default: '' }),
  'wait-for-ready': input(parseBoolean, { default: 'false' }),
  'wait-timeout': input(parseWaitTimeout, { default: '900' }),
  commit: input(parseCommit, { default: 'auto' }),
  'on-drift': input(parseOnDrift, { default: 'warn' }),
  'dry-run': input(parseBoolean, { default: 'false' }),
  'dashboard-url': input(unlessEmpty(parseDashboardUrl), { default: '' }),
};

export type InputName = keyof typeof INPUTS;

/** The names of every input, in action.yml's order. */
export const INPUT_NAMES = Object.keys(INPUTS) as readonly InputName[];

/** Inputs whose raw text is masked before it is even parsed. */
export const SENSITIVE_INPUT_NAMES: readonly InputName[] = INPUT_NAMES.filter(
  (name) => INPUTS[name].sensitive,
);

/** The text an input has when it is not given: its default, or `''` for a required one. */
export function defaultText(name: InputName, run: RunDescription): string {
  const fallback: InputDefault = INPUTS[name].default ?? '';
  return typeof fallback === 'string' ? fallback : (run[fallback.run] ?? '');
}

/** A zod schema for one input: its parser's `Invalid` becomes an issue. */
function inputSchema<T>(parse: (raw: string) => T) {
  return z.string().transform((raw, context): T => {
    try {
      return parse(raw);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      context.addIssue({ code: 'custom', message: error.message });
      return z.NEVER;
    }
  });
}

type InputSchemas = {
  [K in InputName]: ReturnType<typeof inputSchema<ReturnType<(typeof INPUTS)[K]['parse']>>>;
};

/** Every input parsed on its own; an issue's path is the input's name. */
export function inputsSchema(run: RunDescription) {
  const shape = Object.fromEntries(
    INPUT_NAMES.map((name) => [name, inputSchema((raw) => INPUTS[name].parse(raw, run))]),
  ) as InputSchemas;
  return z.object(shape);
}

/** Every input's value, each parsed on its own. */
export type ParsedInputs = z.output<ReturnType<typeof inputsSchema>>;
