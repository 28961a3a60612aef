/**
 * The one place that says what a control character and a line break are, and which each kind
 * of text may hold. A line break is what any reader ends a line at: LF, a lone CR (the runner,
 * as .NET's `ReadLine`), CRLF, NEL, U+2028, U+2029. A control is C0 (tab included), DEL, C1.
 * A bidirectional control (it reorders what a person sees) is taken from Unicode's
 * `\p{Bidi_Control}` property, never listed by hand.
 */
/* eslint-disable no-control-regex -- naming control characters is this file's job */

/** Every line-break sequence, each matched whole (CRLF as one). */
export const LINE_BREAK = /\r\n|[\n\r\u0085\u2028\u2029]/;

/** The same, captured: `text.split(LINE_BREAK_KEPT)` keeps the breaks between the lines. */
export const LINE_BREAK_KEPT = /(\r\n|[\n\r\u0085\u2028\u2029])/;

/** What must not reach one line of output raw (a log line, a status, a cell). */
export const UNSAFE_IN_A_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Bidi_Control}]/gu;

/** The same, a run of them at a time, for text flattened to one line. */
export const UNSAFE_RUN_IN_A_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Bidi_Control}]+/gu;

/** What `JSON.stringify` leaves raw in a string (it escapes C0 itself) that must not reach a line. */
const RAW_IN_JSON_TEXT = /[\u007f-\u009f\u2028\u2029\p{Bidi_Control}]/gu;

/** What a one-line input refuses; C1 and the separators pass: an input is the author's text, not the service's. */
export const UNSAFE_IN_AN_INPUT = /[\u0000-\u001f\u007f]/;

/** What a name GitHub shows and puts in addresses (an environment) refuses. */
export const UNSAFE_IN_A_NAME = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function hasLineBreak(text: string): boolean {
  return LINE_BREAK.test(text);
}

export function hasControlCharacter(text: string): boolean {
  return /[\u0000-\u001f\u007f-\u009f]/.test(text);
}

/** `%XX`, upper-case hex. */
export function percentEscape(character: string): string {
  return `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
}

/** `\uXXXX`, lower-case hex. */
export function unicodeEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

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
