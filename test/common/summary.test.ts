/**
 * A job summary within GitHub's limit (src/common/summary.ts): lists cut to what fits, with a
 * count of the rest, and the last guard for a text that lost its own bound.
 */
import { describe, expect, it } from 'vitest';
import { boundedSummary, bytesOf, within } from '../../src/common/summary.ts';

describe('boundedSummary', () => {
  it('keeps fixed parts whole and cuts a list to what fits, counting in UTF-8 bytes', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `<li>${'é'.repeat(10)}${i}</li>`);
    const html = boundedSummary(
      [
        '<h2>t</h2>',
        { head: '<ul>', lines, tail: '\n</ul>', leftOut: (n) => `<p>… and ${n} more</p>` },
        '<p>end</p>',
      ],
      1_000,
    );

    expect(bytesOf(html)).toBeLessThanOrEqual(1_000);
    const kept = html.match(/<li>/g)?.length ?? 0;
    expect(kept).toBeGreaterThan(10);
    expect(html).toContain(`<p>… and ${100 - kept} more</p>`);
    expect(html.startsWith('<h2>t</h2>\n<ul>\n<li>')).toBe(true);
    expect(html.endsWith('</ul>\n<p>… and ' + (100 - kept) + ' more</p>\n<p>end</p>')).toBe(true);
  });

  it('writes a list that fits as it is, with no note', () => {
    const list = { head: '<ul>', lines: ['<li>a</li>'], tail: '\n</ul>', leftOut: () => 'cut' };
    expect(boundedSummary(['<h2>t</h2>', list])).toBe('<h2>t</h2>\n<ul>\n<li>a</li>\n</ul>');
  });
});

describe('within', () => {
  it('cuts a text over the budget at a line break, saying how many bytes were left out', () => {
    const text = Array.from({ length: 100 }, () => '€'.repeat(30)).join('\n');
    const cut = within(text, 1_000);

    expect(bytesOf(cut)).toBeLessThanOrEqual(1_000);
    const note = /… and (\d+) more bytes, left out/.exec(cut);
    const kept = cut.slice(0, cut.indexOf('\n<p>…'));
    expect(kept.split('\n').every((line) => line === '€'.repeat(30))).toBe(true);
    expect(bytesOf(kept) + Number(note?.[1])).toBe(bytesOf(text));
    expect(within('short', 1_000)).toBe('short');
  });
});
