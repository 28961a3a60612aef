/** The one place that says what a control character and a line break are (src/common/characters.ts). */
import { describe, expect, it } from 'vitest';
import {
  LINE_BREAK,
  UNSAFE_IN_AN_INPUT,
  UNSAFE_IN_A_LINE,
  UNSAFE_IN_A_NAME,
  UNSAFE_RUN_IN_A_LINE,
  hasControlCharacter,
  hasLineBreak,
  lineSafeJson,
} from '../../src/common/characters.ts';
import { untrusted } from '../../src/common/runtime.ts';

const BREAKS = ['\n', '\r', '\r\n', '\u0085', '\u2028', '\u2029'];

describe('line breaks', () => {
  it.each(BREAKS.map((b) => [JSON.stringify(b), b]))('%s is one', (_, b) => {
    expect(hasLineBreak(`a${b}b`)).toBe(true);
    expect(`a${b}b`.split(LINE_BREAK)).toEqual(['a', 'b']);
  });

  it('a tab or a form feed is not one', () => {
    expect(hasLineBreak('a\tb\fc')).toBe(false);
  });
});

describe('the subsets', () => {
  it('an output line takes no control, break or bidirectional control', () => {
    for (const c of ['\t', '\u001b', '\u007f', '\u0085', '\u009b', '\u2028', '\u202e', '\u2066']) {
      expect(`a${c}b`.replace(UNSAFE_IN_A_LINE, '?')).toBe('a?b');
    }
    expect('plain text, ümlaut, 漢字'.replace(UNSAFE_IN_A_LINE, '?')).toBe(
      'plain text, ümlaut, 漢字',
    );
  });

  it("an output line takes every code point of Unicode's Bidi_Control property, U+061C included", () => {
    const bidi: number[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (/\p{Bidi_Control}/u.test(String.fromCodePoint(code))) bidi.push(code);
    }
    expect(bidi).toContain(0x061c);
    expect(bidi.length).toBeGreaterThanOrEqual(12);
    for (const code of bidi) {
      const c = String.fromCodePoint(code);
      expect(`a${c}b`.replace(UNSAFE_IN_A_LINE, '?'), code.toString(16)).toBe('a?b');
      expect(`a${c}${c}b`.replace(UNSAFE_RUN_IN_A_LINE, ' '), code.toString(16)).toBe('a b');
      const shown = untrusted(`a${c}b`);
      expect(shown, code.toString(16)).toBe(`a\\u${code.toString(16).padStart(4, '0')}b`);
    }
  });

  it('an input refuses C0 and DEL, as it always did, and keeps C1 and the separators', () => {
    expect(UNSAFE_IN_AN_INPUT.test('a\tb')).toBe(true);
    expect(UNSAFE_IN_AN_INPUT.test('a\u007fb')).toBe(true);
    expect(UNSAFE_IN_AN_INPUT.test('a\u0085b')).toBe(false);
    expect(UNSAFE_IN_AN_INPUT.test('a\u2028b')).toBe(false);
  });

  it('a name GitHub shows refuses every control character and break', () => {
    for (const c of ['\t', '\u0085', '\u009f', '\u2028', '\u2029']) {
      expect(UNSAFE_IN_A_NAME.test(`a${c}b`)).toBe(true);
    }
    expect(UNSAFE_IN_A_NAME.test('preview-pr-7')).toBe(false);
  });

  it('a control character is C0, DEL or C1', () => {
    expect(['\u0000', '\u001f', '\u007f', '\u0080', '\u009f'].every(hasControlCharacter)).toBe(
      true,
    );
    expect([' ', '\u00a0', '\u2028', '\u202e'].some(hasControlCharacter)).toBe(false);
  });
});

/** Python's `str.splitlines()` line boundaries. */
// eslint-disable-next-line no-control-regex -- naming Python's line boundaries is the point
const SPLITLINES = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

describe('lineSafeJson', () => {
  it('writes every code point so that it parses back exactly and no reader breaks the line', () => {
    const all: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code < 0xd800 || code > 0xdfff) all.push(String.fromCodePoint(code));
    }
    const value = { text: all.join(''), list: ['a\u2028b', { 'key\u0085': 'c\u009bd\u061c' }] };
    for (const indent of [undefined, 2]) {
      const text = lineSafeJson(value, indent);
      expect(JSON.parse(text)).toEqual(value);
      expect(text.split(SPLITLINES)).toHaveLength(text.split('\n').length);
      expect(text).not.toMatch(/[\u007f-\u009f\u2028\u2029\p{Bidi_Control}]/u);
    }
  });

  it('is JSON.stringify where nothing needs escaping', () => {
    const value = { a: [1, true, null], b: 'plain, ümlaut, 漢字, 😀', c: 'tab\there' };
    expect(lineSafeJson(value)).toBe(JSON.stringify(value));
    expect(lineSafeJson(value, 2)).toBe(JSON.stringify(value, null, 2));
    expect(lineSafeJson('\u2028\u0085\u061c')).toBe('"\\u2028\\u0085\\u061c"');
  });
});
