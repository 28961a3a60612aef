/**
 * dist/cli.js in a real git checkout against the service emulator: `deploy --agents` deploys only
 * the agents whose `paths` the change touches, the change being the checkout's since
 * `--changed-since REF` (a terminal) or a GitLab merge request's diff base; a shallow clone
 * without the merge base deploys every agent, saying why.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { KILL_AFTER_MS } from '../support/run-action.ts';
import { runCli } from './run-cli.ts';

const KEY = 'changed-since-api-key-0123456789';
const MANIFEST = [
  'agents:',
  '  support:',
  '    image-uri: reg/support:1',
  '    paths: [apps/support/**]',
  '  research:',
  '    image-uri: reg/research:1',
  '    paths: [apps/research/**]',
].join('\n');

let emu: Emulator;
let root: string;
let repo: string;
let forkPoint: string;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root },
  }).trim();
}

function commitFiles(files: Record<string, string>, message: string): string {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), text);
  }
  git(repo, 'add', '.');
  git(repo, '-c', 'user.email=dev@example.com', '-c', 'user.name=Dev', 'commit', '-qm', message);
  return git(repo, 'rev-parse', 'HEAD');
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'cli-changed-since-'));
  repo = path.join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  forkPoint = commitFiles(
    { 'agents.yaml': MANIFEST, 'apps/support/a.py': '1\n', 'apps/research/b.py': '1\n' },
    'two agents',
  );
  git(repo, 'checkout', '-qb', 'feature');
  commitFiles({ 'apps/support/a.py': '2\n' }, 'support changes');
  git(repo, 'checkout', '-q', 'main');
  commitFiles({ 'apps/research/b.py': '2\n' }, 'research changes on main, after the fork');
  git(repo, 'checkout', '-q', 'feature');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
});
afterEach(async () => {
  await emu.close();
});

function deploy(cwd: string, args: string[], env: Record<string, string> = {}) {
  return runCli(
    ['deploy', '--agents', 'agents.yaml', '--source', 'external_docker', '--json', ...args],
    {
      cwd,
      killAfterMs: KILL_AFTER_MS,
      env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, HOME: root, ...env },
    },
  );
}

const created = () =>
  emu.requests
    .filter((request) => request.method === 'POST' && request.path === '/v2/deployments')
    .map((request) => (request.body as { name?: string }).name);

describe('deploy --agents: only the agents the change touches', () => {
  it('with --changed-since REF in a terminal: the branch since it left main', async () => {
    const run = await deploy(repo, ['--changed-since', 'main']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.json?.deployments).toMatchObject({
      support: { name: 'support', created: true },
      research: { name: 'research', skipped: 'unchanged' },
    });
    expect(created()).toEqual(['support']);
  });

  it('on a GitLab merge request pipeline: from CI_MERGE_REQUEST_DIFF_BASE_SHA, without the flag', async () => {
    const run = await deploy(repo, [], {
      GITLAB_CI: 'true',
      CI: 'true',
      CI_PROJECT_PATH: 'acme/agents',
      CI_COMMIT_SHA: git(repo, 'rev-parse', 'HEAD'),
      CI_MERGE_REQUEST_ID: '12',
      CI_MERGE_REQUEST_IID: '3',
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
      CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: forkPoint,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(created()).toEqual(['support']);
  });

  it('every agent without the flag outside a merge request', async () => {
    const run = await deploy(repo, []);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(created().sort()).toEqual(['research', 'support']);
  });

  it('every agent in a shallow clone without the merge base, saying how to fetch the history', async () => {
    const shallow = path.join(root, 'shallow');
    git(root, 'clone', '-q', '--depth', '1', '--no-single-branch', `file://${repo}`, shallow);
    const run = await deploy(shallow, ['--changed-since', 'origin/main']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(created().sort()).toEqual(['research', 'support']);
    expect(run.stderr).toContain('shallow clone');
    expect(run.stderr).toContain('git fetch --unshallow');
  });
});
