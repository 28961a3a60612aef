/**
 * The GitLab pipeline of docs/several-agents.md, read from the page, over two pushes to the
 * default branch: its deploy job's line run by a shell with the variables GitLab sets (`npx`
 * running this checkout's dist/cli.js), its dotenv report read as GitLab reads it, then the
 * next job's script run with the report's variables, as `needs:` hands them over.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { runCli, type CliRun } from '../cli/run-cli.ts';
import { codeBlocks, packageOnPath, startingWith, theBlock } from '../support/doc-examples.ts';
import { readGitLabDotenv } from '../support/gitlab-dotenv.ts';
import { INTEGRATION } from '../support/ids.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { QUICK } from '../support/quick.ts';

const PAGE = 'docs/several-agents.md';
const API_KEY = 'agents-gitlab-key-0123456789';
const GITLAB_REPO = 'https://gitlab.com/acme/agent';
const SECRETS = { OPENAI_API_KEY: 'sk-agents-gitlab-openai', TAVILY_API_KEY: 'tvly-gitlab-0123' };
const PUSHES = [
  '1111111111111111111111111111111111111111',
  '2222222222222222222222222222222222222222',
];

let emu: Emulator;
let bin: string;

beforeAll(() => {
  bin = packageOnPath();
});
afterAll(() => rmSync(bin, { recursive: true, force: true }));

beforeEach(async () => {
  emu = await startEmulator({ apiKey: API_KEY, readyAfterPolls: 1, buildPolls: 1 });
  emu.seedRepos(INTEGRATION, [
    { owner: 'acme', name: 'agent', url: GITLAB_REPO, default_branch: 'main' },
  ]);
});
afterEach(() => emu.close());

/** The page's pipeline: each job's script, as GitLab joins a folded line. */
function pipeline(): Record<string, { script: string[]; needs?: string[] }> {
  const block = theBlock(
    PAGE,
    (candidate) => candidate.meta === 'gitlab-ci' && candidate.text.includes('--agents'),
  );
  return parse(block.text) as Record<string, { script: string[]; needs?: string[] }>;
}

const MANIFEST = () =>
  theBlock(
    PAGE,
    (block) => block.meta === 'manifest' && startingWith('# deploy/agents.yaml')(block),
  ).text;

/** GitLab's variables for a push of `sha` to `main`, the default branch. */
const push = (sha: string): Record<string, string> => ({
  CI: 'true',
  GITLAB_CI: 'true',
  CI_SERVER_URL: 'https://gitlab.com',
  CI_PROJECT_PATH: 'acme/agent',
  CI_PROJECT_URL: GITLAB_REPO,
  CI_PIPELINE_SOURCE: 'push',
  CI_DEFAULT_BRANCH: 'main',
  CI_COMMIT_BRANCH: 'main',
  CI_COMMIT_REF_NAME: 'main',
  CI_COMMIT_SHA: sha,
});

/** The deploy job's line in a checkout holding the manifest, with the CI/CD variables. */
function deployJob(sha: string): Promise<CliRun> {
  const folder = mkdtempSync(path.join(tmpdir(), 'agents-gitlab-job-'));
  return runCli(['-c', pipeline().deploy?.script[0] ?? 'false'], {
    command: ['bash'],
    cwd: folder,
    files: { 'deploy/agents.yaml': MANIFEST() },
    read: ['deploy.env'],
    env: {
      PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      DEPLOY_API_URL: emu.url,
      DEPLOY_API_KEY: API_KEY,
      INTEGRATION_ID: INTEGRATION,
      ...QUICK,
      ...SECRETS,
      ...push(sha),
    },
  }).finally(() => rmSync(folder, { recursive: true, force: true }));
}

/** The next job's script, each line by sh, with the report's variables (GitLab's `needs:`). */
function reportJob(variables: Record<string, string>): string {
  const job = pipeline().report;
  expect(job?.needs).toEqual(['deploy']);
  return (job?.script ?? [])
    .map((line) => {
      const run = spawnSync('sh', ['-c', line], {
        env: { PATH: process.env.PATH, ...variables },
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      return run.stdout;
    })
    .join('');
}

describe('the GitLab pipeline of docs/several-agents.md', () => {
  it('deploys every agent on each push, and the next job reads each one from the report', async () => {
    expect(codeBlocks(PAGE).filter((block) => block.meta === 'gitlab-ci')).toHaveLength(1);
    const [first = '', second = ''] = PUSHES;
    emu.setHead(GITLAB_REPO, 'main', first);
    for (const sha of [first, second]) {
      if (sha === second) emu.push(GITLAB_REPO, 'main', sha);
      const run = await deployJob(sha);
      expect(run.exitCode, run.stderr).toBe(0);
      const report = readGitLabDotenv(run.files['deploy.env'] ?? '');
      expect(report).toMatchObject({
        DEPLOYMENT_LIVE: 'true',
        DEPLOYMENT_AGENT_SUPPORT_STATUS: 'READY',
        DEPLOYMENT_AGENT_SUPPORT_LIVE: 'true',
        DEPLOYMENT_AGENT_RESEARCH_STATUS: 'READY',
        DEPLOYMENT_AGENT_RESEARCH_LIVE: 'true',
      });
      const byName = new Map(emu.deployments.map((d) => [d.name, d.id]));
      expect(reportJob(report)).toBe(
        [
          `support ${byName.get('support')} READY live=true`,
          `research ${byName.get('research-assistant')} READY live=true`,
          '',
        ].join('\n'),
      );
      expectNoSecret([...Object.values(SECRETS), API_KEY], run);
    }
    // Two deployments, created by the first push and reused by the second (--wait: each live on
    // the pushed commit).
    expect(emu.deployments.map((d) => [d.name, d.source_config.repo_url])).toEqual([
      ['support', GITLAB_REPO],
      ['research-assistant', GITLAB_REPO],
    ]);
  });
});
