/** Parsers throw `Invalid` with what is wrong, never naming the input (the declared list knows it). */
import { shownAddress, webAddressFault } from '../common/address.js';
import { UNSAFE_IN_AN_INPUT } from '../common/characters.js';
import { FULL_SHA, withoutTrailingSlashes } from '../common/text.js';
import { fail } from './errors.js';
import { ON_DRIFT_MODES, type OnDrift, type RepositoryName } from './deploy-spec.js';
import { SOURCES, type Source } from '../service/schemas.js';

/** The longest a job may run on a hosted runner: a longer wait cannot be meant. */
export const MAX_WAIT_TIMEOUT_SECONDS = 6 * 60 * 60;

const YAML_TRUE = ['true', 'True', 'TRUE'];
const YAML_FALSE = ['false', 'False', 'FALSE'];
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const REPOSITORY = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/;
const SHORT_SHA = /^[0-9a-fA-F]{4,39}$/;

export function unlessEmpty<T>(parse: (raw: string) => T): (raw: string) => T | undefined {
  return (raw) => (raw === '' ? undefined : parse(raw));
}

export function parseText(raw: string): string {
  return raw;
}

/** YAML 1.2 core booleans, as `core.getBooleanInput` reads them. */
export function parseBoolean(raw: string): boolean {
  if (YAML_TRUE.includes(raw)) return true;
  if (YAML_FALSE.includes(raw)) return false;
  fail(`must be true or false, got '${raw}'`);
}

/** https:// (http:// only on a loopback host), without credentials (`credentials` says where they go). */
export function parseWebAddress(
  text: string,
  messages: { example: string; credentials: string },
): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail(`is not a valid URL (expected e.g. ${messages.example})`);
  }
  const fault = webAddressFault(url);
  // Checked before anything echoes the URL: credentials in it would leak.
  if (fault === 'credentials') fail(`must not contain credentials: ${messages.credentials}`);
  // Shown without its query and fragment: they may carry a key too.
  const shown = shownAddress(url);
  if (fault === 'plain-http') {
    fail(
      `must use https:// (http:// is allowed only for localhost, 127.0.0.0/8 and [::1]), got '${shown}'`,
    );
  }
  if (fault === 'scheme') fail(`must be an https:// URL, got '${shown}'`);
  return url;
}

export function parseApiUrl(raw: string): string {
  if (raw === '') fail('is required (the service base address, e.g. https://api.example.com)');
  const url = parseWebAddress(raw, {
    example: 'https://api.example.com',
    credentials: 'pass them with api-key or headers',
  });
  if (url.search !== '' || url.hash !== '') {
    fail(
      `must not have a query or fragment: give the base address only, like '${shownAddress(url)}'`,
    );
  }
  return `${url.origin}${withoutTrailingSlashes(url.pathname)}`;
}

export function parseOneOf<T extends string>(values: readonly T[], raw: string): T {
  const value = values.find((candidate) => candidate === raw);
  if (value !== undefined) return value;
  const named = values.length === 2 ? values.join(' or ') : `one of ${values.join(', ')}`;
  fail(`must be ${named}, got '${raw}'`);
}

export function parseSource(raw: string): Source {
  return parseOneOf(SOURCES, raw);
}

export const NAME_REQUIRED = 'is required (the deployment name)';

export function parseName(raw: string): string {
  if (raw === '') fail(NAME_REQUIRED);
  if (UNSAFE_IN_AN_INPUT.test(raw)) fail('must not contain control characters or line breaks');
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

/** `auto` is resolved against the run's event later. */
export type CommitInput = { kind: 'auto' } | { kind: 'none' } | { kind: 'sha'; sha: string };

export function parseCommit(raw: string): CommitInput {
  if (raw === 'auto' || raw === 'none') return { kind: raw };
  if (FULL_SHA.test(raw)) return { kind: 'sha', sha: raw.toLowerCase() };
  if (SHORT_SHA.test(raw)) {
    // The service records full shas only: a prefix could never be matched.
    fail(`must be a full 40-character commit sha, got the short sha '${raw}'`);
  }
  fail(`must be auto, none or a full 40-character commit sha, got '${raw}'`);
}

export function parseOnDrift(raw: string): OnDrift {
  return parseOneOf(ON_DRIFT_MODES, raw);
}

const ON_CHANGE_MODES = ['none', 'fail'] as const;
export type OnChange = (typeof ON_CHANGE_MODES)[number];

export function parseOnChange(raw: string): OnChange {
  return parseOneOf(ON_CHANGE_MODES, raw);
}
