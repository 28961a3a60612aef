/**
 * dist/cli.js in a real git checkout, against the service emulator: the
 * checkout answers which of two commits is newer outside GitHub (a re-run
 * of an older GitLab pipeline is superseded at once, and twice the same),
 * and, outside any CI, its `origin` names the repository.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { packageOnPath, shellLines } from '../support/doc-examples.ts';
import { INTEGRATION } from '../support/fixtures.ts';
import { runCli } from './run-cli.ts';
import { QUICK } from '../support/quick.ts';

const KEY = 'cli-api-key-0123456789';
const REPO_URL = 'https://github.com/acme/agent';

let emu: Emulator;
let checkout: string;

/** Runs git in the checkout, as a person would; its trimmed output. */
function git(...args: string[]): string {
  return execFileSync('git', args, {
    cwd: checkout,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: checkout },
  }).trim();
}

/** A new commit on the checkout's branch; its sha. */
function commit(message: string): string {
  git(
    '-c',
    'user.email=dev@example.com',
    '-c',
    'user.name=Dev',
    'commit',
    '--allow-empty',
    '-qm',
    message,
  );
  return git('rev-parse', 'HEAD');
}

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
  emu.seedRepos(INTEGRATION, [{ name: 'agent' }]);
  checkout = mkdtempSync(path.join(tmpdir(), 'cli-checkout-'));
  git('init', '-q', '-b', 'main');
});
afterEach(async () => {
  await emu.close();
  rmSync(checkout, { recursive: true, force: true });
});

function serviceEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, ...QUICK, ...extra };
}

/** A GitLab push pipeline's variables for `sha` on main. */
function gitlab(sha: string): Record<string, string> {
  return {
    GITLAB_CI: 'true',
    CI: 'true',
    CI_PROJECT_PATH: 'acme/agent',
    CI_COMMIT_SHA: sha,
    CI_COMMIT_REF_NAME: 'main',
    CI_COMMIT_BRANCH: 'main',
  };
}

/** The checks of one deployment by id (the wait's polls). */
function checks(): number {
  return emu.requests.filter(
    (request) => request.method === 'GET' && /^\/v2\/deployments\/[^/]+$/.test(request.path),
  ).length;
}

