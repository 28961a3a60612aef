/**
 * The health check's examples (ACTION-CONTRACT.md behaviour 31), read from the documentation
 * and run end to end against the emulators, the deployments' own addresses served
 * (`startEmulator({ addresses: true })`): the workflow of docs/how-it-works.md, "Live means
 * answering", over two pushes, its step through the bundle as the runner runs it, each push's
 * revision answering `503` to its first checks before its `/ok` answers; the same workflow with
 * a key the agent server refuses; and the command line of docs/command.md through a shell.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import { runCli, type CliRun } from '../cli/run-cli.ts';
import {
  configFile,
  evaluated,
  packageOnPath,
  shellLines,
  startingWith,
  stepUsing,
  stepsOf,
  theBlock,
} from '../support/doc-examples.ts';
import { GITHUB_TOKEN, gitHubStep, pushEvent } from '../support/github-step.ts';
import { INTEGRATION } from '../support/ids.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { runAction, type ActionRun, KILL_AFTER_MS } from '../support/run-action.ts';
import { QUICK } from '../support/quick.ts';

const API_KEY = 'health-examples-service-key-0123';
const AGENT_API_KEY = 'health-examples-agent-key-4567';
const GITHUB_REPO = 'https://github.com/acme/agent';
const PUSHES = [
  '1111111111111111111111111111111111111111',
  '2222222222222222222222222222222222222222',
];
/** Requests each revision's /ok answers 503 (starting) once it is live, before its 200. */
const STARTING_REQUESTS = 2;

let emu: Emulator;
let gh: GitHubEmulator;
let bin: string;

beforeAll(() => {
  bin = packageOnPath();
});
afterAll(() => {
  rmSync(bin, { recursive: true, force: true });
});

beforeEach(async () => {
  [emu, gh] = await Promise.all([
    startEmulator({
      apiKey: API_KEY,
      readyAfterPolls: 1,
      buildPolls: 1,
      addresses: true,
      // The agent server asks for its own key, and starts slowly after each revision.
      addressBehaviour: {
        requireHeader: { name: 'X-Api-Key', value: AGENT_API_KEY },
        slowStartRequests: STARTING_REQUESTS,
      },
    }),
    startGitHubEmulator(),
  ]);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
  emu.seedRepos(INTEGRATION, [
    { owner: 'acme', name: 'agent', url: GITHUB_REPO, default_branch: 'main' },
  ]);
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

const PAGE = 'docs/how-it-works.md';
const WORKFLOW = () =>
  theBlock(PAGE, startingWith('# .github/workflows/deploy.yml, live means answering')).text;

const context = (agentKey = AGENT_API_KEY): Record<string, string> => ({
  'vars.DEPLOY_API_URL': emu.url,
  'secrets.DEPLOY_API_KEY': API_KEY,
  'vars.CODEHOST_INTEGRATION_ID': INTEGRATION,
  'secrets.AGENT_API_KEY': agentKey,
});

function deploy(sha: string, agentKey?: string): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    evaluated(stepUsing(WORKFLOW(), 'OWNER/REPO@v1').with, context(agentKey)),
    {},
    {
      event: pushEvent(sha),
      files: configFile('README.md', 'deploy/agent.yaml'),
      env: QUICK,
      killAfterMs: KILL_AFTER_MS,
    },
  );
  return runAction(given, options);
}

/** The statuses the deployments' addresses answered since request `from`. */
const answered = (from: number) => emu.addressRequests.slice(from).map((r) => r.status);

