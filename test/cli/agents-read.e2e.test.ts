/**
 * `plan --agents` and `status --agents` through dist/cli.js, as a CI job
 * runs them, against the service emulator over real HTTP: the plan's
 * `--json` keyed by agent (piped: nothing but the object on stdout, each
 * agent's lines on stderr after its key), and status's `--dotenv` read as
 * GitLab reads its report.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { readGitLabDotenv } from '../support/gitlab-dotenv.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { runCli } from './run-cli.ts';

const KEY = 'cli-agents-read-key-0123456789';
const MANIFEST = [
  'agents:',
  '  support:',
  '    image-uri: reg/support:2',
  '  research:',
  '    name: research-assistant',
  '    image-uri: reg/research:2',
].join('\n');

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
});
afterEach(async () => {
  await emu.close();
});

function seed(name: string, image: string) {
  return emu.seedDeployment({
    name,
    source: 'external_docker',
    source_revision_config: { image_uri: image, repo_commit_sha: null },
  } as never);
}

const env = () => ({ DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY });

describe('deploy-agent plan --agents --json (the bundle)', () => {
  it('prints one object: the manifest action, the total of changes, plans keyed by agent', async () => {
    const research = seed('research-assistant-pr-3', 'reg/research:1');

    const run = await runCli(
      [
        'plan',
        '--agents',
        'agents.yaml',
        '--name',
        '{agent}-pr-3',
        '--source',
        'external_docker',
      ].concat(['--json']),
      { env: env(), files: { 'agents.yaml': MANIFEST } },
    );

    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({
      action: 'mixed',
      changes: '1',
      plans: {
        support: { name: 'support-pr-3', action: 'create', changes: 0, 'deployment-id': '' },
        research: {
          name: 'research-assistant-pr-3',
          action: 'reuse',
          changes: 1,
          'deployment-id': research.id,
        },
      },
    });
    expect(Object.keys(run.json?.plans ?? {})).toEqual(['support', 'research']);
    expect(run.stderr).toContain("[support] plan: 'support-pr-3' does not exist");
    // Piped: no live line, no colour.
    expect(run.stderr).not.toContain('\u001b[');
    expect([...new Set(emu.requests.map((request) => request.method))]).toEqual(['GET']);
    expectNoSecret([KEY], run);
  });
});

describe('deploy-agent status --agents --dotenv (the bundle)', () => {
  it("writes DEPLOYMENT_LIVE, then each agent's id, status and live, as GitLab reads them", async () => {
    const support = seed('support', 'reg/support:2');
    const research = seed('research-assistant', 'reg/research:2');

    const run = await runCli(['status', '--dotenv', 'status.env'], {
      env: { ...env(), DEPLOY_AGENTS: 'agents.yaml' },
      files: { 'agents.yaml': MANIFEST },
      read: ['status.env'],
    });

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe('');
    expect(readGitLabDotenv(run.files['status.env'] ?? '')).toEqual({
      DEPLOYMENT_LIVE: 'true',
      DEPLOYMENT_AGENT_SUPPORT_ID: support.id,
      DEPLOYMENT_AGENT_RESEARCH_ID: research.id,
      DEPLOYMENT_AGENT_SUPPORT_STATUS: 'READY',
      DEPLOYMENT_AGENT_SUPPORT_LIVE: 'true',
      DEPLOYMENT_AGENT_RESEARCH_STATUS: 'READY',
      DEPLOYMENT_AGENT_RESEARCH_LIVE: 'true',
    });
    expect(run.stderr).toContain(`[research] deployment 'research-assistant': ${research.id}`);
  });
});
