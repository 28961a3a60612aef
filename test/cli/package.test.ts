/**
 * The npm package as it is published (script/pack.mjs, which the release
 * workflow publishes): what it holds, and that it installs into an empty
 * folder with no network and no dependency, and that its `deploy-agent`
 * runs from there: --version, and a dry run against the emulator.
 *
 * The bundle is also meant for Node 22: set NODE22 to a Node 22 binary to run
 * the installed command with it too (see docs/command.md).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { ROOT } from '../support/action.ts';
import { NODE24 } from '../support/run-action.ts';
import { runCli } from './run-cli.ts';

const PACK_TIMEOUT_MS = 120_000;
/** The package's name for the repository Acme/agent-deploy. */
const PACKAGE = '@acme/deploy-agent';

let directory: string;
let tarball: string;
let installed: string;
let emu: Emulator;

/** PATH with `node` being `binary`, as the bin's `#!/usr/bin/env node` finds it. */
function pathWith(binary: string): string {
  return `${path.dirname(binary)}${path.delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`;
}

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'cli-package-'));
  tarball = execFileSync(process.execPath, [path.join(ROOT, 'script', 'pack.mjs'), directory], {
    encoding: 'utf8',
    env: { ...process.env, GITHUB_REPOSITORY: 'Acme/agent-deploy' },
  }).trim();
  installed = path.join(directory, 'project');
  execFileSync('mkdir', ['-p', installed]);
  // An empty project, an empty cache, and --offline: nothing can come from the network.
  execFileSync(
    'npm',
    [
      'install',
      '--offline',
      '--no-audit',
      '--no-fund',
      '--cache',
      path.join(directory, 'cache'),
      tarball,
    ],
    { cwd: installed, encoding: 'utf8', stdio: 'pipe' },
  );
  emu = await startEmulator();
}, PACK_TIMEOUT_MS);

