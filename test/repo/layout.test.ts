/**
 * The layout of src/ (CONTRIBUTING.md): imports run one way, common ← service ← inputs ← run
 * ← github (and cli), and only the adapters know where the action runs. The files at the top
 * are the action's entries, each a thin file over src/github/step.ts. The two adapters,
 * src/github/ (the action) and src/cli/ (the deploy-agent command), know nothing of each
 * other, and the command does without @actions/* (it runs where there is no runner).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/action.ts';

const SRC = path.join(ROOT, 'src');
/** Each folder's place: a file may import from its own folder and the ones before it. */
const RANK: Record<string, number> = {
  common: 0,
  service: 1,
  inputs: 2,
  run: 3,
  github: 4,
  cli: 4,
};
const ADAPTERS = ['github', 'cli'];

/** The folder of the architecture a path of src/ is in (`run` for run/steps/wait.ts), `.` at the top. */
function folderOf(file: string): string {
  const [first, ...rest] = path.normalize(file).split(path.sep);
  return rest.length === 0 ? '.' : (first ?? '.');
}

const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({
    file,
    /** The file's own directory, which its relative imports start from. */
    dir: path.dirname(file),
    folder: folderOf(file),
    text: readFileSync(path.join(SRC, file), 'utf8'),
  }));

/** The relative and package specifiers a file imports or re-exports. */
const specifiers = (text: string) =>
  [...text.matchAll(/^(?:import|export)\b[^;]*?from '([^']+)'/gms)].map((match) => match[1] ?? '');

describe('src/', () => {
  it('has its files in the folders of the architecture, entries at the top', () => {
    const top = files.filter(({ folder }) => folder === '.').map(({ file }) => file);
    expect(top).toContain('main.ts');
    expect(top).toContain('index.ts');
    for (const { folder } of files.filter(({ folder }) => folder !== '.')) {
      expect(Object.keys(RANK), folder).toContain(folder);
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

  it('imports one way: common ← service ← inputs ← run ← github', () => {
    expect(files.flatMap(({ text }) => specifiers(text)).length).toBeGreaterThan(100);
    const backwards: string[] = [];
    for (const { file, dir, folder, text } of files) {
      if (folder === '.') continue;
      for (const specifier of specifiers(text).filter((s) => s.startsWith('.'))) {
        const target = folderOf(path.join(dir, specifier));
        if ((RANK[target] ?? 99) > (RANK[folder] ?? -1)) backwards.push(`${file} → ${specifier}`);
      }
    }
    expect(backwards).toEqual([]);
  });

  it('leaves @actions/* and process.env to the adapters', () => {
    const leaks = files
      .filter(({ folder }) => !ADAPTERS.includes(folder) && folder !== '.')
      .filter(({ text }) => /from '@actions\/|process\.env/.test(text))
      .map(({ file }) => file);
    expect(leaks).toEqual([]);
  });

  it('keeps the two adapters apart: neither imports the other, the command no @actions/*', () => {
    const crossings = files
      .filter(({ folder }) => ADAPTERS.includes(folder))
      .flatMap(({ file, dir, folder, text }) =>
        specifiers(text)
          .filter((specifier) => {
            if (specifier.startsWith('@actions/')) return folder === 'cli';
            if (!specifier.startsWith('.')) return false;
            const target = folderOf(path.join(dir, specifier));
            return ADAPTERS.includes(target) && target !== folder;
          })
          .map((specifier) => `${file} → ${specifier}`),
      );
    expect(files.filter(({ folder }) => folder === 'cli').length).toBeGreaterThan(5);
    expect(crossings).toEqual([]);
  });
});
