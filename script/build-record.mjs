/**
 * What dist/ was built from, decided by content, never by file times (a fresh clone sets those
 * at random): `npm run bundle` ends by writing dist/build.json, a SHA-256 of the build's inputs
 * (every file under src/, package.json, package-lock.json, tsconfig.json, script/build and this
 * file) and of each file it wrote. dist/ is current when the inputs hash the same and every
 * output is still what the build wrote.
 *
 *   node script/build-record.mjs write    record dist/ as built from the tree as it is now
 *                                         (and keep it in BUILD_CACHE_DIR when set)
 *   node script/build-record.mjs check    exit 0 when dist/ is current, 1 when not (says why)
 *   node script/build-record.mjs ensure   `npm run bundle` only when dist/ is not current
 *
 * With BUILD_CACHE_DIR set, script/build keeps each build's outputs under that folder by the
 * hash of its inputs, and a later build of the same inputs copies them instead of running ncc
 * (`restore`/`store` below); the release test shares one real build between its cases so.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The files the build reads, besides everything under src/ (node_modules is package-lock.json's). */
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'script/build'];
const THIS_FILE = 'script/build-record.mjs';
/** What script/build writes into dist/. */
export const OUTPUTS = [
  'index.js',
  'plan.js',
  'retire.js',
  'sweep.js',
  'cli.js',
  'licenses.txt',
  'cli-licenses.txt',
  'package.json',
];
export const RECORD = 'build.json';
/** A source tree far larger than ours is a mistake (a link to somewhere else), not a build input. */
const MAX_INPUT_FILES = 10_000;

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** Every file under `directory`, as paths relative to `root` with `/`, sorted. */
function filesUnder(root, directory) {
  const found = [];
  for (const entry of readdirSync(path.join(root, directory), {
    withFileTypes: true,
    recursive: true,
  })) {
    if (!entry.isFile()) continue;
    found.push(
      path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    );
    if (found.length > MAX_INPUT_FILES) {
      throw new Error(`${directory}/ holds more than ${MAX_INPUT_FILES} files`);
    }
  }
  return found.sort();
}

/** One hash of the build's inputs under `root`: each file's path and content. */
export function inputsHash(root) {
  const hash = createHash('sha256');
  const files = [...filesUnder(root, 'src'), ...INPUT_FILES, THIS_FILE];
  for (const file of files) {
    const content = readFileSync(path.join(root, file));
    // Path and length first, so that no two trees hash alike by moving bytes between files.
    hash.update(`${file}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}

/** The hash of each output file in `directory`. */
function outputHashes(directory) {
  return Object.fromEntries(
    OUTPUTS.map((name) => [name, sha256(readFileSync(path.join(directory, name)))]),
  );
}

/** Writes dist/build.json for the dist/ under `root` as it is now. */
export function writeRecord(root) {
  const dist = path.join(root, 'dist');
  const record = { inputs: inputsHash(root), outputs: outputHashes(dist) };
  writeFileSync(path.join(dist, RECORD), `${JSON.stringify(record, null, 2)}\n`);
  return record;
}

/** Why dist/ under `root` is not what the build makes of the tree now, or undefined when it is. */
export function whyStale(root) {
  const dist = path.join(root, 'dist');
  let record;
  try {
    record = JSON.parse(readFileSync(path.join(dist, RECORD), 'utf8'));
  } catch {
    return `dist/${RECORD} is missing or unreadable`;
  }
  if (record?.inputs !== inputsHash(root)) {
    return 'src/ or the build files changed since dist/ was built';
  }
  const wrong = unlikeRecord(dist, record);
  if (wrong === undefined) return undefined;
  return existsSync(path.join(dist, wrong))
    ? `dist/${wrong} is not what the build wrote`
    : `dist/${wrong} is missing`;
}

/** The first output in `directory` missing or not as `record` says the build wrote it. */
function unlikeRecord(directory, record) {
  return OUTPUTS.find((name) => {
    const file = path.join(directory, name);
    return !existsSync(file) || record.outputs?.[name] !== sha256(readFileSync(file));
  });
}

/** The cache folder of the tree's inputs, when BUILD_CACHE_DIR is set. */
function cacheFolder(root, env) {
  const cache = env.BUILD_CACHE_DIR;
  return cache ? path.join(path.resolve(root, cache), inputsHash(root)) : undefined;
}

/**
 * Copies a cached build of the same inputs into dist/; false when there is none. The copy is
 * checked against the record stored with it, so a damaged cache is a build, not a wrong dist/.
 */
export function restore(root, env = process.env) {
  const folder = cacheFolder(root, env);
  if (folder === undefined || !existsSync(path.join(folder, RECORD))) return false;
  const record = JSON.parse(readFileSync(path.join(folder, RECORD), 'utf8'));
  if (unlikeRecord(folder, record) !== undefined) return false;
  const dist = path.join(root, 'dist');
  mkdirSync(dist, { recursive: true });
  for (const name of [...OUTPUTS, RECORD])
    copyFileSync(path.join(folder, name), path.join(dist, name));
  return true;
}

/** Keeps dist/'s outputs and record in the cache, when BUILD_CACHE_DIR is set. */
export function store(root, env = process.env) {
  const folder = cacheFolder(root, env);
  if (folder === undefined) return;
  mkdirSync(folder, { recursive: true });
  for (const name of [...OUTPUTS, RECORD]) {
    copyFileSync(path.join(root, 'dist', name), path.join(folder, name));
  }
}

/** Runs `npm run bundle` when dist/ is not current; says which it did. */
export function ensure(root, say = (line) => console.error(line)) {
  const why = whyStale(root);
  if (why === undefined) {
    say('dist/ is current (built from these sources): not rebuilding it');
    return false;
  }
  say(`rebuilding dist/: ${why}`);
  execFileSync('npm', ['run', '--silent', 'bundle'], { cwd: root, stdio: 'inherit' });
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.cwd();
  const command = process.argv[2];
  if (command === 'write') {
    writeRecord(root);
    store(root);
  } else if (command === 'ensure') ensure(root);
  else if (command === 'restore') process.exit(restore(root) ? 0 : 1);
  else if (command === 'check') {
    const why = whyStale(root);
    if (why !== undefined) console.error(`dist/ is not current: ${why}`);
    process.exit(why === undefined ? 0 : 1);
  } else {
    console.error('usage: node script/build-record.mjs write|check|ensure|restore');
    process.exit(2);
  }
}
