/**
 * CONTRIBUTING.md's layout is the one description of the tree (docs/development.md points
 * to it): it names every folder of src/ and test/ and every entry at the top of src/, and
 * every file it names exists. A folder added, moved or renamed fails here until the
 * layout says where it went.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/action.ts';

const contributing = readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
const development = readFileSync(path.join(ROOT, 'docs/development.md'), 'utf8');

/** The ```text block under "## Layout". */
function layoutBlock(text: string): string {
  const heading = text.indexOf('\n## Layout\n');
  if (heading < 0) return '';
  const section = text.slice(heading);
  const start = section.indexOf('```text\n');
  const end = section.indexOf('\n```', start + 1);
  return start < 0 || end < 0 ? '' : section.slice(start + '```text\n'.length, end);
}

/** The folders the tree shows: the first word of a line, when it ends with a slash. */
function foldersShown(block: string): Set<string> {
  const shown = new Set<string>();
  for (const line of block.split('\n')) {
    for (const word of line.trim().split(/\s+/)) {
      if (!word.endsWith('/')) break;
      shown.add(word.slice(0, -1));
    }
  }
  return shown;
}

function foldersUnder(top: string): string[] {
  return readdirSync(path.join(ROOT, top), { recursive: true, encoding: 'utf8' })
    .filter((entry) => statSync(path.join(ROOT, top, entry)).isDirectory())
    .map((entry) => entry.split(path.sep).join('/'));
}

const block = layoutBlock(contributing);
const shown = foldersShown(block);
const allFiles = ['src', 'test', 'script', 'bench', 'dist'].flatMap((top) =>
  readdirSync(path.join(ROOT, top), { recursive: true, encoding: 'utf8' }).map((entry) =>
    path.basename(entry),
  ),
);

describe("CONTRIBUTING.md's layout", () => {
  it('shows every folder of src/ and test/ in its tree', () => {
    expect(block.split('\n').length).toBeGreaterThan(20);
    const missing = ['src', 'test']
      .flatMap((top) => foldersUnder(top).map((folder) => ({ top, folder })))
      .filter(({ folder }) => !shown.has(path.basename(folder)))
      .map(({ top, folder }) => `${top}/${folder}/`);
    expect(missing).toEqual([]);
  });

  it('names every entry at the top of src/', () => {
    const entries = readdirSync(path.join(ROOT, 'src')).filter((file) => file.endsWith('.ts'));
    expect(entries).toContain('main.ts');
    for (const entry of entries) expect(block, entry).toMatch(new RegExp(`\\b${entry}\\b`));
  });

  it('names only files that exist', () => {
    const named = [...block.matchAll(/[\w.-]+\.(?:ts|mjs|md|js)\b/g)].map(([name]) => name);
    expect(named.length).toBeGreaterThan(20);
    const known = new Set([...allFiles, 'CONTRIBUTING.md', '.dependency-cruiser.js']);
    expect(named.filter((name) => !known.has(name))).toEqual([]);
  });

  it('is the only layout: docs/development.md points to it', () => {
    expect(layoutBlock(development)).toBe('');
    expect(development).toContain('CONTRIBUTING.md#layout');
  });
});