describe('the health check of docs/how-it-works.md', () => {
  it('waits on each push until the agent answers its /ok with its own key, then hands that on', async () => {
    const [first = '', second = ''] = PUSHES;
    emu.setHead(GITHUB_REPO, 'main', first);
    let seen = 0;
    for (const [index, sha] of [first, second].entries()) {
      if (index > 0) emu.push(GITHUB_REPO, 'main', sha);
      const run = await deploy(sha);
      expect(run.error).toBeUndefined();
      expect(run.exitCode).toBe(0);
      expect(run.outputs).toMatchObject({
        live: 'true',
        'commit-sha': sha,
        healthy: 'true',
        'health-status': '200',
      });
      // The revision was READY and active while its agent still started: the step waited.
      expect(answered(seen)).toEqual([...Array<number>(STARTING_REQUESTS).fill(503), 200]);
      expect(run.stdout).toContain(': answers 200');
      seen = emu.addressRequests.length;

      if (index === 0) continue;
      const next = stepsOf(WORKFLOW()).find((step) => step.run !== undefined);
      const outputs = Object.fromEntries(
        Object.entries(run.outputs).map(([name, value]) => [`steps.deploy.outputs.${name}`, value]),
      );
      const printed = await runCli(['-c', next?.run ?? ''], {
        command: ['bash'],
        env: evaluated(next?.env, outputs),
      });
      expect(printed.stdout).toBe('healthy=true, HTTP 200\n');
    }
    expect(emu.deployments).toHaveLength(1);
    // The agent server's key, and never the service's, went to the deployment's address.
    const keys = new Set(emu.addressRequests.map((request) => request.headers['x-api-key']));
    expect([...keys]).toEqual([AGENT_API_KEY]);
  });

  it('a key the agent server refuses ends the wait at once, naming health-check-headers', async () => {
    const [first = ''] = PUSHES;
    emu.setHead(GITHUB_REPO, 'main', first);
    const run = await deploy(first, 'not-the-agent-key');
    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/answered 401 3 times in a row/);
    expect(run.error).toContain('health-check-headers');
    expect(run.outputs).toMatchObject({ live: 'false', healthy: 'false', 'health-status': '401' });
    expect(answered(0)).toEqual([401, 401, 401]);
    // The key is masked (its one ::add-mask:: line) and printed nowhere else.
    expect(run.stdout.split('\n')).toContain('::add-mask::not-the-agent-key');
    expectNoSecret(['not-the-agent-key', API_KEY], run, gh);
  });
});

/** A documented command line run by a shell in a folder of its own. */
function runLine(line: string, env: Record<string, string>): Promise<CliRun> {
  const folder = mkdtempSync(path.join(tmpdir(), 'doc-examples-job-'));
  return runCli(['-c', line], {
    command: ['bash'],
    cwd: folder,
    env: {
      PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      DEPLOY_API_URL: emu.url,
      DEPLOY_API_KEY: API_KEY,
      ...QUICK,
      ...env,
    },
  }).finally(() => rmSync(folder, { recursive: true, force: true }));
}

describe('the health check of docs/command.md', () => {
  it('status --health-check waits until the agent server answers with the key from the variable', async () => {
    const [line, ...rest] = shellLines('docs/command.md', 'X_API_KEY=');
    expect(rest).toEqual([]);
    emu.seedDeployment({ name: 'my-agent' });

    const run = await runLine(line ?? '', { AGENT_API_KEY });
    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({ live: true, healthy: true, 'health-status': '200' });
    expect(answered(0)).toEqual([...Array<number>(STARTING_REQUESTS).fill(503), 200]);
    expect(emu.addressRequests.map((request) => request.headers['x-api-key'])).not.toContain(
      API_KEY,
    );
    expectNoSecret([AGENT_API_KEY, API_KEY], run);

    // Without the agent server's key in the variable, three 401s end the wait.
    const refused = await runLine(line ?? '', { AGENT_API_KEY: 'not-the-agent-key' });
    expect(refused.exitCode).toBe(1);
    expect(refused.json).toMatchObject({ live: false, healthy: false, 'health-status': '401' });
    expect(refused.stderr).toContain('--health-check-header (or DEPLOY_HEALTH_CHECK_HEADERS)');
    expectNoSecret(['not-the-agent-key', API_KEY], refused);
  });
});
