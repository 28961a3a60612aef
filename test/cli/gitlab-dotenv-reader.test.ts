/**
 * The test reader of GitLab's dotenv report (test/support/gitlab-dotenv.ts)
 * refuses what GitLab's documentation says it refuses, and keeps values as
 * GitLab stores them: quotes literal, surrounding spaces stripped, `$` left
 * for a later job to expand.
 */
import { describe, expect, it } from 'vitest';
import { expandsInGitLab, GitLabDotenvError, readGitLabDotenv } from '../support/gitlab-dotenv.ts';

describe("the test reader of GitLab's dotenv report", () => {
  it('reads KEY=value lines, splitting at the first =, the last of a repeated key winning', () => {
    expect(readGitLabDotenv('A=1\nB_2=x=y\nA=3\n')).toEqual({ A: '3', B_2: 'x=y' });
    expect(readGitLabDotenv('A=1')).toEqual({ A: '1' });
    expect(readGitLabDotenv('')).toEqual({});
    expect(readGitLabDotenv('EMPTY=\n')).toEqual({ EMPTY: '' });
  });

  it('keeps quotes and a # inside the value literally, and strips surrounding spaces', () => {
    expect(readGitLabDotenv(`Q="x"\nS='y'\nH=a#b\nP= p q \n`)).toEqual({
      Q: '"x"',
      S: "'y'",
      H: 'a#b',
      P: 'p q',
    });
  });

  it.each([
    ['an empty line', 'A=1\n\nB=2\n'],
    ['a blank line', 'A=1\n  \n'],
    ['a comment line', '# deploy\nA=1\n'],
    ['a commented variable', '#A=1\n'],
    ['a line without =', 'A=1\nexport\n'],
    ['a name with -', 'DEPLOY-URL=x\n'],
    ['a name with a dot', 'deploy.url=x\n'],
    ['a non-ASCII name', 'ÜBER=x\n'],
    ['an empty name', '=x\n'],
    ['a line break inside a quoted value', 'A="x\ny"\n'],
  ])('refuses %s', (_what, text) => {
    expect(() => readGitLabDotenv(text)).toThrow(GitLabDotenvError);
  });

  it('refuses a file of 5 KB or more', () => {
    const file = (bytes: number) => `A=${'x'.repeat(bytes - 3)}\n`;
    expect(Buffer.byteLength(file(5 * 1024))).toBe(5 * 1024);
    expect(() => readGitLabDotenv(file(5 * 1024))).toThrow(/5120 bytes/);
    expect(readGitLabDotenv(file(5 * 1024 - 1)).A).toHaveLength(5 * 1024 - 4);
  });

  it('refuses more variables than the limit', () => {
    const lines = (count: number) =>
      Array.from({ length: count }, (_, index) => `V${index}=${index}\n`).join('');
    expect(Object.keys(readGitLabDotenv(lines(20)))).toHaveLength(20);
    expect(() => readGitLabDotenv(lines(21))).toThrow(/more than 20 variables/);
    expect(() => readGitLabDotenv(lines(51), { variables: 50 })).toThrow(/50/);
  });

  it('says a value with $ would be expanded', () => {
    expect(expandsInGitLab('https://x.example/?t=$CI_JOB_TOKEN')).toBe(true);
    expect(expandsInGitLab('https://x.example/?t=${CI_JOB_TOKEN}')).toBe(true);
    expect(expandsInGitLab('https://x.example/#a')).toBe(false);
  });
});
