/**
 * script/build-record.mjs: `npm run demo`, `npm run bench` and the tests rebuild dist/ only
 * when it is not what the build makes of the tree now, decided by content. Run in a throw-away
 * tree with this repository's build-record.mjs and a small stand-in for script/build that
 * writes the same outputs, counts its runs and ends as the real one does.
 */
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../support/action.ts';

/** Like script/build: the cache first, then the bundles, then the record and the cache. */
const STAND_IN_BUILD = `set -euo pipefail
if node script/build-record.mjs restore; then exit 0; fi
echo run >> builds.log
mkdir -p dist
for name in index.js plan.js retire.js sweep.js cli.js; do cat src/*.ts > "dist/$name"; done
for name in licenses.txt cli-licenses.txt package.json; do echo "$name" > "dist/$name"; done
node script/build-record.mjs write
`;

let tree: string;

beforeEach(() => {
  tree = mkdtempSync(path.join(tmpdir(), 'build-record-'));
  mkdirSync(path.join(tree, 'src'));
  mkdirSync(path.join(tree, 'script'));
  copyFileSync(
    path.join(ROOT, 'script/build-record.mjs'),
    path.join(tree, 'script/build-record.mjs'),
  );
  writeFileSync(path.join(tree, 'script/build'), STAND_IN_BUILD);
  writeFileSync(
    path.join(tree, 'package.json'),
    JSON.stringify({ name: 'stand-in', scripts: { bundle: 'bash script/build' } }),
  );
  writeFileSync(path.join(tree, 'package-lock.json'), '{}');
  writeFileSync(path.join(tree, 'tsconfig.json'), '{}');
  writeFileSync(path.join(tree, 'src/index.ts'), 'export const a = 1;\n');
});

afterEach(() => {
  rmSync(tree, { recursive: true, force: true });
});

/** How many times the build ran its bundler. */
function builds(): number {
  try {
    return readFileSync(path.join(tree, 'builds.log'), 'utf8').split('\n').length - 1;
  } catch {
    return 0;
  }
}

/** `node script/build-record.mjs ensure`, as `npm run demo` starts: the line it says. */
function ensure(env: Record<string, string> = {}): string {
  const said = execFileSync('bash', ['-c', 'node script/build-record.mjs ensure 2>&1 >/dev/null'], {
    cwd: tree,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return said.trim();
}

describe('rebuilding dist/ only when it is not current', () => {
  it('builds a tree that has no record, then not again while nothing changed', () => {
    expect(ensure()).toBe('rebuilding dist/: dist/build.json is missing or unreadable');
    expect(builds()).toBe(1);

    expect(ensure()).toBe('dist/ is current (built from these sources): not rebuilding it');
    expect(builds()).toBe(1);
  });

  it('goes by content, not file times: a touched file builds nothing, an edited one builds', () => {
    ensure();
    const future = new Date(Date.now() + 86_400_000);
    utimesSync(path.join(tree, 'src/index.ts'), future, future);
    ensure();
    expect(builds()).toBe(1);

    appendFileSync(path.join(tree, 'src/index.ts'), 'export const b = 2;\n');
    expect(ensure()).toBe(
      'rebuilding dist/: src/ or the build files changed since dist/ was built',
    );
    expect(builds()).toBe(2);
    expect(readFileSync(path.join(tree, 'dist/index.js'), 'utf8')).toContain('b = 2');
  });

  it('builds again for a new file under src/, a changed lock file, or a dist/ edited by hand', () => {
    ensure();
    writeFileSync(path.join(tree, 'src/other.ts'), 'export {};\n');
    ensure();
    expect(builds()).toBe(2);

    writeFileSync(path.join(tree, 'package-lock.json'), '{"lockfileVersion": 3}');
    ensure();
    expect(builds()).toBe(3);

    appendFileSync(path.join(tree, 'dist/cli.js'), '// edited by hand\n');
    expect(ensure()).toBe('rebuilding dist/: dist/cli.js is not what the build wrote');
    expect(builds()).toBe(4);
    expect(readFileSync(path.join(tree, 'dist/cli.js'), 'utf8')).not.toContain('edited');
  });

  it('with BUILD_CACHE_DIR, a build of inputs built before is copied; a damaged copy is rebuilt', () => {
    const cache = { BUILD_CACHE_DIR: path.join(tree, '.cache') };
    ensure(cache);
    const built = readFileSync(path.join(tree, 'dist/index.js'), 'utf8');
    rmSync(path.join(tree, 'dist'), { recursive: true });

    ensure(cache);
    expect(builds()).toBe(1);
    expect(readFileSync(path.join(tree, 'dist/index.js'), 'utf8')).toBe(built);
    expect(ensure()).toBe('dist/ is current (built from these sources): not rebuilding it');

    execFileSync('bash', ['-c', 'echo tampered >> .cache/*/index.js'], { cwd: tree });
    rmSync(path.join(tree, 'dist'), { recursive: true });
    ensure(cache);
    expect(builds()).toBe(2);
    expect(readFileSync(path.join(tree, 'dist/index.js'), 'utf8')).toBe(built);
  });
});

describe('the scripts that run dist/', () => {
  it.each(['demo', 'bench'])('npm run %s builds through build-record.mjs ensure', (script) => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts[script]).toMatch(/^node script\/build-record\.mjs ensure && /);
  });
});
