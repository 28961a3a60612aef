/**
 * End-to-end, Hardening VII's names (issue 55, items 8 and 9) through the bundles
 * (dist/index.js, dist/cli.js) against the emulators: `{agent}` and `{url}` filled as
 * text (`$&` and `$'` in an agent's name or a service's `custom_url` are characters),
 * `{agent}` at most once in an environment, and a manifest's every problem reported at
 * once before any request, `__proto__` a bad key and `constructor` an ordinary one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { type GitHubEmulator } from '../emulator/github.ts';
import { INTEGRATION } from '../support/fixtures.ts';
import { gitHubStep, pullRequestEvent, type GitHubInputs } from '../support/github-step.ts';
import { existing, healthStep, startHealthEmulator } from '../support/health-world.ts';
import { startPullRequestWorld } from '../support/pull-request-world.ts';
import { printed, runAction, type ActionRun } from '../support/run-action.ts';
import { runCli } from '../cli/run-cli.ts';

const API_KEY = 'sk-h7-names-0123456789abcdef';

/** Every problem the manifest holds, one an agent's key or field. */
const BAD = [
  'agents:',
  '  Research_Bot: {}',
  '  -lead: {}',
  `  ${'a'.repeat(41)}: {}`,
  '  research:',
  '    image_url: reg/research:1',
  '    source: ftp',
  '    integration-id: not-a-uuid',
  '    commit: abc',
  '    config: deploy/missing.json',
  '',
].join('\n');

/** The paths the step names for BAD, each once. */
const BAD_PATHS = [
  'agents.Research_Bot',
  'agents["-lead"]',
  `agents.${'a'.repeat(41)}`,
  'agents.research.image_url',
  'agents.research.source',
  'agents.research.config',
  'agents.research.integration-id',
  'agents.research.commit',
];

let emu: Emulator;
let gh: GitHubEmulator;

describe('the deploy step with a manifest (dist/index.js)', () => {
  beforeEach(async () => {
    ({ emu, gh } = await startPullRequestWorld(API_KEY));
  });

  afterEach(async () => {
    await Promise.all([emu.close(), gh.close()]);
  });

  /** The deploy step with `manifest` on pull request 7. */
  function deploy(
    manifest: string,
    github: GitHubInputs = {},
    inputs: Record<string, string> = {},
  ): Promise<ActionRun> {
    const [given, options] = gitHubStep(
      gh,
      {
        'api-url': emu.url,
        'api-key': API_KEY,
        'integration-id': INTEGRATION,
        agents: 'deploy/agents.yaml',
        ...inputs,
      },
      github,
      { event: pullRequestEvent(), files: { 'deploy/agents.yaml': manifest } },
    );
    return runAction(given, options);
  }

  it("fills {agent} with a name as text: $& and $' are characters of the environment", async () => {
    const manifest = "agents:\n  one:\n    name: x$&y\n  two:\n    name: p$'q\n";

    const run = await deploy(
      manifest,
      { environment: 'preview-{agent}' },
      { name: '{agent}-pr-7' },
    );

    expect(run.exitCode, printed(run)).toBe(0);
    expect(emu.deployments.map((d) => d.name)).toEqual(['x$&y-pr-7', "p$'q-pr-7"]);
    expect(gh.deployments.map((record) => record.environment)).toEqual([
      'preview-x$&y',
      "preview-p$'q",
    ]);
  });

  it('reports every problem of every agent at once, before any request', async () => {
    const run = await deploy(BAD);

    expect(run.exitCode).toBe(1);
    const named = BAD_PATHS.filter((path) => run.error?.includes(`'${path}'`));
    expect(named).toEqual(BAD_PATHS);
    expect(emu.requests).toEqual([]);
    expect(gh.requests).toEqual([]);
  });

  it('names a key __proto__ at either level before any request; constructor and prototype are ordinary', async () => {
    const manifest = 'agents:\n  __proto__:\n    name: hidden\n  support:\n    __proto__: {}\n';

    const run = await deploy(manifest);

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/'agents\.__proto__': a key must be lower-case letters/);
    expect(run.error).toContain("'agents.support.__proto__': unknown key");
    expect(emu.requests).toEqual([]);
    expect(gh.requests).toEqual([]);

    // constructor and prototype are keys like any other.
    const ordinary = await deploy('agents:\n  constructor: {}\n  prototype: {}\n');

    expect(ordinary.exitCode, printed(ordinary)).toBe(0);
    const deployments = JSON.parse(ordinary.outputs.deployments ?? '{}') as Record<string, unknown>;
    expect(Object.keys(deployments)).toEqual(['constructor', 'prototype']);
    expect(emu.deployments.map((d) => d.name)).toEqual(['constructor', 'prototype']);
  });

  it("refuses {agent} twice in an environment, the step's or an entry's, before any request", async () => {
    const step = await deploy('agents:\n  support: {}\n', {
      environment: 'preview-{agent}-{agent}',
    });
    expect(step.exitCode).toBe(1);
    expect(step.error).toMatch(/'environment': holds \{agent\} 2 times/);

    const entry = await deploy('agents:\n  support:\n    environment: preview-{agent}-{agent}\n');
    expect(entry.exitCode).toBe(1);
    expect(entry.error).toMatch(/'agents\.support\.environment': holds \{agent\} 2 times/);
    expect(emu.requests).toEqual([]);
    expect(gh.requests).toEqual([]);
  });
});

describe('the health check at {url} (dist/index.js)', () => {
  let service: Emulator;

  beforeEach(async () => {
    service = await startHealthEmulator();
  });

  afterEach(async () => {
    await service.close();
  });

  it("fills {url} with the service's custom_url as text: $& is a character of the path", async () => {
    service.seedDeployment({ name: 'probe' });
    const origin = new URL(service.addressOf('probe')).origin;
    existing(service, `${origin}/a$&b`);

    await healthStep(service, { 'health-check': '{url}/ok', 'wait-timeout': '2' });

    const paths = [...new Set(service.addressRequests.map((request) => request.path))];
    expect(paths).toEqual(['/a$&b/ok']);
  });
});

describe('deploy-agent deploy --agents (dist/cli.js)', () => {
  let service: Emulator;

  beforeEach(async () => {
    service = await startEmulator({ apiKey: API_KEY });
  });

  afterEach(async () => {
    await service.close();
  });

  it('reports every problem of every agent at once, before any request', async () => {
    const run = await runCli(['deploy', '--agents', 'agents.yaml'], {
      env: { DEPLOY_API_URL: service.url, DEPLOY_API_KEY: API_KEY },
      files: { 'agents.yaml': BAD },
    });

    expect(run.exitCode).not.toBe(0);
    const named = BAD_PATHS.filter((path) => run.stderr.includes(path));
    expect(named).toEqual(BAD_PATHS);
    expect(service.requests).toEqual([]);
  });

  it('names a key __proto__ in plan --agents, before any request', async () => {
    const run = await runCli(['plan', '--agents', 'agents.yaml'], {
      env: { DEPLOY_API_URL: service.url, DEPLOY_API_KEY: API_KEY },
      files: { 'agents.yaml': 'agents:\n  __proto__: {}\n  support: {}\n' },
    });

    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/agents\.__proto__.*a key must be lower-case letters/);
    expect(service.requests).toEqual([]);
  });
});
