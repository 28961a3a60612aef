/**
 * Every regular expression in src/ against the classic catastrophic inputs
 * for its shape, at 1 MB: a pattern whose work grows with the square of its
 * input (a `[^>]*` that reads the rest of the text again from every `<`, a
 * `\/+$` from every slash) takes minutes there, a linear one milliseconds.
 * So the bound is generous (a second) and still cannot be met by a quadratic
 * pattern. Each run happens in a worker, which is terminated when it is late.
 * A pattern of src/ that is late gets a second try of ten seconds before it
 * counts as late: on a loaded machine (the suite's other files, a CI runner
 * shared with other jobs) a linear pattern may miss the first second, a
 * quadratic one misses both by minutes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const SRC = path.join(import.meta.dirname, '..', '..', 'src');
const SIZE = 1_000_000;
const BOUND_MS = 1_000;
const SECOND_TRY_MS = 10_000;

interface Found {
  where: string;
  source: string;
  flags: string;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every regular expression literal in src/, found by the TypeScript parser. */
function regexLiterals(): Found[] {
  const found: Found[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isRegularExpressionLiteral(node)) {
        const literal = node.text;
        const end = literal.lastIndexOf('/');
        const { line } = tree.getLineAndCharacterOfPosition(node.getStart());
        found.push({
          where: `${path.relative(SRC, file)}:${line + 1}`,
          source: literal.slice(1, end),
          flags: literal.slice(end + 1),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  return found;
}

const SHORTHAND_SAMPLES: Record<string, string> = {
  s: ' ',
  d: '0',
  w: 'a',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * What to repeat for a pattern: each run of literal characters in it (the
 * `<title` of `<title[^>]*>`), a character of each class and shorthand, and
 * characters that open or fill the usual shapes.
 */
function pumpsFor(source: string): string[] {
  const pumps = new Set(['a', ' ', '<', '/', '\\', ':', '0', '\t', '\r\n', '%', '"', '::']);
  let run = '';
  const endRun = () => {
    if (run !== '') pumps.add(run);
    run = '';
  };
  for (let index = 0; index < source.length; index++) {
    const character = source[index] ?? '';
    if (character === '\\') {
      const next = source[++index] ?? '';
      const sample = SHORTHAND_SAMPLES[next.toLowerCase()];
      if (sample !== undefined || /[bBuxk0-9]/.test(next)) {
        endRun();
        if (sample !== undefined) pumps.add(sample);
      } else {
        run += next;
      }
    } else if (character === '[') {
      endRun();
      let end = index + 1;
      while (end < source.length && source[end] !== ']') end += source[end] === '\\' ? 2 : 1;
      const inside = source.slice(index + 1, end);
      if (!inside.startsWith('^') && inside !== '')
        pumps.add(inside[0] === '\\' ? ' ' : inside[0]!);
      index = end;
    } else if ('()*+?{}|^$.'.includes(character)) {
      endRun();
    } else {
      run += character;
    }
  }
  endRun();
  return [...pumps];
}

/** The pump repeated to 1 MB, then a character no pattern here expects, so every match fails late. */
const inputOf = (pump: string) => `${pump.repeat(Math.ceil(SIZE / pump.length))}\u0001`;

class Runner {
  #worker = this.#start();

  #start(): Worker {
    return new Worker(new URL('../support/regex-worker.mjs', import.meta.url));
  }

  /** Whether the pattern finished on the input within the bound. */
  async finishes(
    found: Pick<Found, 'source' | 'flags'>,
    input: string,
    boundMs = BOUND_MS,
  ): Promise<boolean> {
    const worker = this.#worker;
    let onMessage = () => {};
    let onError = (_: unknown) => {};
    const finished = await new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => resolve(false), boundMs);
      onMessage = () => {
        clearTimeout(timer);
        resolve(true);
      };
      onError = reject;
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ ...found, input });
    });
    // Only our own listeners: removeAllListeners would unhook the worker's message port too.
    worker.off('message', onMessage);
    worker.off('error', onError);
    if (!finished) {
      await worker.terminate();
      this.#worker = this.#start();
    }
    return finished;
  }

  close(): Promise<number> {
    return this.#worker.terminate();
  }
}

const runner = new Runner();
afterAll(() => runner.close());

describe('every regular expression in src/ is linear on 1 MB of its worst inputs', () => {
  const literals = regexLiterals();

  it('finds the patterns it checks', () => {
    expect(literals.length).toBeGreaterThan(20);
    expect(literals.map((found) => found.source)).toContain('<title[^<>]*>([^<]*)<\\/title>');
  });

  it.each(literals.map((found) => [found.where, found] as const))(
    '%s',
    async (_, found) => {
      const late: string[] = [];
      for (const pump of pumpsFor(found.source)) {
        const input = inputOf(pump);
        if (
          !(await runner.finishes(found, input)) &&
          !(await runner.finishes(found, input, SECOND_TRY_MS))
        )
          late.push(JSON.stringify(pump));
      }
      expect(late, `/${found.source}/${found.flags} repeated`).toEqual([]);
    },
    60_000,
  );
});

describe('the check itself', () => {
  it.each([
    ['tags stripped with [^>]*', '<[^>]*>', 'g'],
    ['an HTML title with [^>]*', '<title[^>]*>([^<]*)<\\/title>', 'i'],
    ['trailing slashes', '\\/+$', ''],
  ])('catches a quadratic pattern: %s', async (_, source, flags) => {
    const late: string[] = [];
    for (const pump of pumpsFor(source)) {
      if (!(await runner.finishes({ source, flags }, inputOf(pump)))) late.push(pump);
    }
    expect(late.length).toBeGreaterThan(0);
  });
});
