/**
 * Messages never include a value, and name a line by its number, never its text: a line of
 * a multi-line value pasted by mistake may look like NAME=value, its "name" a piece of a secret.
 */
import { EmptyValue, fail } from './errors.js';
import type { Secret } from '../service/schemas.js';
import { parseStrictJson } from './strict-json.js';

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface Entry {
  name: string;
  value: unknown;
  where: string;
}

function lineEntries(raw: string): Entry[] {
  const entries: Entry[] = [];
  for (const [index, line] of raw.split(/\r?\n/).entries()) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const equals = line.indexOf('=');
    if (equals < 0) fail(`line ${index + 1} is not NAME=value (no '=' found)`);
    const name = line.slice(0, equals).trim();
    entries.push({ name, value: line.slice(equals + 1).trim(), where: `line ${index + 1}` });
  }
  return entries;
}

function jsonEntries(raw: string): Entry[] {
  const json = parseStrictJson(raw);
  // JSON.parse's own message may quote the text, so it is not shown.
  if (json.kind === 'invalid') fail('looks like a JSON object but is not valid JSON');
  if (json.kind === 'unchecked') fail('is nested too deeply to be checked for repeated names');
  const { value: parsed, repeated } = json;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    fail('must be NAME=value lines or a JSON object');
  }
  // Named by position: a repeated key may be a value put in a name's place. Deeper ones fail
  // below: a value must be a string.
  if (repeated !== undefined && repeated.path.length === 1) {
    fail(`key ${repeated.index + 1} repeats the secret name of key ${repeated.firstIndex + 1}`);
  }
  return Object.entries(parsed as Record<string, unknown>).map(([name, value], index) => ({
    name,
    value,
    // An invalid key is not echoed, for the same reason.
    where: SECRET_NAME.test(name) ? `secret ${name}` : `key ${index + 1}`,
  }));
}

function checkEntry({ name, value, where }: Entry, earlier: string | undefined): Secret {
  if (!SECRET_NAME.test(name)) {
    fail(
      `${where} does not start with a valid secret name (letters, digits and _, not starting with a digit)`,
    );
  }
  if (earlier !== undefined) fail(`${where} repeats the secret name of ${earlier}`);
  if (typeof value !== 'string') fail(`${where} must have a string value`);
  if (value === '') {
    throw new EmptyValue(
      `${where} has an empty value (is the GitHub secret it comes from defined?)`,
    );
  }
  return { name, value };
}

export function parseSecrets(raw: string): Secret[] {
  if (raw === '') return [];
  const entries = raw.startsWith('{') ? jsonEntries(raw) : lineEntries(raw);
  const seen = new Map<string, string>();
  return entries.map((entry) => {
    const secret = checkEntry(entry, seen.get(entry.name));
    seen.set(entry.name, entry.where);
    return secret;
  });
}
