/**
 * Every input of action.yml is read here, once, into one typed plan. Nothing
 * here sends a request: a bad input fails the step before the first one.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { InputError } from './errors.js';
import {
  SOURCES,
  SecretReferenceSchema,
  SourceConfigRequestSchema,
  SourceRevisionConfigRequestSchema,
  formatZodIssues,
  type Secret,
  type SecretReference,
  type Source,
  type SourceConfigRequest,
  type SourceRevisionConfigRequest,
} from './schemas.js';

/** The names of every input, as action.yml declares them. */
export const INPUT_NAMES = [
  'api-url',
  'api-key',
  'api-key-header',
  'headers',
  'name',
  'source',
  'config',
  'integration-id',
  'repository',
  'repo-ref',
  'agent-config-path',
  'image-uri',
  'secrets',
  'wait-for-ready',
  'wait-timeout',
  'dry-run',
] as const;
export type InputName = (typeof INPUT_NAMES)[number];

/** Reads one input as `core.getInput` does: trimmed, `''` when not given. */
export type InputReader = (name: InputName) => string;

export interface RunEnvironment {
  /** GITHUB_WORKSPACE: where a `config` file path is resolved. */
  workspace: string;
  /** The workflow's repository (`owner/name`), when `repository` is given empty. */
  repository?: string;
}

/** The `config` input: what may be set beyond the dedicated inputs. */
export const ConfigSchema = z.strictObject({
  source_config: SourceConfigRequestSchema.nullish(),
  source_revision_config: SourceRevisionConfigRequestSchema.nullish(),
  secret_references: z.array(SecretReferenceSchema).nullish(),
});
export type Config = z.infer<typeof ConfigSchema>;

export interface RepositoryName {
  owner: string;
  name: string;
}

interface CommonPlan {
  /** Base address without a trailing slash. */
  apiUrl: string;
  /** Every header sent with each request: the api key and the extra headers. */
  headers: Record<string, string>;
  name: string;
  sourceConfig: SourceConfigRequest;
  sourceRevisionConfig: SourceRevisionConfigRequest;
  secrets: Secret[];
  waitForReady: boolean;
  waitTimeoutSeconds: number;
  dryRun: boolean;
  /** Every value that must never be printed: api key, header values, secret values. */
  sensitiveValues: string[];
}

export interface CodehostPlan extends CommonPlan {
  source: 'codehost';
  integrationId: string;
  repository: RepositoryName;
}

export interface ExternalDockerPlan extends CommonPlan {
  source: 'external_docker';
  secretReferences: SecretReference[] | null;
}

export interface OtherSourcePlan extends CommonPlan {
  source: Exclude<Source, 'codehost' | 'external_docker'>;
}

export type Plan = CodehostPlan | ExternalDockerPlan | OtherSourcePlan;

const YAML_TRUE = ['true', 'True', 'TRUE'];
const YAML_FALSE = ['false', 'False', 'FALSE'];
const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What an HTTP header value may hold: no control characters, nothing beyond Latin-1. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const UNSENDABLE =
  'cannot be sent in an HTTP header (it has a control character or a character beyond Latin-1)';
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const REPOSITORY = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** The longest a job may run on a hosted runner: a longer wait cannot be meant. */
export const MAX_WAIT_TIMEOUT_SECONDS = 6 * 60 * 60;
/** Headers the action sets itself. */
const RESERVED_HEADERS = ['content-type', 'content-length', 'host', 'accept'];

/** Thrown by a parser below: what is wrong with the value, without naming the input. */
export class Invalid extends Error {
  override name = 'Invalid';
}

/** A zod schema for one input, from a parser that throws `Invalid`. */
function input<T>(parse: (raw: string) => T) {
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

function fail(message: string): never {
  throw new Invalid(message);
}

export function parseBoolean(raw: string): boolean {
  if (YAML_TRUE.includes(raw)) return true;
  if (YAML_FALSE.includes(raw)) return false;
  fail(`must be true or false, got '${raw}'`);
}

function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  const octets = hostname.split('.');
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255)
  );
}

