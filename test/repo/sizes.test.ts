/**
 * Sizes that fit a screen: no file of src/ over 300 lines, no function over 60. A function
 * that needs more is two ideas; a file that needs more is two responsibilities. A function
 * that is a literal table of data (the service's schemas, the command's options) is read
 * as a table, not as a sequence of steps: those are named below, each with why.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/action.ts';

const SRC = path.join(ROOT, 'src');
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 60;

/** Functions that are literal tables of data, by file and name. */
const TABLES: Record<string, string> = {
  'service/schema-family.ts:buildFamily':
    "the one definition of the service's nested resources: a schema a field",
};

const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(path.join(SRC, file), 'utf8') }));

/** The name a reader finds a function by: its own, its variable's, its property's. */
function nameOf(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText(source);
  }
  return '(anonymous)';
}

/** Every function of a file with its length in lines, nested ones included. */
function functionsOf(file: string, text: string): { name: string; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      found.push({ name: nameOf(node, source), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('src/ in sizes that fit a screen', () => {
  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map(({ file, text }) => ({ file, lines: text.split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(files.length).toBeGreaterThan(50);
    expect(long).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines, literal tables of data aside`, () => {
    const long = files
      .flatMap(({ file, text }) =>
        functionsOf(file, text).map((fn) => ({ ...fn, where: `${file}:${fn.name}` })),
      )
      .filter(({ lines, where }) => lines > MAX_FUNCTION_LINES && TABLES[where] === undefined)
      .map(({ where, lines }) => `${where}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('measures functions as a reader counts them', () => {
    const text = ['function a() {', '  const f = () => {', '    return 1;', '  };', '}', ''];
    expect(functionsOf('x.ts', text.join('\n'))).toEqual([
      { name: 'a', lines: 5 },
      { name: 'f', lines: 3 },
    ]);
  });

  it('names only tables that exist and are long', () => {
    for (const where of Object.keys(TABLES)) {
      const [file, name] = where.split(':');
      const entry = files.find((candidate) => candidate.file === file);
      expect(entry, where).toBeDefined();
      const fn = functionsOf(file!, entry!.text).find((candidate) => candidate.name === name);
      expect(fn?.lines ?? 0, where).toBeGreaterThan(MAX_FUNCTION_LINES);
    }
  });
});