afterAll(async () => {
  await emu?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('the published package', () => {
  it('holds the two bundles, action.yml, the README and the licences, and nothing else', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .sort();
    expect(files).toEqual([
      'package/LICENSE',
      'package/README.md',
      'package/action.yml',
      'package/dist/cli-licenses.txt',
      'package/dist/cli.js',
      'package/dist/index.js',
      'package/dist/licenses.txt',
      'package/package.json',
    ]);
  });

  it('is @OWNER/deploy-agent, scoped to the repository it names (issue 56)', () => {
    const manifest = JSON.parse(
      readFileSync(path.join(installed, 'node_modules', PACKAGE, 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(manifest.name).toBe('@acme/deploy-agent');
    expect(manifest.repository).toEqual({
      type: 'git',
      url: 'git+https://github.com/Acme/agent-deploy.git',
    });
  });

  it('has a bin, engines for Node 22 and 24, and no dependency of any kind', () => {
    const manifest = JSON.parse(
      readFileSync(path.join(installed, 'node_modules', PACKAGE, 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(manifest.bin).toEqual({ 'deploy-agent': 'dist/cli.js' });
    expect(manifest.engines).toEqual({ node: '>=22' });
    expect(manifest.private).toBeUndefined();
    for (const field of ['dependencies', 'optionalDependencies', 'devDependencies', 'scripts']) {
      expect(manifest, field).not.toHaveProperty(field);
    }
    // npm installed the package alone.
    const lock = JSON.parse(readFileSync(path.join(installed, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    expect(Object.keys(lock.packages).sort()).toEqual(['', `node_modules/${PACKAGE}`]);
  });

  const bin = () => path.join(installed, 'node_modules', '.bin', 'deploy-agent');

  /** `deploy-agent --version` and a dry run from the install, under `node`. */
  async function runsFromTheInstall(node: string) {
    const env = { PATH: pathWith(node) };
    const version = await runCli(['--version'], { command: [bin()], env, cwd: installed });
    expect(version.stdout.trim()).toBe(
      (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
        .version,
    );
    expect(version.exitCode).toBe(0);

    const dryRun = await runCli(
      [
        'deploy',
        '--name',
        'from-the-package',
        '--source',
        'external_docker',
        '--image-uri',
        'reg/agent:1',
        '--dry-run',
        '--json',
      ],
      { command: [bin()], env: { ...env, DEPLOY_API_URL: emu.url }, cwd: installed },
    );
    expect(dryRun.stderr).toContain('dry run');
    expect(dryRun.exitCode).toBe(0);
    expect(dryRun.json).toMatchObject({ created: false, live: false });
    expect(emu.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
    expect(emu.requests.length).toBeGreaterThan(0);
  }

  it('runs deploy-agent --version and a dry run from the install, on Node 24', async () => {
    await runsFromTheInstall(NODE24);
  });

  // CI's node22 job sets NODE22 (ci.yml); elsewhere this shows as skipped, not passed.
  it.skipIf(!process.env.NODE22)(
    'runs deploy-agent --version and a dry run from the install, on Node 22',
    async () => {
      await runsFromTheInstall(process.env.NODE22 ?? '');
    },
  );
});

describe("the repository's root (issue 25, point 6; issue 56)", () => {
  /** `npm ARGS` at the root, its exit status and stderr. */
  function npmAtRoot(args: string[]) {
    const run = spawnSync('npm', args, {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, npm_config_cache: path.join(directory, 'root-cache') },
    });
    return { status: run.status, stderr: run.stderr };
  }

  it('has no script and no dependency that npm builds or fetches on a git install (issue 56)', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      dependencies?: unknown;
      workspaces?: unknown;
    };
    // The scripts for which npm (pacote) runs `npm install` with devDependencies on a git clone.
    const building = ['build', 'prepare', 'prepack', 'preinstall', 'install', 'postinstall'];
    expect(Object.keys(manifest.scripts).filter((name) => building.includes(name))).toEqual([]);
    expect(manifest.workspaces).toBeUndefined();
    expect(manifest.dependencies).toBeUndefined();
  });

  it('packs a private tarball with npm pack, which npm publish refuses to send', () => {
    const out = mkdtempSync(path.join(directory, 'root-pack-'));
    expect(npmAtRoot(['pack', '--pack-destination', out]).status).toBe(0);
    const [packed = ''] = readdirSync(out);
    const manifest = JSON.parse(
      execFileSync('tar', ['-xOzf', path.join(out, packed), 'package/package.json'], {
        encoding: 'utf8',
      }),
    ) as { private?: unknown };
    expect(manifest.private).toBe(true);

    // Nothing listens on port 9: npm's look-up of the name fails (it goes on without it), and
    // EPRIVATE stops it before it sends the package.
    const run = npmAtRoot([
      'publish',
      path.join(out, packed),
      '--registry',
      'http://127.0.0.1:9/',
      '--//127.0.0.1:9/:_authToken=unused',
      '--fetch-retries=0',
    ]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('EPRIVATE');
  });

  it('refuses npm publish before anything is packed or sent, saying what to run', () => {
    const run = npmAtRoot(['publish', '--dry-run']);

    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('npm run tarball');
  });

  it('is private, so that even npm publish --ignore-scripts cannot publish it', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      private?: unknown;
    };
    expect(manifest.private).toBe(true);
  });
});

describe('the release workflow', () => {
  interface Workflow {
    on: { push: { tags: string[] } };
    jobs: Record<string, { permissions?: Record<string, string>; steps: { run?: string }[] }>;
  }
  const workflow = parse(
    readFileSync(path.join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8'),
  ) as Workflow;

  it('publishes what script/pack.mjs packs, with provenance, on the vX.Y.Z tag', () => {
    expect(workflow.on.push.tags).toEqual(['v*.*.*']);
    const [job] = Object.values(workflow.jobs);
    expect(job?.permissions).toMatchObject({ 'id-token': 'write' });
    const runs = (job?.steps ?? []).map((step) => step.run ?? '');
    const order = (text: string) => runs.findIndex((run) => run.includes(text));
    expect(order('require("./package.json").version')).toBeGreaterThanOrEqual(0);
    expect(order('script/pack.mjs')).toBeGreaterThan(order('npm run bundle'));
    expect(runs[order('npm publish')]).toMatch(
      /npm publish "\$TARBALL" --provenance --access public/,
    );
    // The npm package first: a GitHub Release is never announced for a version npm refused.
    expect(order('gh release create')).toBeGreaterThan(order('npm publish'));
  });
});
