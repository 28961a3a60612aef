import { describe, expect, it } from 'vitest';
import { neutraliseCommands, untrusted } from '../../src/common/runtime.ts';

describe('untrusted: service text on one log line', () => {
  it.each([
    ['a lone CR', 'READY\r::error::x', 'READY\\r::error::x'],
    ['CRLF', 'a\r\nb', 'a\\r\\nb'],
    ['NEL', 'a\u0085b', 'a\\u0085b'],
    ['U+2028 and U+2029', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
    ['an ANSI colour', '\u001b[31mred\u001b[0m', '\\u001b[31mred\\u001b[0m'],
    ['a bidirectional override', 'abc\u202eevil', 'abc\\u202eevil'],
    ['DEL and C1 controls', 'a\u007fb\u009bc', 'a\\u007fb\\u009bc'],
  ])('shows %s escaped', (_, value, shown) => {
    expect(untrusted(value)).toBe(shown);
  });

  it('leaves ordinary text alone', () => {
    expect(untrusted('READY (é, 日本, emoji 🚀)')).toBe('READY (é, 日本, emoji 🚀)');
  });
});

describe('neutraliseCommands: no line starts a runner command the action did not write', () => {
  it.each([
    ['LF', '\n'],
    ['a lone CR', '\r'],
    ['CRLF', '\r\n'],
    ['NEL', '\u0085'],
    ['U+2028', '\u2028'],
    ['U+2029', '\u2029'],
  ])('marks a command after %s', (_, separator) => {
    const text = neutraliseCommands(`status READY${separator}  ::error title=x::forged`);

    expect(text).toBe(`status READY${separator}[text]   ::error title=x::forged`);
    for (const line of text.split(/\r\n|[\n\r\u0085\u2028\u2029]/)) {
      expect(line.trimStart().startsWith('::')).toBe(false);
    }
  });
});
