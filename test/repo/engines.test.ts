/**
 * package.json's `engines` says what is true: its lowest Node is one that every
 * runtime dependency in package-lock.json accepts (else `npm ci` warns EBADENGINE),
 * and the Node lines the command is published for (22 and 24) are in it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/action.ts';

interface LockEntry {
  dev?: boolean;
  engines?: { node?: string };
}

const json = (file: string): unknown => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
const manifest = json('package.json') as { engines: { node: string } };
const lock = json('package-lock.json') as { packages: Record<string, LockEntry> };

type Version = [number, number, number];

function version(text: string): Version {
  const [major = 0, minor = 0, patch = 0] = text.split('.').map(Number);
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** `^X.Y.Z` as the comparators it stands for: `>=X.Y.Z <(X+1).0.0`. */
function caret(alternative: string): string {
  return alternative.replace(
    /\^v?(\d+)((?:\.\d+){0,2})/g,
    (_, major: string, rest: string) => `>=${major}${rest} <${Number(major) + 1}.0.0`,
  );
}

/** Whether `node` satisfies `range`: `||` alternatives of `^`, `>=`, `>`, `<=`, `<` comparators. */
function satisfies(node: Version, range: string): boolean {
  return range.split('||').some((alternative) =>
    caret(alternative)
      .replace(/([<>]=?)\s+/g, '$1')
      .trim()
      .split(/\s+/)
      .every((comparator) => {
        const match = /^([<>]=?|=)?v?(\d+(?:\.\d+){0,2})$/.exec(comparator);
        if (match === null) throw new Error(`cannot read the range '${range}'`);
        const order = compare(node, version(match[2] ?? ''));
        switch (match[1]) {
          case '>=':
            return order >= 0;
          case '>':
            return order > 0;
          case '<=':
            return order <= 0;
          case '<':
            return order < 0;
          default:
            return order === 0;
        }
      }),
  );
}

describe("package.json's engines", () => {
  const range = manifest.engines.node;
  const lowest = version(/^>=\s*(\S+)$/.exec(range)?.[1] ?? '');

  it('is a lower bound', () => {
    expect(range).toMatch(/^>=\s*\d/);
  });

  it('is what package-lock.json records for the package', () => {
    expect(lock.packages['']?.engines?.node).toBe(range);
  });

  it('starts at a Node every runtime dependency accepts', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== '' && entry.dev !== true)
      .filter(([, entry]) => entry.engines?.node !== undefined)
      .filter(([, entry]) => !satisfies(lowest, entry.engines?.node ?? ''))
      .map(([name, entry]) => `${name} (${entry.engines?.node})`);
    expect(refusing, `dependencies that refuse Node ${lowest.join('.')}`).toEqual([]);
  });

  it('admits Node 22 and 24, the lines the command is published for', () => {
    expect(satisfies([22, 0, 0], range)).toBe(true);
    expect(satisfies([24, 0, 0], range)).toBe(true);
  });
});
