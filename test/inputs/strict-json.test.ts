/**
 * parseStrictJson (src/inputs/strict-json.ts): JSON.parse's syntax and values, and
 * the first key given twice in an object, found on the yaml package's
 * document of the same text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/inputs/strict-json.ts';

describe('parseStrictJson', () => {
  it('reads JSON as JSON.parse does, escapes included', () => {
    const text =
      '{"a": "x\\/y", "b": "caf\\u00e9", "c": "\\ud83d\\ude00", "d": [1, 2.0, -0, 1e2, null]}';
    expect(parseStrictJson(text)).toEqual({
      kind: 'json',
      value: JSON.parse(text) as unknown,
      repeated: undefined,
    });
    const parsed = parseStrictJson(text);
    expect(parsed.kind === 'json' && parsed.value).toEqual({
      a: 'x/y',
      b: 'café',
      c: '😀',
      d: [1, 2, -0, 100, null],
    });
  });

  it.each([
    ['{"a": 1,}', 'a trailing comma'],
    ['{a: 1}', 'an unquoted key'],
    ["{'a': 1}", 'single quotes'],
    ['{"a": "tab\there"}', 'a raw tab in a string'],
    ['{"a": 1} # comment', 'a comment'],
    ['\ufeff{"a": 1}', 'a byte order mark'],
    ['', 'nothing'],
  ])('rejects %j (%s), which YAML would accept', (text) => {
    expect(parseStrictJson(text).kind).toBe('invalid');
  });

  it.each([
    ['{"a": 1, "b": 2, "a": 3}', ['a'], 2, 0],
    ['{"a": {"x": 1, "y": 2, "x": 3}}', ['a', 'x'], 2, 0],
    ['[{"a": 1}, {"b": 1, "b": 2}]', [1, 'b'], 1, 0],
    ['{"a": 1, "\\u0061": 2}', ['a'], 1, 0],
    ['{"": 1, "": 2}', [''], 1, 0],
    ['{"__proto__": 1, "__proto__": 2}', ['__proto__'], 1, 0],
  ])('finds the repeated key of %s', (text, path, index, firstIndex) => {
    const parsed = parseStrictJson(text);
    expect(parsed.kind).toBe('json');
    if (parsed.kind === 'json') expect(parsed.repeated).toEqual({ path, index, firstIndex });
  });

  it("reports an object's own repeated key before one nested in it", () => {
    const parsed = parseStrictJson('{"a": {"x": 1, "x": 2}, "b": 1, "b": 2}');
    expect(parsed.kind === 'json' && parsed.repeated?.path).toEqual(['b']);
  });

  it('tells keys apart as JSON does: by case and by whitespace', () => {
    const parsed = parseStrictJson('{"a": 1, "A": 2, "a ": 3, "1": 4, "01": 5}');
    expect(parsed.kind === 'json' && parsed.repeated).toBeUndefined();
  });

  it('says when JSON is nested too deeply to be checked', () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    expect(parseStrictJson(deep)).toEqual({ kind: 'unchecked' });
  });

  it('reads any JSON text as JSON.parse does, with no repeated key', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const parsed = parseStrictJson(text);
        expect(parsed).toEqual({
          kind: 'json',
          value: JSON.parse(text) as unknown,
          repeated: undefined,
        });
      }),
      { numRuns: 300 },
    );
  });

  it('finds a key repeated anywhere in any JSON object', () => {
    const object = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
      minKeys: 1,
      maxKeys: 5,
    });
    fc.assert(
      fc.property(object, fc.jsonValue({ maxDepth: 2 }), fc.nat(), (record, value, pick) => {
        const keys = Object.keys(record);
        const key = keys[pick % keys.length] ?? '';
        // The key again, after every other member: the object's own keys hold no other repeat.
        const members = [
          ...Object.entries(record).map(
            ([name, item]) => `${JSON.stringify(name)}: ${JSON.stringify(item)}`,
          ),
          `${JSON.stringify(key)}: ${JSON.stringify(value)}`,
        ];
        const parsed = parseStrictJson(`{"wrap": [{${members.join(', ')}}]}`);
        expect(parsed.kind).toBe('json');
        if (parsed.kind !== 'json') return;
        expect(parsed.repeated).toEqual({
          path: ['wrap', 0, key],
          index: keys.length,
          firstIndex: keys.indexOf(key),
        });
      }),
      { numRuns: 300 },
    );
  });
});