describe('the order of commits, from the checkout', () => {
  const DEPLOY = ['deploy', '--name', 'agent', '--integration-id', INTEGRATION, '--json'];
  // A wait for a commit never built ends in a failed run, within the test's own timeout.
  const WAIT = ['--wait', '--wait-timeout', '5'];

  beforeEach(() => {
    emu.setOptions({ readyAfterPolls: 0 });
  });

  it('a re-run of an older GitLab pipeline is superseded at once by the live descendant, twice alike', async () => {
    const older = commit('older');
    const newer = commit('newer');
    emu.setHead(REPO_URL, 'main', newer);
    const first = await runCli([...DEPLOY, ...WAIT], {
      env: serviceEnv(gitlab(newer)),
      cwd: checkout,
    });
    expect(first.exitCode).toBe(0);
    expect(first.json).toMatchObject({ live: true, 'commit-sha': newer });

    for (const attempt of [1, 2]) {
      emu.requests.length = 0;
      const rerun = await runCli([...DEPLOY, ...WAIT], {
        env: serviceEnv(gitlab(older)),
        cwd: checkout,
      });

      expect(rerun.stderr, `re-run ${attempt}`).toContain(
        `was superseded by a newer commit: commit ${newer.slice(0, 12)} is live instead`,
      );
      expect(rerun.exitCode).toBe(0);
      expect(rerun.json).toMatchObject({ live: true, created: false, 'commit-sha': newer });
      expect(checks()).toBeLessThanOrEqual(2);
    }
  });

  it('a live commit behind the target is not a newer push: the wait goes on for the target', async () => {
    const older = commit('older');
    const newer = commit('newer');
    emu.setHead(REPO_URL, 'main', older);
    const setUp = await runCli([...DEPLOY, ...WAIT], {
      env: serviceEnv(gitlab(older)),
      cwd: checkout,
    });
    expect(setUp.exitCode, setUp.stderr).toBe(0);
    expect(setUp.json).toMatchObject({ live: true, created: true, 'commit-sha': older });

    const run = await runCli([...DEPLOY, '--wait', '--wait-timeout', '1'], {
      env: serviceEnv(gitlab(newer)),
      cwd: checkout,
    });

    // The wait ran to its deadline on the target, not stopped as superseded or failed otherwise.
    expect(run.exitCode).toBe(1);
    expect(run.json).toMatchObject({ live: false, created: false, 'commit-sha': older });
    expect(run.json?.error).toMatch(
      new RegExp(
        `^Deployment 'agent' \\([^)]+\\) is not live after [\\d.]+ s \\(\\d+ checks\\): ` +
          `the latest revision is for commit ${older.slice(0, 12)}, older than the target ${newer.slice(0, 12)} of branch main\\.`,
      ),
    );
    expect(run.stderr).toContain(`error: ${String(run.json?.error)}`);
    expect(run.stderr).not.toContain('superseded');
  });

  it('a commit the checkout does not hold is not known: the wait goes on, as before', async () => {
    const target = commit('target');
    const unknown = 'abcdef0123456789abcdef0123456789abcdef01';
    emu.setHead(REPO_URL, 'main', unknown);
    const setUp = await runCli([...DEPLOY, ...WAIT], {
      env: serviceEnv(gitlab(unknown)),
      cwd: checkout,
    });
    expect(setUp.exitCode).toBe(0);
    expect(setUp.json).toMatchObject({ live: true, created: true, 'commit-sha': unknown });

    const run = await runCli([...DEPLOY, '--wait', '--wait-timeout', '1'], {
      env: serviceEnv(gitlab(target)),
      cwd: checkout,
    });

    // The wait ran to its deadline on the target, not stopped as superseded or failed otherwise.
    const why =
      `the latest revision is for commit ${unknown.slice(0, 12)}, not the target ` +
      `${target.slice(0, 12)} of branch main; which of the two is newer is not known here`;
    expect(run.exitCode).toBe(1);
    expect(run.json).toMatchObject({ live: false, created: false, 'commit-sha': unknown });
    expect(run.json?.error).toMatch(
      new RegExp(
        `^Deployment 'agent' \\([^)]+\\) is not live after [\\d.]+ s \\(\\d+ checks\\): ${why}\\.`,
      ),
    );
    expect(run.stderr).toContain(`error: ${String(run.json?.error)}`);
    expect(run.stderr).not.toContain('superseded');
  });
});

describe('outside any CI, the origin remote names the repository', () => {
  /** The docs' terminal example, as docs/command.md writes it. */
  const [DRY_RUN = '', ...others] = shellLines(
    'docs/command.md',
    'deploy-agent deploy --name my-agent --integration-id "$INTEGRATION_ID" --dry-run',
  );

  /** The docs' line through a shell, in the clone, with `deploy-agent` on the PATH and no CI. */
  function runDocsLine(line: string) {
    return runCli(['-c', line], {
      command: ['bash'],
      cwd: checkout,
      env: serviceEnv({
        PATH: `${packageOnPath()}:${process.env.PATH ?? '/usr/bin:/bin'}`,
        INTEGRATION_ID: INTEGRATION,
      }),
    });
  }

  it.each([
    'git@github.com:acme/agent.git',
    'https://github.com/acme/agent.git',
    'ssh://git@github.com/acme/agent',
  ])("the docs' terminal example runs as written in a clone of %s", async (origin) => {
    expect(others).toEqual([]);
    commit('first');
    git('remote', 'add', 'origin', origin);

    const run = await runDocsLine(DRY_RUN);

    expect(run.stderr).not.toContain('is required');
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain('acme/agent: https://github.com/acme/agent');
    expect(run.stderr).toContain("dry run: would POST /v2/deployments to create 'my-agent'");
    expect(emu.requests.every((request) => request.method === 'GET')).toBe(true);
  });

  it('an origin on another code host than the integration lists is not taken for its repository', async () => {
    commit('first');
    git('remote', 'add', 'origin', 'git@gitlab.com:acme/agent.git');

    const run = await runDocsLine(DRY_RUN);

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(
      `Repository acme/agent on gitlab.com is not available to integration ${INTEGRATION}: the integration lists no repositories on gitlab.com`,
    );
  });
});
