/**
 * Hardening VII, what the run prints (ACTION-CONTRACT.md "Corrections (v1.6)"): the
 * health check's body excerpt is cut from the body as received; the values of the
 * check's query string are secrets; and a secret value the service writes into a
 * deployment's `status` or `custom_url` reaches no output, summary, comment, GitHub
 * status or `environment_url`. The bundles (dist/index.js, dist/cli.js) against the
 * service's emulator and GitHub's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator } from '../emulator/emulator.ts';
import { type GitHubEmulator } from '../emulator/github.ts';
import { runCli } from '../cli/run-cli.ts';
import { AGENT_REPO_URL, INTEGRATION, codehostStep } from '../support/fixtures.ts';
import { PR_HEAD, gitHubStep, pullRequestEvent } from '../support/github-step.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { startPullRequestWorld } from '../support/pull-request-world.ts';
import { printed, runAction, type ActionRun, KILL_AFTER_MS } from '../support/run-action.ts';
import { QUICK } from '../support/quick.ts';

const API_KEY = 'sk-service-key-print-0123456789';
const preview = { environment: 'preview-pr-7', 'pr-comment': 'true' };
/** The health check's query value: an agent's error page echoes it. */
const TOKEN = 'query-token-4f9a2c7e1b';
/** The step's secret. */
const STEP_SECRET = 'step-secret-value-8d3e61';
/** A secret the deployment holds (the service answers it in `secrets`). */
const HELD = 'held-secret-value-5b27c0';

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  ({ emu, gh } = await startPullRequestWorld(API_KEY, { addresses: 'manual' }));
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

interface Seed {
  customUrl?: string;
  status?: string;
  secrets?: { name: string; value: string }[];
}

/** The preview `name`, live on the pull request's head. */
function seedPreview(name: string, seed: Seed = {}): void {
  emu.seedDeployment({
    name,
    ...(seed.status === undefined ? {} : { status: seed.status }),
    ...(seed.secrets === undefined ? {} : { secrets: seed.secrets }),
    source_config: {
      integration_id: INTEGRATION,
      repo_url: AGENT_REPO_URL,
      build_on_push: true,
      ...(seed.customUrl === undefined ? {} : { custom_url: seed.customUrl }),
    },
    source_revision_config: {
      repo_ref: 'feature',
      agent_config_path: 'agent.json',
      repo_commit_sha: PR_HEAD,
    },
  });
}

function deploy(
  inputs: Record<string, string>,
  files: Record<string, string> = {},
): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    codehostStep(emu, { 'api-key': API_KEY, 'agent-config-path': 'agent.json', ...inputs }),
    preview,
    { event: pullRequestEvent(), env: QUICK, files, killAfterMs: KILL_AFTER_MS },
  );
  return runAction(given, options);
}

const comment = () => gh.comments.find((c) => c.user.login === 'github-actions[bot]')?.body ?? '';
const statuses = () => gh.deployments.flatMap((deployment) => deployment.statuses);
/** Everything the step printed or handed on: log, outputs, summary, comment, GitHub's statuses. */
const everything = (r: ActionRun) => [
  printed(r),
  r.outputFile,
  r.summary,
  comment(),
  JSON.stringify(gh.deployments),
];
const warnings = (r: ActionRun) => r.stdout.split('\n').filter((l) => l.startsWith('::warning'));

