/**
 * What dist/cli.js hands to GitLab with --dotenv when the service answers
 * with hostile text: the file read as GitLab reads its dotenv report
 * (test/support/gitlab-dotenv.ts) stores every variable exactly as --json
 * has it and expands nothing; a value that GitLab would expand or read
 * differently is left out, with one warning naming it and not its value.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { INTEGRATION } from '../support/fixtures.ts';
import { expandsInGitLab, readGitLabDotenv } from '../support/gitlab-dotenv.ts';
import { runCli, type CliRun } from './run-cli.ts';

const KEY = 'cli-api-key-0123456789';
const DOCKER = ['--name', 'agent', '--source', 'external_docker', '--image-uri', 'reg/agent:1'];
const OUTPUTS = ['--json', '--dotenv', 'deploy.env'];

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
  emu.seedRepos(INTEGRATION, [{ name: 'agent' }]);
});
afterEach(async () => {
  await emu.close();
});

function seedAgent(customUrl: string): void {
  emu.seedDeployment({
    name: 'agent',
    source: 'external_docker',
    source_config: { custom_url: customUrl },
    source_revision_config: { image_uri: 'reg/agent:1', repo_commit_sha: null },
  } as never);
}

async function run(command: 'status' | 'deploy'): Promise<CliRun> {
  const args = command === 'status' ? ['status', '--name', 'agent'] : ['deploy', ...DOCKER];
  return runCli([...args, ...OUTPUTS], {
    env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY },
    read: ['deploy.env'],
  });
}

/** The variable each --json output becomes in the dotenv report. */
const VARIABLES: Record<string, string> = {
  'deployment-id': 'DEPLOYMENT_ID',
  status: 'DEPLOYMENT_STATUS',
  created: 'DEPLOYMENT_CREATED',
  live: 'DEPLOYMENT_LIVE',
  'commit-sha': 'DEPLOYMENT_COMMIT_SHA',
  'latest-revision-id': 'DEPLOYMENT_LATEST_REVISION_ID',
  'active-revision-id': 'DEPLOYMENT_ACTIVE_REVISION_ID',
  'repo-url': 'DEPLOYMENT_REPO_URL',
  'repo-ref': 'DEPLOYMENT_REPO_REF',
  url: 'DEPLOYMENT_URL',
  'dashboard-url': 'DEPLOYMENT_DASHBOARD_URL',
};

/** GitLab stores every variable exactly as --json has it, and expands none of them. */
function expectGitLabReadsJson(result: CliRun): Record<string, string> {
  const stored = readGitLabDotenv(result.files['deploy.env'] ?? '');
  const json = result.json ?? {};
  for (const [variable, value] of Object.entries(stored)) {
    const output = Object.keys(VARIABLES).find((name) => VARIABLES[name] === variable);
    expect(output, variable).toBeDefined();
    expect(value, variable).toBe(String(json[output ?? '']));
    expect(expandsInGitLab(value), variable).toBe(false);
  }
  return stored;
}

function warnings(result: CliRun, variable: string): string[] {
  return result.stderr.split('\n').filter((line) => line.includes(variable));
}