export function parseApiUrl(raw: string): string {
  if (raw === '') fail('is required (the service base address, e.g. https://api.example.com)');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail('is not a valid URL (expected e.g. https://api.example.com)');
  }
  // Checked before anything echoes the URL: credentials in it would leak.
  if (url.username !== '' || url.password !== '') {
    fail('must not contain credentials: pass them with api-key or headers');
  }
  // Shown without its query and fragment: they may carry a key too.
  const shown = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    fail(
      `must use https:// (http:// is allowed only for localhost, 127.0.0.0/8 and [::1]), got '${shown}'`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    fail(`must be an https:// URL, got '${shown}'`);
  }
  if (url.search !== '' || url.hash !== '') {
    fail(`must not have a query or fragment: give the base address only, like '${shown}'`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function parseSource(raw: string): Source {
  const source = SOURCES.find((candidate) => candidate === raw);
  if (source === undefined) fail(`must be one of ${SOURCES.join(', ')}, got '${raw}'`);
  return source;
}

export function parseName(raw: string): string {
  if (raw === '') fail('is required (the deployment name)');
  if (CONTROL_CHARACTERS.test(raw)) fail('must not contain control characters or line breaks');
  return raw;
}

export function parseWaitTimeout(raw: string): number {
  if (!/^\d+(\.\d+)?$/.test(raw)) fail(`must be a positive number of seconds, got '${raw}'`);
  const seconds = Number(raw);
  if (!(seconds > 0)) fail(`must be a positive number of seconds, got '${raw}'`);
  if (seconds > MAX_WAIT_TIMEOUT_SECONDS) {
    fail(`must be at most ${MAX_WAIT_TIMEOUT_SECONDS} seconds (6 hours), got '${raw}'`);
  }
  return seconds;
}

export function parseGuid(raw: string): string {
  if (!GUID.test(raw))
    fail(`must be a uuid (like 0f8fad5b-d9cb-469f-a165-70867728950e), got '${raw}'`);
  return raw.toLowerCase();
}

export function parseRepository(raw: string): RepositoryName {
  const match = REPOSITORY.exec(raw);
  if (match === null) fail(`must be owner/name, got '${raw}'`);
  return { owner: match[1] ?? '', name: match[2] ?? '' };
}

/** A header name fetch can send: `__proto__` is a token, but a record of headers drops it. */
function isSendableHeaderName(name: string): boolean {
  return HEADER_TOKEN.test(name) && name !== '__proto__';
}

export function parseHeaderName(raw: string): string {
  if (!isSendableHeaderName(raw)) fail(`is not a valid header name: '${raw}'`);
  return raw;
}

/** `Name: value` lines. Messages never include a value: values are secret. */
export function parseHeaders(raw: string): Record<string, string> {
  const headers: [string, string][] = [];
  // Lines are named by number, not by content: a stray line may be part of a value.
  const seen = new Map<string, number>();
  for (const [index, line] of raw.split(/\r?\n/).entries()) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    const value = colon < 0 ? '' : line.slice(colon + 1).trim();
    if (colon < 0 || !isSendableHeaderName(name)) {
      fail(`line ${index + 1} is not 'Name: value' with a valid header name`);
    }
    if (value === '') fail(`line ${index + 1} has an empty value`);
    if (!HEADER_VALUE.test(value)) fail(`the value on line ${index + 1} ${UNSENDABLE}`);
    const key = name.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) fail(`line ${index + 1} repeats the header of line ${first}`);
    if (RESERVED_HEADERS.includes(key))
      fail(`line ${index + 1} sets a header the action sets itself`);
    seen.set(key, index + 1);
    headers.push([name, value]);
  }
  return Object.fromEntries(headers);
}

export function parseApiKey(raw: string): string {
  if (!HEADER_VALUE.test(raw)) fail(`the value ${UNSENDABLE}`);
  return raw;
}

/**
 * `NAME=value` lines (split at the first `=`, blank lines and `#` comments
 * ignored) or a JSON object. Messages never include a value.
 */
