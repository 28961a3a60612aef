/**
 * The layout of src/ (CONTRIBUTING.md): the folders of the architecture, the entries at the
 * top, thin, each over src/github/step.ts, and only the adapters knowing where the action runs.
 * Which folder may import which (common ← service ← inputs ← run ← views ← github, cli;
 * run/ports ← run/decisions ← run/flows; no cycle; @actions/* in src/github/ only) is
 * dependency-cruiser's to check (.dependency-cruiser.js, run by `npm run lint`); this file
 * checks what is no import.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/action.ts';

const SRC = path.join(ROOT, 'src');
/** The folders of the architecture, in the order they import one another. */
const FOLDERS = ['common', 'service', 'inputs', 'run', 'views', 'github', 'cli'];
/** The layers of run/, bottom first. */
const RUN_LAYERS = ['ports', 'decisions', 'flows'];
const ADAPTERS = ['github', 'cli'];

const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({
    file,
    /** The folders from src/ down, `[]` for an entry at the top. */
    folders: path.dirname(file) === '.' ? [] : path.dirname(file).split(path.sep),
    text: readFileSync(path.join(SRC, file), 'utf8'),
  }))
  .map((entry) => ({ ...entry, folder: entry.folders[0] ?? '.' }));

describe('src/', () => {
  it('has its files in the folders of the architecture, entries at the top', () => {
    const top = files.filter(({ folder }) => folder === '.').map(({ file }) => file);
    expect(top).toContain('main.ts');
    expect(top).toContain('index.ts');
    for (const { folder } of files.filter(({ folder }) => folder !== '.')) {
      expect(FOLDERS, folder).toContain(folder);
    }
  });

  it('keeps run/ in its three layers: ports, decisions, flows', () => {
    const run = files.filter(({ folder }) => folder === 'run');
    for (const { file, folders } of run) {
      expect(folders.length, file).toBe(2);
      expect(RUN_LAYERS, file).toContain(folders[1]);
    }
    for (const layer of RUN_LAYERS) {
      expect(
        run.some(({ folders }) => folders[1] === layer),
        layer,
      ).toBe(true);
    }
  });

  it('keeps each entry at the top thin: it declares and wires, src/github/step.ts runs it', () => {
    const entries = files.filter(({ folder }) => folder === '.');
    for (const { file, text } of entries) {
      const code = text
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .split('\n')
        .filter((line) => line.trim() !== '' && !line.trim().startsWith('//'));
      expect(code.length, `${file}: lines of code`).toBeLessThanOrEqual(40);
      expect(text, `${file} reaches the runner through src/github/`).not.toMatch(
        /from '@actions\/|process\.env/,
      );
      // An entry exports the run() local-action calls; index.ts, the bundle's start, runs one.
      expect(text, file).toMatch(file === 'index.ts' ? /^(await|void) /m : /export function run\(/);
    }
  });

  it('leaves process.env to the adapters', () => {
    const leaks = files
      .filter(({ folder }) => !ADAPTERS.includes(folder) && folder !== '.')
      .filter(({ text }) => /process\.env/.test(text))
      .map(({ file }) => file);
    expect(files.filter(({ folder }) => folder === 'cli').length).toBeGreaterThan(5);
    expect(leaks).toEqual([]);
  });

  it('has its import rules checked by dependency-cruiser in npm run lint', () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.lint).toContain('depcruise src --config .dependency-cruiser.js');
    const config = readFileSync(path.join(ROOT, '.dependency-cruiser.js'), 'utf8');
    expect(config).toMatch(/tsPreCompilationDeps: true/);
    expect(config).toMatch(/circular: true/);
  });
});
