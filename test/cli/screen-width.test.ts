/**
 * Text on a terminal in screen columns: East Asian wide characters and
 * emoji take two, combining marks none, colour none; a cut never splits a
 * grapheme, and ends in `…` (or holds it in its middle) within the width.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutMiddle, cutToWidth, padToWidth, screenWidth } from '../../src/cli/screen-width.ts';

/** Half of a surrogate pair, without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('screenWidth', () => {
  it('counts columns, not characters', () => {
    expect(screenWidth('my-agent')).toBe(8);
    expect(screenWidth('エージェント')).toBe(12);
    expect(screenWidth('🚀')).toBe(2);
    expect(screenWidth('👩‍💻')).toBe(2);
    expect(screenWidth('🇯🇵')).toBe(2);
    expect(screenWidth('e\u0301')).toBe(1);
    expect(screenWidth('\u001b[36m…\u001b[0m')).toBe(1);
  });
});

describe('cutToWidth', () => {
  it('leaves text that fits whole', () => {
    expect(cutToWidth('my-agent-pr-9', 13)).toBe('my-agent-pr-9');
    expect(cutToWidth('エージェント', 12)).toBe('エージェント');
  });

  it('cuts to the width, its last column `…`, never through a wide character or a grapheme', () => {
    expect(cutToWidth('my-agent-pr-999', 13)).toBe('my-agent-pr-…');
    // A wide character that would cross the edge is left out whole: one column to spare.
    expect(cutToWidth('エージェント', 6)).toBe('エー…');
    expect(cutToWidth('ab👩‍💻cd', 4)).toBe('ab…');
    expect(cutToWidth('ab👩‍💻cd', 5)).toBe('ab👩‍💻…');
    expect(cutToWidth('cafe\u0301 au lait', 5)).toBe('cafe\u0301…');
    expect(cutToWidth('🇯🇵🇯🇵', 3)).toBe('🇯🇵…');
    expect(cutToWidth('abc', 0)).toBe('');
    expect(cutToWidth('abc', 1)).toBe('…');
  });

  it('is never wider than asked, and never leaves half a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 0, max: 40 }), (text, n) => {
        const cut = cutToWidth(text, n);
        expect(screenWidth(cut)).toBeLessThanOrEqual(n);
        expect(cut).not.toMatch(LONE_SURROGATE);
        if (screenWidth(text) <= n) expect(cut).toBe(text);
      }),
    );
  });
});

describe('cutMiddle', () => {
  it('leaves text that fits whole', () => {
    expect(cutMiddle('my-agent-pr-9', 13)).toBe('my-agent-pr-9');
  });

  it('keeps the start and the end, `…` between, never through a wide character or a grapheme', () => {
    expect(cutMiddle('checkout-assistant-preview-pr-7', 19)).toBe('checkout-…view-pr-7');
    expect(cutMiddle('エージェント', 7)).toBe('エ…ント');
    expect(cutMiddle('ab👩‍💻cd👩‍💻ef', 6)).toBe('ab…ef');
    expect(cutMiddle('🇯🇵🇯🇵🇯🇵', 5)).toBe('🇯🇵…🇯🇵');
    expect(cutMiddle('abc', 0)).toBe('');
    expect(cutMiddle('abc', 1)).toBe('…');
  });

  it('is never wider than asked, and never leaves half a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 0, max: 40 }), (text, n) => {
        const cut = cutMiddle(text, n);
        expect(screenWidth(cut)).toBeLessThanOrEqual(n);
        expect(cut).not.toMatch(LONE_SURROGATE);
        if (screenWidth(text) <= n) expect(cut).toBe(text);
      }),
    );
  });
});

describe('padToWidth', () => {
  it('pads to the width in columns', () => {
    expect(padToWidth('エー', 6)).toBe('エー  ');
    expect(screenWidth(padToWidth('🚀a', 6))).toBe(6);
    expect(padToWidth('toolong', 3)).toBe('toolong');
  });
});
