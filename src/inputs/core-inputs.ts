/** The core's inputs in action.yml's order (test/repo/contract.test.ts checks every entry's set against its action.yml). */
import { parseConfig } from './config.js';
import { parseDashboardUrl } from './dashboard-url.js';
import { parseApiKey, parseApiKeyHeader, parseHeaders } from './headers.js';
import { parseHealthCheck } from './health-inputs.js';
import { parseImageReference } from './image-reference.js';
import { input, namesOf, type InputValues } from './declare.js';
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
import { forkRunProblem, type RunDescription } from './run-description.js';
import { parseSecrets } from './secrets.js';

/** `repository`, or the run's own when given empty (the default), on the run's host when known. */
function parseRepositoryInput(raw: string, run: RunDescription): RepositoryName | undefined {
  const own = raw === '' || raw === run.repository;
  const parsed = unlessEmpty(parseRepository)(own ? (run.repository ?? '') : raw);
  const host = own ? run.repositoryHost?.toLowerCase() : undefined;
  return parsed === undefined || host === undefined ? parsed : { ...parsed, host };
}

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

export const INPUT_NAMES: readonly InputName[] = namesOf(INPUTS);

export type ParsedInputs = InputValues<typeof INPUTS>;

const REQUIRED_NAME = input(parseName);

/** Some of the core's inputs, in `names`' order; `name` without `agents` is required. */
export const pick = <K extends InputName>(names: readonly K[]) => {
  const manifest = names.includes('agents' as K);
  return Object.fromEntries(
    names.map((name) => [name, name === 'name' && !manifest ? REQUIRED_NAME : INPUTS[name]]),
  ) as { [N in K]: (typeof INPUTS)[N] };
};

export const DASHBOARD_INPUT = pick(['dashboard-url']);
