/**
 * The rule for a value written to --dotenv (src/cli/dotenv.ts): written only
 * when GitLab reads it back exactly and expands nothing, checked against the
 * test reader of GitLab's dotenv report.
 */
import { describe, expect, it } from 'vitest';
import { dotenvRefusal } from '../../src/cli/dotenv.ts';
import { expandsInGitLab, readGitLabDotenv } from '../support/gitlab-dotenv.ts';

const REFUSED: [string, string, RegExp][] = [
  ['a $', 'https://x.example/?t=$CI_JOB_TOKEN', /expand its '\$'/],
  ['a ${}', 'https://x.example/${CI_JOB_TOKEN}', /expand its '\$'/],
  ['a line break', 'READY\nINJECTED=1', /line break/],
  ['a carriage return', 'READY\rX', /line break/],
  ['U+2028', 'READY\u2028X', /line break/],
  ['a tab', 'a\tb', /control character/],
  ['a NUL', 'a\0b', /control character/],
  ['DEL', 'a\u007fb', /control character/],
  ['a C1 control', 'a\u0085b', /line break/],
  ['a space inside', 'https://x.example/a b', /whitespace/],
  ['a leading space', ' x', /whitespace/],
  ['a trailing space', 'x ', /whitespace/],
  ['a no-break space', 'a\u00a0b', /whitespace/],
  ['double quotes around it', '"x"', /wholly quoted/],
  ['single quotes around it', "'https://x.example/'", /wholly quoted/],
];

const KEPT = [
  'https://x.example/#section',
  '#starts-with-hash',
  'a"b',
  '"x',
  `x'`,
  '"x\'',
  '"',
  'https://x.example/?a=1&b=2',
  'dep-ü-1',
];

describe('the rule for a --dotenv value', () => {
  it.each(REFUSED)(
    'leaves out a value with %s, saying why without the value',
    (_what, value, why) => {
      const reason = dotenvRefusal(value);
      expect(reason).toMatch(why);
      expect(reason).not.toContain(value);
    },
  );

  it.each(KEPT)('keeps %j: GitLab reads it back exactly and expands nothing', (value) => {
    expect(dotenvRefusal(value)).toBeUndefined();
    const stored = readGitLabDotenv(`DEPLOYMENT_URL=${value}\n`).DEPLOYMENT_URL ?? '';
    expect(stored).toBe(value);
    expect(expandsInGitLab(stored)).toBe(false);
  });
});
