/**
 * JSON text safe for every line reader: what `JSON.stringify` writes, with
 * the characters it leaves raw inside strings and some reader ends a line
 * at (NEL, U+2028, U+2029 for Python's `str.splitlines()`, JavaScript's
 * `readline`, editors) or a terminal obeys (C1 controls, bidirectional
 * controls) written as `\uXXXX` escapes. Still exact JSON: it parses back to
 * the same value. Every JSON the command writes (`--events` lines, `--json`,
 * `list` and `repos --json`) goes through here.
 */
import { RAW_IN_JSON_TEXT, unicodeEscape } from './characters.js';

/**
 * `JSON.stringify(value, null, indent)` with every character of
 * `RAW_IN_JSON_TEXT` escaped. Outside strings JSON text holds only ASCII, so
 * each such character is inside a string, where an escape means the same.
 */
export function lineSafeJson(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent) as string | undefined;
  if (text === undefined) throw new TypeError('lineSafeJson: the value has no JSON text');
  return text.replace(RAW_IN_JSON_TEXT, unicodeEscape);
}