describe('--dotenv with hostile answers from the service', () => {
  it.each([
    ['a $ (GitLab would expand the job token)', 'https://x.example/?t=$CI_JOB_TOKEN', /expand/],
    ['${...}', 'https://x.example/${CI_JOB_TOKEN}/', /expand/],
  ])(
    'leaves out a custom_url with %s, warns once, and --json still has it',
    async (_what, url, why) => {
      seedAgent(url);

      const result = await run('status');

      expect(result.exitCode).toBe(0);
      expect(result.json?.url).toBe(url);
      const stored = expectGitLabReadsJson(result);
      expect(stored).not.toHaveProperty('DEPLOYMENT_URL');
      expect(stored).toMatchObject({ DEPLOYMENT_STATUS: 'READY', DEPLOYMENT_LIVE: 'true' });
      const lines = warnings(result, 'DEPLOYMENT_URL');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^warning: DEPLOYMENT_URL is left out of --dotenv: /);
      expect(lines[0]).toMatch(why);
      expect(result.stderr).not.toContain('x.example');
    },
  );

  // A custom_url is an address before it is a variable (src/common/address.ts): spaces and
  // line breaks are read as an address parser reads them, and what is no address is dropped.
  // The dotenv rule for such values is unit-tested in dotenv.test.ts.
  it.each([
    ['a space', 'https://x.example/a b', 'https://x.example/a%20b'],
    ['a newline', 'https://x.example/\nCI_JOB_TOKEN=x', 'https://x.example/CI_JOB_TOKEN=x'],
    ['quotes around it', '"https://x.example/"', ''],
  ])(
    'a custom_url with %s reaches the file only as the address it is',
    async (_what, url, published) => {
      seedAgent(url);

      const result = await run('status');

      expect(result.exitCode).toBe(0);
      expect(result.json?.url).toBe(published);
      const stored = expectGitLabReadsJson(result);
      if (published === '') expect(stored).not.toHaveProperty('DEPLOYMENT_URL');
      else expect(stored.DEPLOYMENT_URL).toBe(published);
      // No line of its own: the break was dropped, so no variable was smuggled in.
      expect(stored).not.toHaveProperty('CI_JOB_TOKEN');
    },
  );

  it('leaves out a $ in the answer to deploy too', async () => {
    seedAgent('https://x.example/?t=$CI_JOB_TOKEN');

    const result = await run('deploy');

    expect(result.exitCode).toBe(0);
    expect(result.json?.url).toBe('https://x.example/?t=$CI_JOB_TOKEN');
    expect(expectGitLabReadsJson(result)).not.toHaveProperty('DEPLOYMENT_URL');
    expect(warnings(result, 'DEPLOYMENT_URL')).toHaveLength(1);
  });

  it('keeps a value with # inside: GitLab refuses only a line that starts with one', async () => {
    seedAgent('https://x.example/app#ready');

    const result = await run('status');

    expect(result.exitCode).toBe(0);
    expect(expectGitLabReadsJson(result)).toMatchObject({
      DEPLOYMENT_URL: 'https://x.example/app#ready',
    });
    expect(result.stderr).not.toContain('left out of --dotenv');
  });
});

describe('a --dotenv file that cannot be written', () => {
  /** The run's folder holds `taken/` (a directory) and no `missing/`. */
  const FILES = { 'taken/keep': '' };

  it.each([
    ['the path is a directory', 'taken', /illegal operation on a directory \(EISDIR\)/],
    ['its folder does not exist', 'missing/deploy.env', /no such file or directory \(ENOENT\)/],
  ])(
    '%s: exit 1, and the error says why in --json, the result event and stderr',
    async (_, file, why) => {
      seedAgent('https://x.example/app');
      const env = { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY };
      const args = ['status', '--name', 'agent', '--dotenv', file];

      const json = await runCli([...args, '--json'], { env, files: FILES });
      const events = await runCli([...args, '--events'], { env, files: FILES });

      const result = JSON.parse(events.stdout.trimEnd().split('\n').at(-1) ?? '') as Record<
        string,
        unknown
      >;
      expect(result).toMatchObject({ event: 'result', status: 'failed', exit_code: 1 });
      for (const error of [
        json.json?.error,
        result.error,
        (result.outputs as { error?: unknown }).error,
      ]) {
        expect(error).toEqual(expect.stringContaining(`--dotenv file ${file}`));
        expect(error).toMatch(why);
        expect(error).not.toMatch(/\n\s+at /);
      }
      expect(json.json).toMatchObject({ status: 'READY', url: 'https://x.example/app' });
      for (const run of [json, events]) {
        expect(run.exitCode).toBe(1);
        expect(run.stderr).toMatch(
          new RegExp(`error: could not write the --dotenv file ${file}: .*${why.source}`),
        );
        expect(run.stderr).not.toMatch(/\n\s+at /);
      }
    },
  );
});