export function parseSecrets(raw: string): Secret[] {
  if (raw === '') return [];
  // Where each entry comes from, as messages name it. A line is named by its
  // number, never by its text: a line of a multi-line value pasted by mistake
  // may look like NAME=value, and its "name" is then a piece of a secret.
  const entries: { name: string; value: unknown; where: string }[] = [];
  if (raw.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      fail('looks like a JSON object but is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      fail('must be NAME=value lines or a JSON object');
    }
    for (const [index, [name, value]] of Object.entries(parsed).entries()) {
      // An invalid key is not echoed: it may be a value put in its place.
      const where = SECRET_NAME.test(name) ? `secret ${name}` : `key ${index + 1}`;
      entries.push({ name, value, where });
    }
  } else {
    for (const [index, line] of raw.split(/\r?\n/).entries()) {
      if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
      const equals = line.indexOf('=');
      if (equals < 0) fail(`line ${index + 1} is not NAME=value (no '=' found)`);
      const name = line.slice(0, equals).trim();
      entries.push({ name, value: line.slice(equals + 1).trim(), where: `line ${index + 1}` });
    }
  }
  const seen = new Map<string, string>();
  return entries.map(({ name, value, where }) => {
    if (!SECRET_NAME.test(name)) {
      fail(
        `${where} does not start with a valid secret name (letters, digits and _, not starting with a digit)`,
      );
    }
    const earlier = seen.get(name);
    if (earlier !== undefined) fail(`${where} repeats the secret name of ${earlier}`);
    seen.set(name, where);
    if (typeof value !== 'string') fail(`${where} must have a string value`);
    if (value === '') {
      fail(`${where} has an empty value (is the GitHub secret it comes from defined?)`);
    }
    return { name, value };
  });
}

