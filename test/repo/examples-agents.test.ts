/**
 * Every example of docs/several-agents.md works on its tenth push: its workflow's deploy job
 * over two pushes to main (the manifest read from the page, the step's next step printing what
 * `deployments` holds), and its preview job over two pushes to a pull request, through the
 * bundle as the runner runs it, against both emulators; and the retire of those previews that
 * docs/retire.md shows, once the pull request is merged.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import { runCli } from '../cli/run-cli.ts';
import {
  evaluated,
  jobStepUsing,
  startingWith,
  stepUsing,
  stepsOf,
  theBlock,
} from '../support/doc-examples.ts';
import { GITHUB_TOKEN, gitHubStep, pullRequestEvent, pushEvent } from '../support/github-step.ts';
import { INTEGRATION } from '../support/ids.ts';
import { WORKFLOW_REPOSITORY } from '../support/action.ts';
import { runAction, type ActionRun, type RunOptions } from '../support/run-action.ts';
import { QUICK } from '../support/quick.ts';

const PAGE = 'docs/several-agents.md';
const API_KEY = 'agents-examples-key-0123456789';
const GITHUB_REPO = 'https://github.com/acme/agent';
const PUSHES = [
  '1111111111111111111111111111111111111111',
  '2222222222222222222222222222222222222222',
];

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

const WORKFLOW = () => theBlock(PAGE, startingWith('# .github/workflows/agents.yml')).text;
const MANIFEST = () =>
  theBlock(
    PAGE,
    (block) => block.meta === 'manifest' && startingWith('# deploy/agents.yaml')(block),
  ).text;

const context = (): Record<string, string> => ({
  'vars.DEPLOY_API_URL': emu.url,
  'secrets.DEPLOY_API_KEY': API_KEY,
  'vars.CODEHOST_INTEGRATION_ID': INTEGRATION,
  'secrets.OPENAI_API_KEY': 'sk-agents-examples-openai',
  'secrets.TAVILY_API_KEY': 'tvly-agents-examples-0123',
  'github.event.number': '7',
  'github.head_ref': 'feature',
});

function runJob(job: string, event: NonNullable<RunOptions['event']>): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    evaluated(jobStepUsing(WORKFLOW(), job, 'OWNER/REPO@v1').with, context()),
    {},
    { event, files: { 'deploy/agents.yaml': MANIFEST() }, env: QUICK },
  );
  return runAction(given, options);
}

function pullRequestAt(sha: string): NonNullable<RunOptions['event']> {
  const event = pullRequestEvent();
  const payload = event.payload as { pull_request: { head: { sha: string } } };
  payload.pull_request.head.sha = sha;
  return event;
}

type Entries = Record<string, Record<string, unknown>>;

describe('the workflow of docs/several-agents.md', () => {
  it('deploys every agent of the manifest on each push to main, and its next step prints them', async () => {
    const [first = '', second = ''] = PUSHES;
    emu.setHead(GITHUB_REPO, 'main', first);
    const created = await runJob('deploy', pushEvent(first));
    expect(created.error).toBeUndefined();
    expect(JSON.parse(created.outputs.deployments ?? '{}')).toMatchObject({
      support: { name: 'support', created: true, live: true, 'commit-sha': first },
      research: { name: 'research-assistant', created: true, live: true, 'commit-sha': first },
    });

    emu.push(GITHUB_REPO, 'main', second);
    const pushed = await runJob('deploy', pushEvent(second));
    expect(pushed.error).toBeUndefined();
    const entries = JSON.parse(pushed.outputs.deployments ?? '{}') as Entries;
    expect(entries).toMatchObject({
      support: { created: false, live: true, 'commit-sha': second, 'drift-count': 0 },
      research: { created: false, live: true, 'commit-sha': second, 'drift-count': 0 },
    });
    expect(pushed.outputs.live).toBe('true');
    expect(emu.deployments.map((d) => d.name).sort()).toEqual(['research-assistant', 'support']);
    // One record for the manifest in production, a success.
    expect(entries.support?.['github-deployment-id']).not.toBe('');
    expect(entries.support?.['github-deployment-id']).toBe(
      entries.research?.['github-deployment-id'],
    );

    const next = stepsOf(WORKFLOW()).find((step) => step.run !== undefined);
    const printed = await runCli(['-c', next?.run ?? ''], {
      command: ['bash'],
      env: evaluated(next?.env, {
        'steps.deploy.outputs.deployments': pushed.outputs.deployments ?? '',
      }),
    });
    expect(printed.stdout).toBe('support READY live=true\nresearch READY live=true\n');
  });

  it('makes each push to a pull request live as one preview an agent, with one comment', async () => {
    const [first = '', second = ''] = PUSHES;
    gh.setPullRequestFiles(WORKFLOW_REPOSITORY, 7, ['libs/shared/prompts.py']);
    emu.setHead(GITHUB_REPO, 'feature', first);
    const created = await runJob('preview', pullRequestAt(first));
    expect(created.error).toBeUndefined();

    emu.push(GITHUB_REPO, 'feature', second);
    const pushed = await runJob('preview', pullRequestAt(second));
    expect(pushed.error).toBeUndefined();
    expect(JSON.parse(pushed.outputs.deployments ?? '{}')).toMatchObject({
      support: { name: 'support-pr-7', created: false, live: true, 'commit-sha': second },
      research: { name: 'research-assistant-pr-7', created: false, live: true },
    });
    expect(emu.deployments.map((d) => d.name).sort()).toEqual([
      'research-assistant-pr-7',
      'support-pr-7',
    ]);
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]?.body).toContain('support-pr-7');
    expect(gh.comments[0]?.body).toContain('research-assistant-pr-7');
    const environments = new Set(gh.deployments.map((record) => record.environment));
    expect(environments).toEqual(
      new Set(['preview-pr-7-support', 'preview-pr-7-research-assistant']),
    );
  });
});

describe('the paths of docs/several-agents.md, over two pushes to a pull request', () => {
  it('previews only the agent each push changes; an agent once changed stays changed', async () => {
    const [first = '', second = ''] = PUSHES;
    gh.setPullRequestFiles(WORKFLOW_REPOSITORY, 7, [
      'apps/support/graph.py',
      'apps/research/README.md',
    ]);
    emu.setHead(GITHUB_REPO, 'feature', first);
    const one = await runJob('preview', pullRequestAt(first));
    expect(one.error).toBeUndefined();
    expect(JSON.parse(one.outputs.deployments ?? '{}')).toEqual({
      support: expect.objectContaining({ name: 'support-pr-7', live: true }) as unknown,
      research: { name: 'research-assistant-pr-7', skipped: 'unchanged' },
    });
    expect(emu.deployments.map((d) => d.name)).toEqual(['support-pr-7']);
    expect(gh.deployments.map((record) => record.environment)).toEqual(['preview-pr-7-support']);
    expect(gh.comments[0]?.body).toContain('unchanged by this pull request: no preview');

    // The second push changes research too: the pull request's whole change holds both.
    gh.setPullRequestFiles(WORKFLOW_REPOSITORY, 7, [
      'apps/support/graph.py',
      'apps/research/README.md',
      'apps/research/tools.py',
    ]);
    emu.push(GITHUB_REPO, 'feature', second);
    const two = await runJob('preview', pullRequestAt(second));
    expect(two.error).toBeUndefined();
    expect(JSON.parse(two.outputs.deployments ?? '{}')).toMatchObject({
      support: { name: 'support-pr-7', created: false, live: true, 'commit-sha': second },
      research: { name: 'research-assistant-pr-7', created: true, live: true },
    });
    expect(two.outputs.live).toBe('true');
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]?.body).not.toContain('no preview');
  });
});

const RETIRES = [
  ['docs/retire.md', '# .github/workflows/retire-agents.yml'],
  [PAGE, '# .github/workflows/agents-retire.yml'],
] as const;

describe.each(RETIRES)('the retire of several agents in %s', (page, header) => {
  const RETIRE = () => theBlock(page, startingWith(header)).text;

  it('retires the previews of docs/several-agents.md: every environment inactive, the one comment rewritten', async () => {
    const [first = ''] = PUSHES;
    emu.setHead(GITHUB_REPO, 'feature', first);
    const previewed = await runJob('preview', pullRequestAt(first));
    expect(previewed.error).toBeUndefined();
    const preview = evaluated(jobStepUsing(WORKFLOW(), 'preview', 'OWNER/REPO@v1').with, context());

    const retireWith = evaluated(stepUsing(RETIRE(), 'OWNER/REPO/retire@v1').with, context());
    // The retire names what the preview's step named: its template and its environments.
    expect(retireWith.name).toBe(preview.name);
    expect(retireWith.environment).toBe(preview.environment);
    expect(retireWith.agents).toBe(preview.agents);
    const [given, options] = gitHubStep(
      gh,
      retireWith,
      {},
      {
        event: pullRequestEvent(undefined, undefined, 'merged'),
        files: { 'deploy/agents.yaml': MANIFEST() },
        action: 'retire/action.yml',
      },
    );
    const retired = await runAction(given, options);

    expect(retired.error).toBeUndefined();
    expect(retired.outputs.retired).toBe('2');
    const entries = JSON.parse(retired.outputs.deployments ?? '{}') as Entries;
    expect(Object.keys(entries)).toEqual(['support', 'research']);
    expect(entries.research).toMatchObject({ name: 'research-assistant-pr-7', retired: 1 });
    expect(gh.deployments.map((record) => gh.stateOf(record.id))).toEqual(['inactive', 'inactive']);
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]?.body).toContain('its previews are retired');

    const next = stepsOf(RETIRE()).find((step) => step.run !== undefined);
    const printed = await runCli(['-c', next?.run ?? ''], {
      command: ['bash'],
      env: evaluated(next?.env, {
        'steps.retire.outputs.deployments': retired.outputs.deployments ?? '',
      }),
    });
    const research = emu.deployments.find((d) => d.name === 'research-assistant-pr-7');
    expect(printed.stdout).toContain(
      page === PAGE
        ? 'research research-assistant-pr-7 retired=1'
        : `research ${research?.id ?? ''} https://console.example/o/`,
    );
  });
});

/** The action.yml a `uses:` of this repository names: `OWNER/REPO/plan@v1` is plan/action.yml. */
const actionFile = (uses: string): string => {
  const folder = /^OWNER\/REPO(?:\/([^@]+))?@/.exec(uses)?.[1];
  return folder === undefined ? 'action.yml' : `${folder}/action.yml`;
};

