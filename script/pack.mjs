#!/usr/bin/env node
/**
 * Packs the npm package as it is published: `node script/pack.mjs [OUT_DIR]` prints the
 * tarball's path. The package holds the two bundles, action.yml, the README and the licence,
 * and a manifest without the repository's development fields: every runtime dependency is
 * bundled into dist/, so the published package has no dependencies at all (and not the
 * optional Node 24 binary the tests use), no scripts and no `private` (the root is). Its name
 * is scoped to the repository's owner, `@OWNER/deploy-agent`, so that no one else can publish
 * the name the docs run, and the manifest names the repository, which npm's provenance check
 * compares with the workflow's. The repository is GITHUB_REPOSITORY (set on GitHub Actions),
 * else the GitHub address of the `origin` remote.
 * Plain JavaScript, so any Node runs it.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The fields of package.json that the published manifest keeps. */
const PUBLISHED_FIELDS = [
  'name',
  'version',
  'description',
  'keywords',
  'license',
  'type',
  'bin',
  'files',
  'engines',
  'repository',
];

/** The package's name for the repository `OWNER/REPO`: npm scopes are lower case. */
export function packageName(repository) {
  return `@${repository.split('/')[0].toLowerCase()}/deploy-agent`;
}

/** The manifest published for the repository `OWNER/REPO`. */
export function publishedManifest(manifest, repository) {
  const published = Object.fromEntries(
    PUBLISHED_FIELDS.filter((field) => manifest[field] !== undefined).map((field) => [
      field,
      manifest[field],
    ]),
  );
  published.name = packageName(repository);
  published.repository = { type: 'git', url: `git+https://github.com/${repository}.git` };
  return published;
}

/** `OWNER/REPO`: GITHUB_REPOSITORY, else the `origin` remote's GitHub address; else it stops. */
function repositoryOf() {
  const named = process.env.GITHUB_REPOSITORY ?? '';
  if (/^[\w.-]+\/[\w.-]+$/.test(named)) return named;
  let origin = '';
  try {
    origin = execFileSync('git', ['remote', 'get-url', 'origin'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // No origin: said below.
  }
  const match = /github\.com[:/]([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(origin);
  if (match !== null) return match[1];
  console.error(
    "pack: the package is named after the repository's owner (@OWNER/deploy-agent), and neither " +
      'GITHUB_REPOSITORY nor a GitHub origin remote names it: run GITHUB_REPOSITORY=OWNER/REPO npm run tarball',
  );
  process.exit(1);
}

function main() {
  const repository = repositoryOf();
  const out = path.resolve(process.argv[2] ?? path.join(ROOT, '.tmp'));
  mkdirSync(out, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const stage = mkdtempSync(path.join(tmpdir(), 'deploy-agent-pack-'));
  try {
    for (const file of [...manifest.files, 'README.md', 'LICENSE']) {
      cpSync(path.join(ROOT, file), path.join(stage, file), { recursive: true });
    }
    const published = publishedManifest(manifest, repository);
    writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
    const answer = execFileSync(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', out],
      { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [{ filename }] = JSON.parse(answer);
    console.log(path.join(out, filename));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  main();
}
