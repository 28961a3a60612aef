import { RAW_IN_JSON_TEXT, unicodeEscape } from './characters.js';

/**
 * Every JSON the command writes: `JSON.stringify`'s, with what a line reader ends a line at
 * (NEL, U+2028, U+2029) or a terminal obeys (C1, bidi controls) escaped. Still exact JSON:
 * outside strings JSON holds only ASCII, and inside one an escape means the same.
 */
export function lineSafeJson(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent) as string | undefined;
  if (text === undefined) throw new TypeError('lineSafeJson: the value has no JSON text');
  return text.replace(RAW_IN_JSON_TEXT, unicodeEscape);
}