function parseConfigText(text: string, format: 'json' | 'yaml'): unknown {
  try {
    return format === 'json' ? JSON.parse(text) : parseYaml(text, { uniqueKeys: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    fail(`is not valid ${format === 'json' ? 'JSON' : 'YAML'}: ${reason}`);
  }
}

function readConfigFile(raw: string, workspace: string): unknown {
  const root = path.resolve(workspace);
  const file = path.resolve(root, raw);
  const relative = path.relative(root, file);
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    fail(`file '${raw}' is outside the workspace`);
  }
  if (!existsSync(file) || !statSync(file).isFile()) {
    fail(`file '${raw}' was not found in the workspace (${root})`);
  }
  const format = file.toLowerCase().endsWith('.json') ? 'json' : 'yaml';
  return parseConfigText(readFileSync(file, 'utf8'), format);
}

/** Inline JSON or YAML, or the path of a .json/.yaml/.yml file in the workspace. */
export function parseConfig(raw: string, workspace: string): Config {
  if (raw === '') return {};
  const isPath = !raw.includes('\n') && /\.(json|ya?ml)$/i.test(raw) && !/^[{[]/.test(raw);
  const parsed = isPath ? readConfigFile(raw, workspace) : parseConfigText(raw, 'yaml');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    fail(
      'must be a JSON or YAML object with keys source_config, source_revision_config, secret_references',
    );
  }
  try {
    JSON.stringify(parsed);
  } catch {
    fail('cannot be sent as JSON (a YAML anchor refers to itself?)');
  }
  const result = ConfigSchema.safeParse(parsed);
  if (!result.success) fail(formatZodIssues(result.error).join('; '));
  return result.data;
}

function optional(raw: string): string | undefined {
  return raw === '' ? undefined : raw;
}

/**
 * The inputs as action.yml declares them (defaults applied), each parsed by
 * its own schema; the combinations that depend on `source` are checked once
 * every input parsed on its own.
 */
export function inputsSchema(environment: RunEnvironment) {
  return z
    .object({
      'api-url': input(parseApiUrl),
      'api-key': input(parseApiKey),
      'api-key-header': input(parseHeaderName),
      headers: input(parseHeaders),
      name: input(parseName),
      source: input(parseSource),
      config: input((raw) => parseConfig(raw, environment.workspace)),
      'integration-id': input((raw) => (raw === '' ? undefined : parseGuid(raw))),
      repository: input((raw) => {
        const given = raw === '' ? environment.repository : raw;
        return given === undefined || given === '' ? undefined : parseRepository(given);
      }),
      'repo-ref': input(optional),
      'agent-config-path': input(optional),
      'image-uri': input(optional),
      secrets: input(parseSecrets),
      'wait-for-ready': input(parseBoolean),
      'wait-timeout': input(parseWaitTimeout),
      'dry-run': input(parseBoolean),
    })
    .transform((inputs, context): Plan => {
      const problem = (name: InputName, message: string) => {
        context.addIssue({ code: 'custom', path: [name], message });
      };
      const { config, source } = inputs;
      const sourceConfig: SourceConfigRequest = { ...config.source_config };
      if (inputs['integration-id'] !== undefined) {
        sourceConfig.integration_id = inputs['integration-id'];
      }
      const sourceRevisionConfig: SourceRevisionConfigRequest = {
        ...config.source_revision_config,
      };
      if (inputs['repo-ref'] !== undefined) sourceRevisionConfig.repo_ref = inputs['repo-ref'];
      if (inputs['agent-config-path'] !== undefined) {
        sourceRevisionConfig.agent_config_path = inputs['agent-config-path'];
      }
      if (inputs['image-uri'] !== undefined) sourceRevisionConfig.image_uri = inputs['image-uri'];
      const secretReferences = config.secret_references ?? null;

      const apiKey = inputs['api-key'];
      const apiKeyHeader = inputs['api-key-header'];
      const extraHeaders = Object.entries(inputs.headers);
      if (apiKey !== '') {
        const clash = extraHeaders.find(
          ([header]) => header.toLowerCase() === apiKeyHeader.toLowerCase(),
        );
        if (clash !== undefined) {
          problem('headers', `header '${clash[0]}' would replace the api-key header`);
        }
      }
      const headers = Object.fromEntries(
        apiKey === '' ? extraHeaders : [...extraHeaders, [apiKeyHeader, apiKey]],
      );

      if (source !== 'external_docker' && secretReferences !== null) {
        problem(
          'config',
          `secret_references applies only to source external_docker, not ${source}`,
        );
      }
      if (
        (source === 'external_docker' || source === 'internal_docker') &&
        sourceRevisionConfig.image_uri == null
      ) {
        problem(
          'image-uri',
          `is required with source ${source} (or config.source_revision_config.image_uri)`,
        );
      }
      if (source === 'internal_source' && sourceRevisionConfig.source_tarball_path == null) {
        problem(
          'config',
          'source internal_source needs source_revision_config.source_tarball_path',
        );
      }
      const integrationId = sourceConfig.integration_id;
      if (source === 'codehost' && integrationId == null) {
        problem(
          'integration-id',
          'is required with source codehost (or config.source_config.integration_id)',
        );
      }
      if (source === 'codehost' && inputs.repository === undefined) {
        problem('repository', 'is required with source codehost (owner/name)');
      }

      const common: CommonPlan = {
        apiUrl: inputs['api-url'],
        headers,
        name: inputs.name,
        sourceConfig,
        sourceRevisionConfig,
        secrets: inputs.secrets,
        waitForReady: inputs['wait-for-ready'],
        waitTimeoutSeconds: inputs['wait-timeout'],
        dryRun: inputs['dry-run'],
        sensitiveValues: [
          apiKey,
          ...Object.values(inputs.headers),
          ...inputs.secrets.map((secret) => secret.value),
        ],
      };
      if (source === 'codehost') {
        if (integrationId == null || inputs.repository === undefined) return z.NEVER;
        return { ...common, source, integrationId, repository: inputs.repository };
      }
      if (source === 'external_docker') return { ...common, source, secretReferences };
      return { ...common, source };
    });
}

/** Reads and validates every input. Throws an `InputError` naming each bad one. */
export function readPlan(read: InputReader, environment: RunEnvironment): Plan {
  const raw = Object.fromEntries(INPUT_NAMES.map((name) => [name, read(name)]));
  const result = inputsSchema(environment).safeParse(raw);
  if (result.success) return result.data;
  throw new InputError(
    result.error.issues.map((issue) => ({
      input: String(issue.path[0] ?? 'inputs'),
      problem: issue.message,
    })),
  );
}
