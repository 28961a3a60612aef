/** JSON text safe for every line reader (src/common/json-text.ts). */
import { describe, expect, it } from 'vitest';
import { lineSafeJson } from '../../src/common/json-text.ts';

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
