/** A placeholder filled as text (src/common/text.ts): no `$` pattern of `replace` applies. */
import { describe, expect, it } from 'vitest';
import { fillPlaceholder, placeholderCount } from '../../src/common/text.ts';

describe('fillPlaceholder', () => {
  it.each([
    ['x$&y', 'preview-x$&y'],
    ["p$'q", "preview-p$'q"],
    ['a$`b', 'preview-a$`b'],
    ['r$1s', 'preview-r$1s'],
    ['$$', 'preview-$$'],
    ['$<name>', 'preview-$<name>'],
  ])('writes %s character for character', (value, filled) => {
    expect(fillPlaceholder('preview-{agent}', '{agent}', value)).toBe(filled);
  });

  it('fills every placeholder, and leaves a text without one as it is', () => {
    expect(fillPlaceholder('{url}/a?u={url}', '{url}', 'https://x/$&')).toBe(
      'https://x/$&/a?u=https://x/$&',
    );
    expect(fillPlaceholder('production', '{agent}', 'x$&')).toBe('production');
  });

  it('does not read a placeholder the value brings in', () => {
    expect(fillPlaceholder('{agent}-pr', '{agent}', '{agent}')).toBe('{agent}-pr');
  });
});

describe('placeholderCount', () => {
  it('counts each placeholder', () => {
    expect(placeholderCount('production', '{agent}')).toBe(0);
    expect(placeholderCount('preview-{agent}', '{agent}')).toBe(1);
    expect(placeholderCount('{agent}-{agent}', '{agent}')).toBe(2);
  });
});
