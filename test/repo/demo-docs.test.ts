/**
 * docs/development.md tells what `npm run demo` does, act by act: the acts it names are the
 * acts script/demo.ts runs (an act's titles `Act 3b`, `Act 3c` belong to act 3), so that an act
 * added to the demo without a word in the docs, or a count left behind, fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/action.ts';

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
].concat(['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen']);

/** The acts script/demo.ts runs: the numbers of its `Act N:` titles, each once, in order. */
function demoActs(): number[] {
  const demo = readFileSync(path.join(ROOT, 'script/demo.ts'), 'utf8');
  const titles = [...demo.matchAll(/[`'"]Act (\d+)[a-z]?: /g)].map((match) => Number(match[1]));
  return [...new Set(titles)];
}

/** The demo's item of docs/development.md: its count of acts and its numbered list. */
function documentedActs(): { count: number; items: number[] } {
  const docs = readFileSync(path.join(ROOT, 'docs/development.md'), 'utf8');
  const start = docs.indexOf('- `npm run demo`');
  const item = docs.slice(start, docs.indexOf('\n- ', start + 1));
  const word = /in (\w+) acts/.exec(item)?.[1] ?? '';
  const items = [...item.matchAll(/^ {2}(\d+)\. /gm)].map((match) => Number(match[1]));
  return { count: WORDS.indexOf(word), items };
}

describe('npm run demo in docs/development.md', () => {
  it('names as many acts as script/demo.ts runs, one list item an act', () => {
    const acts = demoActs();
    expect(acts.length).toBeGreaterThan(3);
    expect(acts).toEqual(acts.map((_, index) => index + 1));
    const documented = documentedActs();
    expect(WORDS[documented.count]).toBe(WORDS[acts.length]);
    expect(documented.items).toEqual(acts);
  });

  it("says the same count in script/demo.ts's own description", () => {
    const demo = readFileSync(path.join(ROOT, 'script/demo.ts'), 'utf8');
    expect(/what green means, in (\w+) acts/.exec(demo)?.[1]).toBe(WORDS[demoActs().length]);
  });
});
