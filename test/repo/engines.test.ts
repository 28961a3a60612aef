/**
 * package.json's `engines` says what is true: its lowest Node is one that every
 * package bundled into dist/ accepts (the packages src/ imports and what they need,
 * in package-lock.json), and the Node lines the command is published for (22 and 24)
 * are in it. They are devDependencies (nothing is installed with the command), so the
 * lock's `dev` flag cannot tell them apart: src/'s imports do.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/action.ts';

interface LockEntry {
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const json = (file: string): unknown => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
const manifest = json('package.json') as { engines: { node: string } };
const lock = json('package-lock.json') as { packages: Record<string, LockEntry> };

/** The packages src/ imports: `from 'name'` or `from '@scope/name/…'`, not `node:` nor relative. */
function importedBySrc(): Set<string> {
  const names = new Set<string>();
  const files = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' });
  for (const file of files.filter((name) => name.endsWith('.ts'))) {
    const text = readFileSync(path.join(ROOT, 'src', file), 'utf8');
    for (const [, spec = ''] of text.matchAll(/\bfrom '([^.'][^']*)'/g)) {
      if (spec.startsWith('node:')) continue;
      names.add(
        spec
          .split('/')
          .slice(0, spec.startsWith('@') ? 2 : 1)
          .join('/'),
      );
    }
  }
  return names;
}

/** The lock's key of `name` as Node resolves it from the package at `from` (a lock key). */
function resolve(from: string, name: string): string | undefined {
  for (let base = from; ; base = base.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
    const key = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
    if (lock.packages[key] !== undefined) return key;
    if (base === '') return undefined;
  }
}

/** The lock keys of the packages bundled into dist/: src/'s imports and what they need. */
function bundled(): Set<string> {
  const keys = new Set<string>();
  const queue = [...importedBySrc()].map((name) => resolve('', name));
  for (let key = queue.pop(); key !== undefined || queue.length > 0; key = queue.pop()) {
    if (key === undefined || keys.has(key)) continue;
    keys.add(key);
    const entry = lock.packages[key];
    const needs = { ...entry?.dependencies, ...entry?.optionalDependencies };
    queue.push(...Object.keys(needs).map((name) => resolve(key, name)));
  }
  return keys;
}

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

  it('starts at a Node every package bundled into dist/ accepts', () => {
    const inBundle = bundled();
    expect(inBundle.size).toBeGreaterThan(importedBySrc().size);
    const refusing = Object.entries(lock.packages)
      .filter(([name]) => inBundle.has(name))
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
