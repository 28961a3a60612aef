/**
 * `npm run local` (script/local.ts) runs the bundle with no runner around it, so no one
 * evaluates `${{ github.token }}`, the default of `github-token`: the run takes the dotenv
 * file's GITHUB_TOKEN, else an empty token (the GitHub features skipped with one notice),
 * never the unexpanded expression. Run as npm runs it, against both emulators. And a tool that
 * hands the bundle action.yml's defaults as written (`local-action`): the expression is no token,
 * so the step neither masks it (`::add-mask::${{ github.token }}`) nor sends it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import { ROOT } from '../support/action.ts';
import { GITHUB_TOKEN } from '../support/github-step.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { INTEGRATION } from '../support/ids.ts';
import { runAction } from '../support/run-action.ts';

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  [emu, gh] = await Promise.all([startEmulator({ apiKey: 'local-key' }), startGitHubEmulator()]);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
  emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent' }]);
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

/** `npm run local -- test.env` with `lines` in test.env. Async: the emulators answer here. */
async function runLocal(lines: string[]): Promise<{ status: number | null; stdout: string }> {
  const directory = mkdtempSync(path.join(tmpdir(), 'local-token-'));
  try {
    writeFileSync(path.join(directory, 'test.env'), lines.join('\n'));
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'script/node24.mjs'), path.join(ROOT, 'script/local.ts'), 'test.env'],
      { cwd: ROOT, env: { ...process.env, INIT_CWD: directory }, timeout: 30_000 },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const status = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    return { status, stdout };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const file = (): string[] => [
  `INPUT_API-URL=${emu.url}`,
  'INPUT_API-KEY=local-key',
  'INPUT_NAME=local-agent',
  `INPUT_INTEGRATION-ID=${INTEGRATION}`,
  'INPUT_ENVIRONMENT=production',
  'GITHUB_REPOSITORY=acme/agent',
  // No 12 characters in a row in common with GITHUB_TOKEN, which expectNoSecret would take for it.
  'GITHUB_SHA=fedcba9876543210fedcba9876543210fedcba98',
  'GITHUB_REF=refs/heads/main',
  'GITHUB_EVENT_NAME=push',
  `GITHUB_API_URL=${gh.url}`,
];

describe('npm run local and the github-token default', () => {
  it('without GITHUB_TOKEN: an empty token, one notice, no request to GitHub', async () => {
    const run = await runLocal(file());
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).not.toContain('${{');
    expect(run.stdout).toContain(
      '::notice::github-token is empty: the GitHub deployment record is skipped.',
    );
    expect(gh.requests).toEqual([]);
  });

  it('with GITHUB_TOKEN in the file: the run records the deployment with that token', async () => {
    const run = await runLocal([...file(), `GITHUB_TOKEN=${GITHUB_TOKEN}`]);
    expect(run.status, run.stdout).toBe(0);
    // stdout holds stderr too (runLocal reads both into it).
    expectNoSecret([GITHUB_TOKEN, 'local-key'], { stdout: run.stdout, stderr: '' });
    expect(gh.deployments.map((record) => record.environment)).toEqual(['production']);
  });
});

describe('the default handed over unevaluated, as local-action does', () => {
  it('is not masked, not sent: the GitHub features are skipped with one notice', async () => {
    const run = await runAction(
      {
        'api-url': emu.url,
        'api-key': 'local-key',
        name: 'local-agent',
        'integration-id': INTEGRATION,
        environment: 'production',
        'github-token': '${{ github.token }}',
      },
      {
        env: { GITHUB_API_URL: gh.url },
        event: {
          name: 'push',
          ref: 'refs/heads/main',
          sha: 'c0ffee0123456789c0ffee0123456789c0ffee01',
        },
      },
    );
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/^::add-mask::local-key$/m);
    expect(run.stdout).not.toContain('${{');
    expect(run.stdout).toContain(
      '::notice::github-token is empty: the GitHub deployment record is skipped.',
    );
    expect(gh.requests).toEqual([]);
  });
});
