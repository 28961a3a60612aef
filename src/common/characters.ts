/**
 * The one place that says what a control character and a line break are,
 * and which of them each kind of text may hold. Every writer and parser
 * takes its set from here.
 *
 * - A line break is every sequence some reader ends a line at: LF, a lone
 *   CR (the runner, as .NET's `ReadLine` does), CRLF, NEL (U+0085) and the
 *   Unicode separators U+2028 and U+2029.
 * - A control character is C0 (U+0000–U+001F, tab included), DEL and C1
 *   (U+0080–U+009F; an ANSI escape starts with ESC).
 * - A bidirectional control is every code point of Unicode's `Bidi_Control`
 *   property (`\p{Bidi_Control}`, the whole set as the running JavaScript
 *   engine knows it: U+061C ARABIC LETTER MARK, U+200E, U+200F,
 *   U+202A–U+202E, U+2066–U+2069 in Unicode 16): it reorders what a person
 *   sees. Taken from the property, never listed by hand.
 */
/* eslint-disable no-control-regex -- naming control characters is this file's job */

/** Every line-break sequence, each matched whole (CRLF as one). */
export const LINE_BREAK = /\r\n|[\n\r\u0085\u2028\u2029]/;

/** The same, captured: `text.split(LINE_BREAK_KEPT)` keeps the breaks between the lines. */
export const LINE_BREAK_KEPT = /(\r\n|[\n\r\u0085\u2028\u2029])/;

/**
 * What must not reach one line of output raw (a log line, a status, a cell
 * of the comment or the summary): every control character, every line
 * break and every bidirectional control. Global, for `replace`.
 */
export const UNSAFE_IN_A_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Bidi_Control}]/gu;

/** The same, a run of them at a time, for text flattened to one line. */
export const UNSAFE_RUN_IN_A_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Bidi_Control}]+/gu;

/**
 * What `JSON.stringify` leaves raw inside a string that must not reach a line
 * raw: DEL, C1 (NEL included), U+2028, U+2029 and every bidirectional
 * control (it escapes C0 itself). Global, for `replace`.
 */
export const RAW_IN_JSON_TEXT = /[\u007f-\u009f\u2028\u2029\p{Bidi_Control}]/gu;

/**
 * What an input on one line refuses (`name`, ids, a ref): C0 and DEL, line
 * breaks included. C1 and the separators are accepted, as they always were:
 * an input is the workflow author's text, not the service's.
 */
export const UNSAFE_IN_AN_INPUT = /[\u0000-\u001f\u007f]/;

/**
 * What a name GitHub shows and puts in addresses refuses (an environment):
 * every control character and line break.
 */
export const UNSAFE_IN_A_NAME = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Whether `text` holds a line break. */
export function hasLineBreak(text: string): boolean {
  return LINE_BREAK.test(text);
}

/** Whether `text` holds a control character (C0, DEL or C1). */
export function hasControlCharacter(text: string): boolean {
  return /[\u0000-\u001f\u007f-\u009f]/.test(text);
}

/** A character as a `%XX` escape (upper-case hex), as a URL carries it. */
export function percentEscape(character: string): string {
  return `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
}

/** A character as a `\uXXXX` escape (lower-case hex), as JSON and JavaScript read it back. */
export function unicodeEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
