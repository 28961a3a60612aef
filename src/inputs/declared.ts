/**
 * The inputs action.yml declares, once: each input's name, in action.yml's
 * order, with its parser. `INPUT_NAMES`, `InputName`, the inputs masked
 * before they are parsed, and the keys of the zod object that parses them
 * all come from this one record (test/contract.test.ts checks it against
 * action.yml and the README).
 */
import { z } from 'zod';
import { parseConfig } from './config.js';
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
import type { RepositoryName, RunEnvironment } from './plan.js';
import { parseSecrets } from './secrets.js';

interface DeclaredInput<T> {
  /** From the input's text (trimmed, `''` when not given) to its value; throws `Invalid`. */
  readonly parse: (raw: string, environment: RunEnvironment) => T;
  /** Its raw text is masked before it is parsed: it holds secret values. */
  readonly sensitive: boolean;
}

function input<T>(
  parse: (raw: string, environment: RunEnvironment) => T,
  { sensitive = false } = {},
): DeclaredInput<T> {
  return { parse, sensitive };
}

/** `repository`, or the workflow's own when given empty. */
function parseRepositoryInput(
  raw: string,
  environment: RunEnvironment,
): RepositoryName | undefined {
  return unlessEmpty(parseRepository)(raw === '' ? (environment.repository ?? '') : raw);
}

export const INPUTS = {
  'api-url': input(parseApiUrl),
  'api-key': input(parseApiKey, { sensitive: true }),
  'api-key-header': input(parseApiKeyHeader),
  headers: input(parseHeaders, { sensitive: true }),
  name: input(parseName),
  source: input(parseSource),
  config: input((raw, environment) => parseConfig(raw, environment.workspace)),
  'integration-id': input(unlessEmpty(parseGuid)),
  repository: input(parseRepositoryInput),
  'repo-ref': input(unlessEmpty(parseText)),
  'agent-config-path': input(unlessEmpty(parseText)),
  'image-uri': input(unlessEmpty(parseText)),
  secrets: input(parseSecrets, { sensitive: true }),
  'wait-for-ready': input(parseBoolean),
  'wait-timeout': input(parseWaitTimeout),
  commit: input(parseCommit),
  'on-drift': input(parseOnDrift),
  'dry-run': input(parseBoolean),
};

export type InputName = keyof typeof INPUTS;

/** The names of every input, in action.yml's order. */
export const INPUT_NAMES = Object.keys(INPUTS) as readonly InputName[];

/** Inputs whose raw text is masked before it is even parsed. */
export const SENSITIVE_INPUT_NAMES: readonly InputName[] = INPUT_NAMES.filter(
  (name) => INPUTS[name].sensitive,
);

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
export function inputsSchema(environment: RunEnvironment) {
  const shape = Object.fromEntries(
    INPUT_NAMES.map((name) => [name, inputSchema((raw) => INPUTS[name].parse(raw, environment))]),
  ) as InputSchemas;
  return z.object(shape);
}

/** Every input's value, each parsed on its own. */
export type ParsedInputs = z.output<ReturnType<typeof inputsSchema>>;
