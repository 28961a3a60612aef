/**
 * The docs' install line works (issue 56, point 1): the first `npx --yes github:OWNER/REPO#v1
 * deploy …` line of docs/command.md, exactly as written, run by a shell with the real npm and
 * npx, installs this working tree (its `git ls-files` and dist/, committed in a temporary
 * repository and tagged v1: uncommitted work is what is tested) and deploys against the
 * emulator. No request reaches GitHub or the registry: git finds github.com/OWNER/REPO through
 * `url.<file URL>.insteadOf` (set in the environment only), and npm's HTTPS proxy
 * (test/support/codeload.ts) serves codeload.github.com's tarball of the tag as GitHub does and
 * refuses every other host. npm runs no install or build script: the install holds the package
 * and nothing of its development (no typescript, no ncc, no @actions/core).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { ROOT } from '../support/action.ts';
import { CODELOAD, startCodeload, type Codeload } from '../support/codeload.ts';
import { codeBlocks, INSTALL_SPEC } from '../support/doc-examples.ts';
import { NODE24 } from '../support/run-action.ts';
import { makeCertificate } from '../support/tls.ts';
import { QUICK } from '../support/quick.ts';

const KEY = 'install-line-key';
const RUN_TIMEOUT_MS = 90_000;
const SHELL_TIMEOUT_MS = 60_000;

let directory: string;
let gitDir: string;
let codeload: Codeload;
/** The certificate npm trusts (and only it): codeload.github.com as the proxy serves it. */
let certPath: string;
let emu: Emulator;

/** The docs' first `npx --yes github:OWNER/REPO#v1 deploy` line, continuation lines joined. */
function documentedLine(): string {
  const lines = codeBlocks('docs/command.md')
    .filter((block) => block.language === 'sh')
    .flatMap((block) => block.text.replace(/\\\n\s*/g, '').split('\n'));
  const line = lines.find((text) => text.startsWith(`npx --yes ${INSTALL_SPEC} deploy `));
  if (line === undefined) throw new Error(`docs/command.md: no npx --yes ${INSTALL_SPEC} deploy`);
  return line;
}

/** A bare repository holding the working tree as it is (tracked files and dist/), tagged v1. */
function repositoryOfTheWorkingTree(into: string): string {
  const git = (args: string[], env: Record<string, string> = {}) =>
    execFileSync('git', ['--git-dir', into, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    }).trim();
  git(['init', '-q', '--bare', '-b', 'main']);
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && existsSync(path.join(ROOT, file)));
  git(['--work-tree', ROOT, 'add', '-f', '--', ...files, 'dist']);
  const who = { GIT_AUTHOR_NAME: 'test', GIT_AUTHOR_EMAIL: 'test@example.com' };
  const committer = { GIT_COMMITTER_NAME: 'test', GIT_COMMITTER_EMAIL: 'test@example.com' };
  const commit = git(['commit-tree', git(['write-tree']), '-m', 'the working tree'], {
    ...who,
    ...committer,
  });
  git(['update-ref', 'refs/heads/main', commit]);
  git(['tag', 'v1', commit]);
  return commit;
}

/** git's configuration, in the environment only: github.com/OWNER/REPO is the local one. */
function gitFindsTheRepository(): Record<string, string> {
  const bases = [
    'https://github.com/OWNER/REPO.git',
    'ssh://git@github.com/OWNER/REPO.git',
    'git@github.com:OWNER/REPO.git',
  ];
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(bases.length) };
  bases.forEach((base, index) => {
    env[`GIT_CONFIG_KEY_${index}`] = `url.file://${gitDir}.insteadOf`;
    env[`GIT_CONFIG_VALUE_${index}`] = base;
  });
  return env;
}

/** Runs `line` with `sh -c` in an empty folder; its exit status, stdout and stderr. */
function shell(line: string, env: Record<string, string>, cwd: string) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    // Its own process group, so that the timeout stops npx and the command too.
    const child = spawn('sh', ['-c', line], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => process.kill(-(child.pid ?? 0), 'SIGKILL'), SHELL_TIMEOUT_MS);
    child.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'install-line-'));
  gitDir = path.join(directory, 'repo.git');
  repositoryOfTheWorkingTree(gitDir);
  const certificate = makeCertificate(directory, [CODELOAD]);
  certPath = certificate.certPath;
  codeload = await startCodeload('OWNER/REPO', gitDir, certificate);
  emu = await startEmulator({ apiKey: KEY });
  emu.setOptions({ readyAfterPolls: 2 });
}, RUN_TIMEOUT_MS);

afterAll(async () => {
  await emu?.close();
  await codeload?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("docs/command.md's install line (issue 56)", () => {
  it(
    'installs the repository at its tag, builds nothing, and deploys',
    async () => {
      const line = documentedLine();
      const cwd = path.join(directory, 'job');
      const cache = path.join(directory, 'npm-cache');
      mkdirSync(cwd);
      const run = await shell(
        line,
        {
          // Node 24 first: npx and the command's `#!/usr/bin/env node` run on it.
          PATH: `${path.dirname(NODE24)}${path.delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`,
          HOME: directory,
          ...gitFindsTheRepository(),
          npm_config_cache: cache,
          npm_config_userconfig: path.join(directory, 'npmrc'),
          npm_config_https_proxy: codeload.url,
          npm_config_proxy: codeload.url,
          npm_config_cafile: certPath,
          npm_config_fetch_retries: '0',
          npm_config_update_notifier: 'false',
          npm_config_audit: 'false',
          npm_config_fund: 'false',
          DEPLOY_API_URL: emu.url,
          DEPLOY_API_KEY: KEY,
          ...QUICK,
        },
        cwd,
      );

      expect(run.stderr).not.toContain('npm error');
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ created: true, live: true, status: 'READY' });
      expect(run.stderr).toContain("== Creating deployment 'my-agent'");
      expect(emu.deployments.map((deployment) => deployment.name)).toEqual(['my-agent']);
      // The tag's tarball came from "codeload"; GitHub itself and other hosts were never asked.
      expect(codeload.requests).toEqual([
        expect.stringMatching(/^GET \/OWNER\/REPO\/tar\.gz\/[0-9a-f]{40} 200$/),
      ]);
      expect(codeload.connects.filter((target) => target !== `${CODELOAD}:443`)).not.toContain(
        'github.com:443',
      );

      // npx's install: the package and, at most, the optional Node binary; nothing built it.
      const [install = ''] = readdirSync(path.join(cache, '_npx'));
      const modules = readdirSync(path.join(cache, '_npx', install, 'node_modules'));
      expect(modules).toContain('deploy-agent-action');
      for (const development of ['typescript', '@vercel', '@actions', 'zod', 'vitest']) {
        expect(modules).not.toContain(development);
      }
    },
    RUN_TIMEOUT_MS,
  );
});
