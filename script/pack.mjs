#!/usr/bin/env node
/**
 * Packs the npm package as it is published: `node script/pack.mjs [OUT_DIR]` prints the
 * tarball's path. The package holds the two bundles, action.yml, the README and the licence,
 * and a manifest without the repository's development fields: every runtime dependency is
 * bundled into dist/, so the published package has no dependencies at all (and not the
 * optional Node 24 binary the tests use), no scripts (the root's `prepack` refuses to pack the
 * root: script/refuse-root-pack.mjs) and no `private` (the root is). On GitHub Actions
 * (GITHUB_REPOSITORY set) the manifest names the repository, which npm's provenance check
 * compares with the workflow's.
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

export function publishedManifest(manifest, repository) {
  const published = Object.fromEntries(
    PUBLISHED_FIELDS.filter((field) => manifest[field] !== undefined).map((field) => [
      field,
      manifest[field],
    ]),
  );
  if (repository !== undefined && repository !== '') {
    published.repository = { type: 'git', url: `git+https://github.com/${repository}.git` };
  }
  return published;
}

function main() {
  const out = path.resolve(process.argv[2] ?? path.join(ROOT, '.tmp'));
  mkdirSync(out, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const stage = mkdtempSync(path.join(tmpdir(), 'deploy-agent-pack-'));
  try {
    for (const file of [...manifest.files, 'README.md', 'LICENSE']) {
      cpSync(path.join(ROOT, file), path.join(stage, file), { recursive: true });
    }
    const published = publishedManifest(manifest, process.env.GITHUB_REPOSITORY);
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
