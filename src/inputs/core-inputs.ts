/**
 * The core's inputs, declared once (declare.ts says how): each input's name,
 * in action.yml's order, with its parser and its default. `INPUT_NAMES`,
 * `InputName`, the inputs masked before they are parsed and the parsed
 * values' type come from this one record (test/repo/contract.test.ts checks
 * each entry's set, these and its own, against its action.yml).
 */
import { parseConfig } from './config.js';
import { parseDashboardUrl } from './dashboard-url.js';
import { forkRunProblem } from './fork.js';
import { parseApiKey, parseApiKeyHeader, parseHeaders } from './headers.js';
import { parseHealthCheck } from './health-check.js';
import { parseImageReference } from './image-reference.js';
import { input, namesOf, sensitiveNames, type InputValues } from './declare.js';
import { parseManifest } from './manifest.js';
import { nameBesideAgents, parseNameOrTemplate } from './name-template.js';
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
import type { RepositoryName } from './deploy-spec.js';
import type { RunDescription } from './run-description.js';
import { parseSecrets } from './secrets.js';

/**
 * `repository`, or the run's own when given empty (the default); the run's
 * own is on the run's host, when the run knows it.
 */
function parseRepositoryInput(raw: string, run: RunDescription): RepositoryName | undefined {
  const own = raw === '' || raw === run.repository;
  const parsed = unlessEmpty(parseRepository)(own ? (run.repository ?? '') : raw);
  const host = own ? run.repositoryHost?.toLowerCase() : undefined;
  return parsed === undefined || host === undefined ? parsed : { ...parsed, host };
}

/** The core's inputs: every entry's set shares them (the deploy step's declares them all). */
export const INPUTS = {
  'api-url': input(parseApiUrl),
  'api-key': input(parseApiKey, { sensitive: true, default: '', runProblem: forkRunProblem }),
  'api-key-header': input(parseApiKeyHeader, { default: 'X-Api-Key' }),
  headers: input(parseHeaders, { sensitive: true, default: '' }),
  name: input(parseNameOrTemplate, { default: '', besides: nameBesideAgents }),
  agents: input((raw, run) => parseManifest(raw, run.workspace), { default: '' }),
  source: input(parseSource, { default: 'codehost' }),
  config: input((raw, run) => parseConfig(raw, run.workspace), { default: '' }),
  'integration-id': input(unlessEmpty(parseGuid), { default: '' }),
  repository: input(parseRepositoryInput, { default: { run: 'repository' } }),
  'repo-ref': input(unlessEmpty(parseText), { default: '' }),
  'agent-config-path': input(unlessEmpty(parseText), { default: '' }),
  'image-uri': input(unlessEmpty(parseImageReference), { default: '' }),
  secrets: input(parseSecrets, { sensitive: true, default: '' }),
  'wait-for-ready': input(parseBoolean, { default: 'false' }),
  'wait-timeout': input(parseWaitTimeout, { default: '900' }),
  'health-check': input(parseHealthCheck, { default: '' }),
  'health-check-headers': input(parseHeaders, { sensitive: true, default: '' }),
  'health-check-expect': input(unlessEmpty(parseText), { default: '' }),
  commit: input(parseCommit, { default: 'auto' }),
  'on-drift': input(parseOnDrift, { default: 'warn' }),
  'dry-run': input(parseBoolean, { default: 'false' }),
  'dashboard-url': input(unlessEmpty(parseDashboardUrl), { default: '' }),
};

export type InputName = keyof typeof INPUTS;

/** The names of every input, in action.yml's order. */
export const INPUT_NAMES: readonly InputName[] = namesOf(INPUTS);

/** Inputs whose raw text is masked before it is even parsed. */
export const SENSITIVE_INPUT_NAMES: readonly InputName[] = sensitiveNames(INPUTS);

/** Every core input's value, each parsed on its own. */
export type ParsedInputs = InputValues<typeof INPUTS>;

/** `name` in a set without `agents`: required, one deployment's name. */
const REQUIRED_NAME = input(parseName);

/**
 * Some of the core's inputs, as an entry that takes only those declares
 * them, in `names`' order; an entry that takes `name` without `agents`
 * takes it required.
 */
export const pick = <K extends InputName>(names: readonly K[]) => {
  const manifest = names.includes('agents' as K);
  return Object.fromEntries(
    names.map((name) => [name, name === 'name' && !manifest ? REQUIRED_NAME : INPUTS[name]]),
  ) as { [N in K]: (typeof INPUTS)[N] };
};
