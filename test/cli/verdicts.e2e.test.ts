/**
 * dist/cli.js against the service emulator: one world, one verdict. When
 * the service runs another commit than the target and nothing can tell
 * which of the two is newer, the run that creates the deployment and the
 * run that reuses it say the same thing, neither is green, and the advice
 * fits the cause (a longer wait does not build a commit never pushed). The
 * `run:` line names the commit given; the last line, the address.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { INTEGRATION } from '../support/fixtures.ts';
import { runCli } from './run-cli.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { QUICK } from '../support/quick.ts';

const KEY = 'cli-api-key-0123456789';
const REPO_URL = 'https://github.com/acme/agent';
const TARGET = 'fcc11424c42a0000000000000000000000000001';
const HEAD = 'cccccccccccccccccccccccccccccccccccccccc';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
  emu.seedRepos(INTEGRATION, [{ name: 'agent' }]);
  emu.setOptions({ readyAfterPolls: 0 });
  // The service builds the head it knows: another commit than the run's target.
  emu.setHead(REPO_URL, 'main', HEAD);
});
afterEach(async () => {
  await emu.close();
});

/** A terminal run outside any checkout: nothing can tell the order of the two commits. */
const DEPLOY = [
  'deploy',
  '--name',
  'agent',
  '--integration-id',
  INTEGRATION,
  '--repository',
  'acme/agent',
  '--commit',
  TARGET,
  '--wait',
  '--wait-timeout',
  '2',
];
const ENV = {
  DEPLOY_API_KEY: KEY,
  ...QUICK,
};

/** The run's failure, the same words whoever made the deployment (the ids aside). */
function verdictOf(stderr: string): string {
  const line = stderr.split('\n').find((each) => each.includes('is not live after')) ?? '';
  return line.replace(/\([0-9a-f-]{36}\)/g, '(ID)').replace(/\(\d+ checks\)/, '(N checks)');
}

describe('the order of two commits is not known', () => {
  it('create and reuse give the same verdict: not green, and no wait cures it', async () => {
    const env = { ...ENV, DEPLOY_API_URL: emu.url };
    const created = await runCli(DEPLOY, { env });
    const reused = await runCli(DEPLOY, { env });

    for (const [run, which] of [
      [created, 'create'],
      [reused, 'reuse'],
    ] as const) {
      expect(run.stderr, which).not.toContain('superseded');
      expect(run.exitCode, which).toBe(1);
      expect(run.stderr).toContain(
        `the latest revision is for commit ${HEAD.slice(0, 12)}, not the target ${TARGET.slice(0, 12)}`,
      );
      expect(run.stderr).toContain(
        `A longer wait does not build commit ${TARGET.slice(0, 12)} unless it is pushed to branch main`,
      );
      expect(run.stderr).not.toContain('Raise --wait-timeout');
    }
    expect(verdictOf(created.stderr)).not.toBe('');
    expect(verdictOf(created.stderr)).toBe(verdictOf(reused.stderr));
  });
});

describe('what a deploy says of itself', () => {
  it('the run: line names the commit given, not the checkout’s head', async () => {
    const checkout = mkdtempSync(path.join(tmpdir(), 'cli-verdicts-'));
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: checkout,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: checkout },
      }).trim();
    try {
      git('init', '-q', '-b', 'main');
      git('-c', 'user.email=d@e.f', '-c', 'user.name=D', 'commit', '--allow-empty', '-qm', 'one');
      const head = git('rev-parse', 'HEAD');

      const run = await runCli([...DEPLOY, '--dry-run'], {
        env: { ...ENV, DEPLOY_API_URL: emu.url },
        cwd: checkout,
      });

      expect(run.stderr).toContain(
        `run: the git checkout, commit ${TARGET.slice(0, 12)} (the commit given)`,
      );
      expect(run.stderr).not.toContain(head.slice(0, 12));
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });

  it('the last line gives the deployment’s address; never one withheld for a secret', async () => {
    const HELD = 'held-secret-0123456789';
    const seed = (name: string, url: string) =>
      emu.seedDeployment({
        name,
        source_config: {
          integration_id: INTEGRATION,
          repo_url: REPO_URL,
          build_on_push: true,
          custom_url: url,
        },
        source_revision_config: { repo_ref: 'main', repo_commit_sha: HEAD },
        secrets: [{ name: 'HELD', value: HELD }],
      });
    const clean = seed('clean', 'https://clean.example/');
    const leaky = seed('leaky', `https://leaky.example/?t=${HELD}`);
    const env = { ...ENV, DEPLOY_API_URL: emu.url };
    const deploy = (name: string) =>
      runCli(
        ['deploy', '--name', name, '--integration-id', INTEGRATION, '--repository', 'acme/agent'],
        { env: { ...env, DEPLOY_COMMIT: 'none' } },
      );

    const [shown, withheld] = [await deploy('clean'), await deploy('leaky')];

    expect(shown.stderr).toContain(`reused 'clean': ${clean.id} (READY) at https://clean.example/`);
    expect(withheld.stderr).toContain(`reused 'leaky': ${leaky.id} (READY)\n`);
    expect(withheld.stderr).not.toContain('leaky.example');
    expectNoSecret([HELD, KEY], shown, withheld);
  });
});
