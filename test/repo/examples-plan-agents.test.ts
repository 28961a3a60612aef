/**
 * The manifest example of docs/plan.md works: it plans exactly the deploy job of
 * docs/several-agents.md (the same manifest, the same inputs), and after that job's deploy on
 * main, the plan of a pull request finds every agent with nothing to change, so `on-change:
 * fail` lets the merge through; its next step prints `plans`; one comment for the manifest.
 * Through the bundles as the runner runs them, against both emulators.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import { runCli } from '../cli/run-cli.ts';
import { actionYml } from '../support/action.ts';
import {
  evaluated,
  jobStepUsing,
  startingWith,
  stepsOf,
  stepUsing,
  theBlock,
} from '../support/doc-examples.ts';
import { GITHUB_TOKEN, gitHubStep, pullRequestEvent, pushEvent } from '../support/github-step.ts';
import { INTEGRATION } from '../support/ids.ts';
import { runAction, type ActionRun, type RunOptions } from '../support/run-action.ts';
import { QUICK } from '../support/quick.ts';

const API_KEY = 'plan-agents-examples-key-0123456789';
const GITHUB_REPO = 'https://github.com/acme/agent';
const HEAD = '1111111111111111111111111111111111111111';

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  [emu, gh] = await Promise.all([
    startEmulator({ apiKey: API_KEY, readyAfterPolls: 1, buildPolls: 1 }),
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

const AGENTS = () =>
  theBlock('docs/several-agents.md', startingWith('# .github/workflows/agents.yml')).text;
const MANIFEST = () =>
  theBlock(
    'docs/several-agents.md',
    (block) => block.meta === 'manifest' && startingWith('# deploy/agents.yaml')(block),
  ).text;
const PLAN = () =>
  theBlock('docs/plan.md', startingWith('# .github/workflows/plan-agents.yml')).text;

const context = (): Record<string, string> => ({
  'vars.DEPLOY_API_URL': emu.url,
  'secrets.DEPLOY_API_KEY': API_KEY,
  'vars.CODEHOST_INTEGRATION_ID': INTEGRATION,
  'secrets.OPENAI_API_KEY': 'sk-plan-agents-examples-openai',
  'secrets.TAVILY_API_KEY': 'tvly-plan-agents-examples-0123',
  'github.event.number': '7',
});

function runStep(
  step: ReturnType<typeof stepUsing>,
  event: NonNullable<RunOptions['event']>,
  action?: string,
): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    evaluated(step.with, context()),
    {},
    {
      event,
      files: { 'deploy/agents.yaml': MANIFEST() },
      env: QUICK,
      ...(action === undefined ? {} : { action }),
    },
  );
  return runAction(given, options);
}

describe('the manifest plan of docs/plan.md', () => {
  it('plans exactly the deploy job of docs/several-agents.md', () => {
    const deploy = jobStepUsing(AGENTS(), 'deploy', 'OWNER/REPO@v1').with ?? {};
    const plan = stepUsing(PLAN(), 'OWNER/REPO/plan@v1').with ?? {};
    const shared = Object.keys(actionYml('plan/action.yml').inputs).filter(
      (name) => name in actionYml().inputs && name !== 'github-token' && name !== 'pr-comment',
    );
    const pick = (values: Record<string, unknown>) =>
      Object.fromEntries(shared.map((name) => [name, values[name]]));
    expect(pick(plan)).toEqual(pick(deploy));
    expect(plan.agents).toBe('deploy/agents.yaml');
  });

  it('after the deploy on main, finds nothing to change for any agent; one comment', async () => {
    emu.setHead(GITHUB_REPO, 'main', HEAD);
    const deployed = await runStep(
      jobStepUsing(AGENTS(), 'deploy', 'OWNER/REPO@v1'),
      pushEvent(HEAD),
    );
    expect(deployed.error).toBeUndefined();

    const plan = await runStep(
      stepUsing(PLAN(), 'OWNER/REPO/plan@v1'),
      pullRequestEvent(),
      'plan/action.yml',
    );

    expect(plan.error).toBeUndefined();
    expect(plan.exitCode).toBe(0);
    expect(plan.outputs).toMatchObject({ action: 'reuse', changes: '0' });
    expect(JSON.parse(plan.outputs.plans ?? '{}')).toMatchObject({
      support: { name: 'support', action: 'reuse', changes: 0 },
      research: { name: 'research-assistant', action: 'reuse', changes: 0 },
    });
    expect(gh.comments).toHaveLength(1);

    const next = stepsOf(PLAN()).find((step) => step.run !== undefined);
    const printed = await runCli(['-c', next?.run ?? ''], {
      command: ['bash'],
      env: evaluated(next?.env, { 'steps.plan.outputs.plans': plan.outputs.plans ?? '' }),
    });
    expect(printed.stdout).toBe('support reuse changes=0\nresearch reuse changes=0\n');
  });
});