const jobStep = (workflow: string, job: string, action: string, event: RunOptions['event']) => {
  const [given, options] = gitHubStep(
    gh,
    evaluated(jobStepUsing(workflow, job, action).with, context()),
    {},
    {
      event,
      files: { 'deploy/agents.yaml': MANIFEST() },
      env: QUICK,
      action: actionFile(action),
    },
  );
  return runAction(given, options);
};

describe('the plan job of docs/several-agents.md', () => {
  it('after each push to main, plans nothing to change for any agent, in one comment', async () => {
    for (const sha of PUSHES) {
      if (sha === PUSHES[0]) emu.setHead(GITHUB_REPO, 'main', sha);
      else emu.push(GITHUB_REPO, 'main', sha);
      const deployed = await runJob('deploy', pushEvent(sha));
      expect(deployed.error).toBeUndefined();

      const plan = await jobStep(WORKFLOW(), 'plan', 'OWNER/REPO/plan@v1', pullRequestEvent());
      expect(plan.error).toBeUndefined();
      expect(plan.outputs).toMatchObject({ action: 'reuse', changes: '0', plan: '' });
      expect(JSON.parse(plan.outputs.plans ?? '{}')).toMatchObject({
        support: { name: 'support', action: 'reuse', changes: 0 },
        research: { name: 'research-assistant', action: 'reuse', changes: 0 },
      });
      const next = stepsOf(WORKFLOW()).find((step) => step.env?.PLANS !== undefined);
      const printed = await runCli(['-c', next?.run ?? ''], {
        command: ['bash'],
        env: evaluated(next?.env, { 'steps.plan.outputs.plans': plan.outputs.plans ?? '' }),
      });
      expect(printed.stdout).toBe('support reuse changes=0\nresearch reuse changes=0\n');
    }
    // One plan comment, updated in place by the second plan.
    expect(gh.comments).toHaveLength(1);
    // The plans wrote nothing to the service: its only writes are the first push's two creates.
    expect(emu.requests.filter((r) => r.method !== 'GET').length).toBe(2);
  });

  it('fails on a difference a merge would not apply, naming the agent', async () => {
    const [first = ''] = PUSHES;
    emu.setHead(GITHUB_REPO, 'main', first);
    expect((await runJob('deploy', pushEvent(first))).error).toBeUndefined();
    // Someone changed research's config path in the service, which the merge would not undo.
    const research = emu.deployments.find((d) => d.name === 'research-assistant');
    expect(research).toBeDefined();
    if (research !== undefined) {
      research.source_revision_config = {
        ...research.source_revision_config,
        agent_config_path: 'apps/research/old.json',
      };
    }

    const plan = await jobStep(WORKFLOW(), 'plan', 'OWNER/REPO/plan@v1', pullRequestEvent());
    expect(plan.exitCode).toBe(1);
    expect(plan.error).toContain('research');
    expect(plan.error).not.toContain('support:');
    expect(JSON.parse(plan.outputs.plans ?? '{}')).toMatchObject({
      support: { changes: 0 },
      research: { changes: 1 },
    });
  });
});