describe('what the health check prints (Corrections v1.6)', () => {
  it('the excerpt is the first 200 characters of the body as received, not of it collapsed', async () => {
    seedPreview('my-agent');
    emu.serveAddress('my-agent');
    // 20 characters, 300 spaces and newlines, then text far past the 200th character.
    const body = `agent is starting...${' \n'.repeat(150)}PAST-THE-CUT internal detail`;
    emu.scriptAddress('my-agent', [{ status: 503, times: Infinity, body }]);

    const r = await deploy({
      'wait-for-ready': 'true',
      'wait-timeout': '2',
      'health-check': '/ok',
    });

    expect(r.exitCode, printed(r)).toBe(1);
    expect(printed(r)).toContain('the answer begins: agent is starting...');
    for (const text of everything(r)) expect(text).not.toContain('PAST-THE-CUT');
  });

  it("an answer that echoes the check's query string shows *** in the log, summary, comment and status", async () => {
    seedPreview('my-agent');
    emu.serveAddress('my-agent');
    const body = `<h1>Bad gateway</h1> while serving GET /ok?token=${TOKEN}&probe=1`;
    emu.scriptAddress('my-agent', [{ status: 502, times: Infinity, body }]);

    const r = await deploy({
      'wait-for-ready': 'true',
      'wait-timeout': '2',
      'health-check': `/ok?token=${TOKEN}&probe=1`,
    });

    expect(r.exitCode, printed(r)).toBe(1);
    expect(emu.addressRequests.length).toBeGreaterThan(0);
    expect(printed(r)).toContain(
      'the answer begins: <h1>Bad gateway</h1> while serving GET /ok?token=***',
    );
    expect(comment()).toContain('token=***');
    expect(statuses().at(-1)?.description).toContain('token=***');
    expectNoSecret([TOKEN, API_KEY], r, gh);
  });

  it("the command's stderr shows *** for an echoed query value", async () => {
    emu.seedDeployment({
      name: 'agent',
      source: 'external_docker',
      source_revision_config: { image_uri: 'reg/agent:1', repo_commit_sha: null },
    } as never);
    emu.serveAddress('agent');
    const body = `error: GET /ok?token=${TOKEN} refused`;
    emu.scriptAddress('agent', [{ status: 500, times: Infinity, body }]);

    const run = await runCli(
      ['status', '--name', 'agent', '--health-check', `/ok?token=${TOKEN}`],
      {
        env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: API_KEY, ...QUICK },
        killAfterMs: KILL_AFTER_MS,
      },
    );

    expect(emu.addressRequests.length).toBeGreaterThan(0);
    expect(run.stderr).toContain('the answer begins: error: GET /ok?token=*** refused');
    expectNoSecret([TOKEN, API_KEY], run);
  });
});

describe('secret values the service writes into its own fields (Corrections v1.6)', () => {
  it('one deployment: a custom_url holding its own secret is not published; a status holding the step’s is redacted', async () => {
    seedPreview('my-agent', {
      customUrl: `https://my-agent.example/run?key=${HELD}`,
      status: `READY ${STEP_SECRET}`,
      secrets: [
        { name: 'TOKEN', value: STEP_SECRET },
        { name: 'HELD', value: HELD },
      ],
    });

    const r = await deploy({ secrets: `TOKEN=${STEP_SECRET}\nHELD=${HELD}` });

    expect(r.exitCode, printed(r)).toBe(0);
    expect(r.outputs.url).toBe('');
    expect(r.outputs.status).toBe('READY ***');
    const named = warnings(r).filter((line) => line.includes('custom_url'));
    expect(named).toHaveLength(1);
    expect(named[0]).toContain('holds a secret value: it is not published');
    expect(statuses().length).toBeGreaterThan(0);
    for (const status of statuses()) expect(status.environment_url ?? '').toBe('');
    expect(comment()).not.toContain('my-agent.example');
    expectNoSecret([HELD, STEP_SECRET, API_KEY], r, gh);
  });

  it('a manifest: the agent whose custom_url holds the step’s secret has no url; the other keeps its own', async () => {
    seedPreview('leaky', {
      customUrl: `https://leaky.example/?t=${STEP_SECRET}`,
      secrets: [{ name: 'TOKEN', value: STEP_SECRET }],
    });
    seedPreview('clean', {
      customUrl: 'https://clean.example/',
      secrets: [{ name: 'TOKEN', value: STEP_SECRET }],
    });
    const manifest =
      'agents:\n  leaky:\n    agent-config-path: agent.json\n  clean:\n    agent-config-path: agent.json\n';

    const r = await deploy(
      { name: '', agents: 'deploy/agents.yaml', secrets: `TOKEN=${STEP_SECRET}` },
      { 'deploy/agents.yaml': manifest },
    );

    expect(r.exitCode, printed(r)).toBe(0);
    const listed = JSON.parse(r.outputs.deployments ?? '{}') as Record<string, { url?: string }>;
    const urlOf = (key: string) => listed[key]?.url;
    expect(urlOf('leaky')).toBe('');
    expect(urlOf('clean')).toBe('https://clean.example/');
    const named = warnings(r).filter((line) => line.includes('custom_url'));
    expect(named).toHaveLength(1);
    expect(named[0]).toContain("custom_url of 'leaky' holds a secret value");
    expect(comment()).toContain('https://clean.example/');
    expect(comment()).not.toContain('leaky.example');
    const urls = statuses().map((status) => status.environment_url);
    expect(urls).not.toContainEqual(expect.stringContaining('leaky.example'));
    expectNoSecret([STEP_SECRET, API_KEY], r, gh);
  });
});