describe('the sweep of docs/several-agents.md', () => {
  const SWEEP = () => theBlock(PAGE, startingWith('# .github/workflows/agents-sweep.yml')).text;

  it("finds a closed pull request's previews of every agent, and retires their environments", async () => {
    const [first = ''] = PUSHES;
    emu.setHead(GITHUB_REPO, 'feature', first);
    expect((await runJob('preview', pullRequestAt(first))).error).toBeUndefined();
    emu.seedDeployment({ name: 'other-pr-7' });
    gh.seedPullRequest(WORKFLOW_REPOSITORY, 7, 'merged', '2026-11-02T10:00:00Z');

    const schedule = { name: 'schedule', ref: 'refs/heads/main', sha: first, payload: {} };
    const swept = await jobStep(SWEEP(), 'sweep', 'OWNER/REPO/sweep@v1', schedule);

    // on-orphans: fail keeps the job red while a closed pull request's preview runs.
    expect(swept.exitCode).toBe(1);
    const orphans = JSON.parse(swept.outputs.orphans ?? '[]') as Record<string, unknown>[];
    expect(orphans.map((orphan) => [orphan.agent, orphan.name]).sort()).toEqual([
      ['research', 'research-assistant-pr-7'],
      ['support', 'support-pr-7'],
    ]);
    expect(swept.outputs).toMatchObject({ 'orphan-count': '2', retired: '2' });
    expect(gh.deployments.map((record) => gh.stateOf(record.id))).toEqual(['inactive', 'inactive']);
  });
});
