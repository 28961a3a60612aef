/**
 * Behaviour 24: every example of the documentation works on its tenth push, not only its
 * first. Each example is read from the documentation itself (README.md, docs/plan.md,
 * docs/github.md, docs/how-it-works.md, docs/retire.md, docs/command.md) and run end to end against the emulators
 * over at least two pushes: the workflow steps through the bundles as the runner runs them,
 * with their `${{ … }}` filled in; the GitLab, Jenkins and CircleCI lines through a shell, with
 * the variables that CI sets, and `npx --yes github:OWNER/REPO#v1` running dist/cli.js.
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
import { actionYml } from '../support/action.ts';
import {
  circleCiRun,
  configFile,
  evaluate,
  evaluated,
  gitLabScript,
  jenkinsSh,
  packageOnPath,
  shellLines,
  startingWith,
  stepUsing,
  stepsOf,
  theBlock,
  words,
} from '../support/doc-examples.ts';
import { GITHUB_TOKEN, gitHubStep, pullRequestEvent, pushEvent } from '../support/github-step.ts';
import { whatAReaderSees } from '../support/github-render.ts';
import { readGitLabDotenv } from '../support/gitlab-dotenv.ts';
import { INTEGRATION } from '../support/ids.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { runAction, type ActionRun, type RunOptions } from '../support/run-action.ts';
import { QUICK } from '../support/quick.ts';

const API_KEY = 'examples-api-key-0123456789';
const OPENAI_API_KEY = 'sk-examples-not-a-real-key';
const GITHUB_REPO = 'https://github.com/acme/agent';
const GITLAB_REPO = 'https://gitlab.com/acme/agent';
const PUSHES = [
  '1111111111111111111111111111111111111111',
  '2222222222222222222222222222222222222222',
  '3333333333333333333333333333333333333333',
];

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
  // Created deployments and new revisions take a check or two before they are live.
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

/** The values a repository's variables and secrets, and the event, give the examples. */
const context = (): Record<string, string> => ({
  'vars.DEPLOY_API_URL': emu.url,
  'secrets.DEPLOY_API_KEY': API_KEY,
  'vars.CODEHOST_INTEGRATION_ID': INTEGRATION,
  'secrets.OPENAI_API_KEY': OPENAI_API_KEY,
  'vars.DEPLOY_DASHBOARD_URL': 'https://console.example/o/{tenant_id}/deployments/{id}',
  'github.event.number': '7',
  'github.head_ref': 'feature',
});

const README_DEPLOY = () =>
  theBlock('README.md', startingWith('# .github/workflows/deploy.yml')).text;
const PLAN = () => theBlock('docs/plan.md', startingWith('# .github/workflows/plan.yml')).text;
const RETIRE = () =>
  theBlock('docs/retire.md', startingWith('# .github/workflows/retire.yml')).text;
const SWEEP = () => theBlock('docs/sweep.md', startingWith('# .github/workflows/sweep.yml')).text;
const PREVIEW = (file = 'docs/github.md') =>
  theBlock(file, (block) => block.meta === '' && block.text.includes('name: my-agent-pr-')).text;
/** The files a checkout of the repository holds for the examples: the shared config file. */
const CHECKOUT = () => configFile('README.md', 'deploy/agent.yaml');

/** A workflow's step that uses `action`, run through its bundle against both emulators. */
function runStep(
  workflow: string,
  action: string,
  event: NonNullable<RunOptions['event']>,
): Promise<ActionRun> {
  const sub = /^OWNER\/REPO(?:\/([a-z]+))?@v1$/.exec(action)?.[1];
  const [given, options] = gitHubStep(
    gh,
    evaluated(stepUsing(workflow, action).with, context()),
    {},
    {
      event,
      files: CHECKOUT(),
      env: QUICK,
      ...(sub === undefined ? {} : { action: `${sub}/action.yml` }),
    },
  );
  return runAction(given, options);
}

/** pull request 7 with its head at `sha` on `feature`. */
function pullRequestAt(sha: string): NonNullable<RunOptions['event']> {
  const event = pullRequestEvent();
  const payload = event.payload as { pull_request: { head: { sha: string } } };
  payload.pull_request.head.sha = sha;
  return event;
}

describe("the README's deploy workflow", () => {
  const deploy = (sha: string) => runStep(README_DEPLOY(), 'OWNER/REPO@v1', pushEvent(sha));

  it('creates the deployment on the first push and makes each later push live', async () => {
    const [first = '', ...later] = PUSHES;
    emu.setHead(GITHUB_REPO, 'main', first);
    const created = await deploy(first);
    expect(created.error).toBeUndefined();
    expect(created.outputs).toMatchObject({ created: 'true', live: 'true', 'commit-sha': first });

    for (const sha of later) {
      emu.push(GITHUB_REPO, 'main', sha);
      const run = await deploy(sha);
      expect(run.error).toBeUndefined();
      expect(run.exitCode).toBe(0);
      expect(run.outputs).toMatchObject({
        'deployment-id': created.outputs['deployment-id'],
        created: 'false',
        live: 'true',
        'commit-sha': sha,
        drift: '[]',
      });
    }
    expect(emu.deployments).toHaveLength(1);
  });

  it('hands the new commit to its next step, which prints it', async () => {
    const [first = '', second = ''] = PUSHES;
    emu.setHead(GITHUB_REPO, 'main', first);
    await deploy(first);
    emu.push(GITHUB_REPO, 'main', second);
    const run = await deploy(second);

    const next = stepsOf(README_DEPLOY()).find((step) => step.run !== undefined);
    const outputs = Object.fromEntries(
      Object.entries(run.outputs).map(([name, value]) => [`steps.deploy.outputs.${name}`, value]),
    );
    const printedLines = await runCli(['-c', next?.run ?? ''], {
      command: ['bash'],
      env: evaluated(next?.env, outputs),
    });
    expect(printedLines.stdout).toContain(`live: true, commit ${second}`);
    expect(printedLines.stdout).toContain('(created by this run: false)');
  });
});

describe('the plan of docs/plan.md', () => {
  it("plans exactly the README's deploy: the same inputs, the same config file", () => {
    const deploy = stepUsing(README_DEPLOY(), 'OWNER/REPO@v1').with ?? {};
    const plan = stepUsing(PLAN(), 'OWNER/REPO/plan@v1').with ?? {};
    const shared = Object.keys(actionYml('plan/action.yml').inputs).filter(
      (name) => name in actionYml().inputs && name !== 'github-token' && name !== 'pr-comment',
    );
    const pick = (values: Record<string, unknown>) =>
      Object.fromEntries(shared.map((name) => [name, values[name]]));
    expect(pick(plan)).toEqual(pick(deploy));
    expect(deploy.config).toBe('deploy/agent.yaml');
    // Both jobs check the repository out, so both read the file.
    for (const workflow of [README_DEPLOY(), PLAN()]) {
      expect(stepsOf(workflow).map((step) => step.uses)).toContain('actions/checkout@v4');
    }
  });

  it('shows no difference after each deploy, so on-change: fail lets the merge through', async () => {
    for (const [index, sha] of PUSHES.slice(0, 2).entries()) {
      if (index === 0) emu.setHead(GITHUB_REPO, 'main', sha);
      else emu.push(GITHUB_REPO, 'main', sha);
      const deployed = await runStep(README_DEPLOY(), 'OWNER/REPO@v1', pushEvent(sha));
      expect(deployed.outputs).toMatchObject({ live: 'true', 'commit-sha': sha });

      const plan = await runStep(PLAN(), 'OWNER/REPO/plan@v1', pullRequestEvent());
      expect(plan.error).toBeUndefined();
      expect(plan.exitCode).toBe(0);
      expect(plan.outputs).toMatchObject({
        action: 'reuse',
        changes: '0',
        'deployment-id': deployed.outputs['deployment-id'],
      });
    }
  });
});

describe('the preview of docs/how-it-works.md', () => {
  it('makes each push to the pull request live', async () => {
    const preview = PREVIEW('docs/how-it-works.md');
    emu.setHead(GITHUB_REPO, 'feature', PUSHES[0] ?? '');
    for (const [index, sha] of PUSHES.entries()) {
      if (index > 0) emu.push(GITHUB_REPO, 'feature', sha);
      const run = await runStep(preview, 'OWNER/REPO@v1', pullRequestAt(sha));
      expect(run.error).toBeUndefined();
      expect(run.outputs).toMatchObject({
        created: String(index === 0),
        live: 'true',
        'commit-sha': sha,
      });
    }
  });
});

describe('the preview of docs/github.md and its retire in docs/retire.md', () => {
  it('makes each push to the pull request live, then retires that preview', async () => {
    const [first = '', second = ''] = PUSHES;
    emu.setHead(GITHUB_REPO, 'feature', first);
    const created = await runStep(PREVIEW(), 'OWNER/REPO@v1', pullRequestAt(first));
    expect(created.error).toBeUndefined();
    expect(created.outputs).toMatchObject({ created: 'true', live: 'true', 'commit-sha': first });

    emu.push(GITHUB_REPO, 'feature', second);
    const pushed = await runStep(PREVIEW(), 'OWNER/REPO@v1', pullRequestAt(second));
    expect(pushed.error).toBeUndefined();
    expect(pushed.outputs).toMatchObject({
      'deployment-id': created.outputs['deployment-id'],
      created: 'false',
      live: 'true',
      'commit-sha': second,
    });
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]?.body).toContain(second.slice(0, 7));

    // The retire names what the preview's step named: its deployment and its environment.
    const preview = evaluated(stepUsing(PREVIEW(), 'OWNER/REPO@v1').with, context());
    const retireWith = evaluated(stepUsing(RETIRE(), 'OWNER/REPO/retire@v1').with, context());
    expect(retireWith.name).toBe(preview.name);
    expect(retireWith.environment).toBe(preview.environment);

    const retired = await runStep(
      RETIRE(),
      'OWNER/REPO/retire@v1',
      pullRequestEvent(undefined, undefined, 'merged'),
    );
    expect(retired.error).toBeUndefined();
    // The second push's success made the first record inactive (GitHub's auto_inactive): the
    // retire writes only to the one still active.
    expect(retired.outputs).toMatchObject({
      'deployment-id': created.outputs['deployment-id'],
      retired: '1',
    });
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]?.body).toContain('its preview is retired');
  });
});

/** A documented command line run by a shell in a job's folder, with `ci`'s variables. */
function runLine(line: string, ci: Record<string, string>, read: string[]): Promise<CliRun> {
  const folder = mkdtempSync(path.join(tmpdir(), 'doc-examples-job-'));
  return runCli(['-c', line], {
    command: ['bash'],
    cwd: folder,
    files: CHECKOUT(),
    read,
    env: {
      PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      DEPLOY_API_URL: emu.url,
      DEPLOY_API_KEY: API_KEY,
      INTEGRATION_ID: INTEGRATION,
      ...QUICK,
      ...ci,
    },
  }).finally(() => rmSync(folder, { recursive: true, force: true }));
}

const dotenvOf = (run: CliRun, file: string) => readGitLabDotenv(run.files[file] ?? '');

/** A GitLab pipeline's variables for a push of `sha` to `main`, the default branch. */
function gitLabPush(sha: string): Record<string, string> {
  return {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_SERVER_URL: 'https://gitlab.com',
    CI_PROJECT_PATH: 'acme/agent',
    CI_PROJECT_URL: GITLAB_REPO,
    CI_PROJECT_DIR: '/builds/acme/agent',
    CI_REGISTRY_IMAGE: 'registry.gitlab.com/acme/agent',
    CI_PIPELINE_ID: '1001',
    CI_JOB_ID: '2002',
    CI_PIPELINE_SOURCE: 'push',
    CI_DEFAULT_BRANCH: 'main',
    CI_COMMIT_BRANCH: 'main',
    CI_COMMIT_REF_NAME: 'main',
    CI_COMMIT_SHA: sha,
  };
}

describe('the GitLab CI examples of docs/command.md', () => {
  beforeEach(() => {
    // The integration of these examples is the GitLab one: it lists the GitLab project.
    emu.repos.delete(INTEGRATION.toLowerCase());
    emu.seedRepos(INTEGRATION, [
      { owner: 'acme', name: 'agent', url: GITLAB_REPO, default_branch: 'main' },
    ]);
  });
  const DEPLOY = () => gitLabScript('docs/command.md', 'deploy');
  const PLAN_LINE = () => gitLabScript('docs/command.md', 'plan');

  it('deploys each push to the default branch and hands its commit to later jobs', async () => {
    const [first = '', ...later] = PUSHES;
    emu.setHead(GITLAB_REPO, 'main', first);
    const created = await runLine(DEPLOY(), gitLabPush(first), ['deploy.env']);
    expect(created.exitCode).toBe(0);
    expect(dotenvOf(created, 'deploy.env')).toMatchObject({
      DEPLOYMENT_CREATED: 'true',
      DEPLOYMENT_LIVE: 'true',
      DEPLOYMENT_COMMIT_SHA: first,
    });

    for (const sha of later) {
      emu.push(GITLAB_REPO, 'main', sha);
      const run = await runLine(DEPLOY(), gitLabPush(sha), ['deploy.env']);
      expect(run.exitCode).toBe(0);
      expect(dotenvOf(run, 'deploy.env')).toMatchObject({
        DEPLOYMENT_CREATED: 'false',
        DEPLOYMENT_LIVE: 'true',
        DEPLOYMENT_COMMIT_SHA: sha,
      });
    }
    expect(emu.deployments.map((d) => d.source_config.repo_url)).toEqual([GITLAB_REPO]);
  });

  it('plans exactly the deploy job, and a merge request pipeline after a deploy passes', async () => {
    const planOnly = new Set([
      '--on-change',
      'fail',
      '--dotenv',
      'plan.env',
      '--summary',
      'plan.md',
    ]);
    const deployOnly = new Set(['--wait', '--dotenv', 'deploy.env']);
    expect(
      words(PLAN_LINE())
        .filter((word) => !planOnly.has(word))
        .slice(4),
    ).toEqual(
      words(DEPLOY())
        .filter((word) => !deployOnly.has(word))
        .slice(4),
    );

    const [first = '', second = ''] = PUSHES;
    emu.setHead(GITLAB_REPO, 'main', first);
    expect((await runLine(DEPLOY(), gitLabPush(first), [])).exitCode).toBe(0);
    emu.push(GITLAB_REPO, 'main', second);
    expect((await runLine(DEPLOY(), gitLabPush(second), [])).exitCode).toBe(0);

    const mergeRequest = {
      ...gitLabPush('4444444444444444444444444444444444444444'),
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_COMMIT_BRANCH: '',
      CI_COMMIT_REF_NAME: 'feature',
      CI_MERGE_REQUEST_ID: '3003',
      CI_MERGE_REQUEST_IID: '7',
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
      CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
    };
    const plan = await runLine(PLAN_LINE(), mergeRequest, ['plan.env', 'plan.md']);
    expect(plan.exitCode).toBe(0);
    expect(dotenvOf(plan, 'plan.env')).toMatchObject({
      DEPLOYMENT_PLAN_ACTION: 'reuse',
      DEPLOYMENT_CHANGES: '0',
    });
    expect(plan.files['plan.md']).toContain('my-agent');
  });

  it('deploys each release tag of a docker image under its own name', async () => {
    const RELEASE = gitLabScript('docs/command.md', 'release');
    const tag = (name: string) => ({
      ...gitLabPush(PUSHES[0] ?? ''),
      CI_COMMIT_BRANCH: '',
      CI_COMMIT_REF_NAME: name,
      CI_COMMIT_TAG: name,
    });
    for (const release of ['v1.4.2', 'v1.5.0']) {
      const run = await runLine(RELEASE, tag(release), ['deploy.env']);
      expect(run.exitCode).toBe(0);
      expect(dotenvOf(run, 'deploy.env')).toMatchObject({
        DEPLOYMENT_CREATED: 'true',
        DEPLOYMENT_LIVE: 'true',
      });
    }
    expect(
      emu.deployments.map((d) => [d.name, d.source, d.source_revision_config.image_uri]),
    ).toEqual([
      ['my-agent-v1.4.2', 'external_docker', 'registry.gitlab.com/acme/agent:v1.4.2'],
      ['my-agent-v1.5.0', 'external_docker', 'registry.gitlab.com/acme/agent:v1.5.0'],
    ]);

    // The same release again, its image now in another registry: the deployment keeps the
    // image it was created with, and the job says so instead of going green on it.
    const moved = { ...tag('v1.5.0'), CI_REGISTRY_IMAGE: 'registry.example/acme/agent' };
    const again = await runLine(RELEASE, moved, ['deploy.env']);
    expect(again.exitCode).toBe(1);
    expect(dotenvOf(again, 'deploy.env')).toMatchObject({ DEPLOYMENT_LIVE: 'false' });
    expect(again.stderr).toContain('registry.gitlab.com/acme/agent:v1.5.0');
    expect(again.stderr).toContain('registry.example/acme/agent:v1.5.0');
    expect(again.stderr).toMatch(/under a new name/);
  });
});

describe('a docker image in docs/command.md', () => {
  it('fails honestly when a deployment is asked for another image than the one it keeps', async () => {
    const [create, other, ...rest] = shellLines(
      'docs/command.md',
      'deploy-agent deploy --name my-agent --source external_docker',
    );
    expect(rest).toEqual([]);

    // Each line as the docs show it, plus --json: what a script reads of the run.
    const first = await runLine(`${create ?? ''} --json`, {}, []);
    expect(first.exitCode).toBe(0);
    expect(first.json).toMatchObject({ created: true, live: true });

    const second = await runLine(`${other ?? ''} --json`, {}, []);
    expect(second.exitCode).toBe(1);
    expect(second.json).toMatchObject({ created: false, live: false });
    expect(second.stderr).toContain('registry.example/agent:1.4.2');
    expect(second.stderr).toContain('registry.example/agent:1.5.0');
    expect(second.stderr).toMatch(/under a new name/);
    expect(emu.deployments).toHaveLength(1);
  });
});

/** The job summary a `--summary` file holds, as a reader sees it rendered. */
const summaryOf = (run: CliRun) => whatAReaderSees(run.files['deploy-summary.md'] ?? '').text;

describe('the Jenkins and CircleCI examples of docs/command.md', () => {
  it('the Jenkins pipeline deploys each push to main', async () => {
    const line = jenkinsSh('docs/command.md');
    const build = (sha: string, number: string) => ({
      JENKINS_URL: 'https://jenkins.example/',
      BUILD_NUMBER: number,
      BRANCH_NAME: 'main',
      GIT_BRANCH: 'main',
      GIT_COMMIT: sha,
      WORKSPACE: '/var/jenkins/workspace/agent',
    });
    const [first = '', second = ''] = PUSHES;
    emu.setHead(GITHUB_REPO, 'main', first);
    const created = await runLine(line, build(first, '1'), ['deploy-summary.md']);
    expect(created.exitCode).toBe(0);
    expect(summaryOf(created)).toContain('Outcome\tcreated');
    expect(summaryOf(created)).toContain(`Latest revision commit\t${first.slice(0, 12)}`);

    emu.push(GITHUB_REPO, 'main', second);
    const pushed = await runLine(line, build(second, '2'), ['deploy-summary.md']);
    expect(pushed.exitCode).toBe(0);
    expect(summaryOf(pushed)).toContain('Live\tyes');
    expect(summaryOf(pushed)).toContain(`Latest revision commit\t${second.slice(0, 12)}`);
    expect(emu.deployments).toHaveLength(1);
  });

  it('the CircleCI config is whole, and deploys each push to main', async () => {
    const { config, line } = circleCiRun('docs/command.md');
    expect(config.version).toBe(2.1);
    expect(Object.keys(config.workflows ?? {})).not.toEqual([]);

    const build = (sha: string, number: string) => ({
      CI: 'true',
      CIRCLECI: 'true',
      CIRCLE_BUILD_NUM: number,
      CIRCLE_BRANCH: 'main',
      CIRCLE_SHA1: sha,
      CIRCLE_PROJECT_USERNAME: 'acme',
      CIRCLE_PROJECT_REPONAME: 'agent',
    });
    const outputs = (run: CliRun) => JSON.parse(run.files['deploy.json'] ?? '{}') as unknown;
    const [first = '', second = ''] = PUSHES;
    emu.setHead(GITHUB_REPO, 'main', first);
    const created = await runLine(line, build(first, '1'), ['deploy.json']);
    expect(created.exitCode).toBe(0);
    expect(outputs(created)).toMatchObject({ created: true, live: true, 'commit-sha': first });

    emu.push(GITHUB_REPO, 'main', second);
    const pushed = await runLine(line, build(second, '2'), ['deploy.json']);
    expect(pushed.exitCode).toBe(0);
    expect(outputs(pushed)).toMatchObject({ created: false, live: true, 'commit-sha': second });
  });
});

describe('the sweep of docs/sweep.md', () => {
  it('finds the preview of docs/github.md whose close was missed, retires it, then writes nothing', async () => {
    const [first = ''] = PUSHES;
    emu.setHead(GITHUB_REPO, 'feature', first);
    const created = await runStep(PREVIEW(), 'OWNER/REPO@v1', pullRequestAt(first));
    expect(created.error).toBeUndefined();
    // Pull request 7 is merged, and no retire runs; pull request 8 is still open.
    gh.seedPullRequest('acme/agent', 7, 'merged', '2026-11-20T10:00:00Z');
    gh.seedPullRequest('acme/agent', 8, 'open');
    emu.seedDeployment({ name: 'my-agent-pr-8' });

    // The sweep's patterns name what the preview's step named.
    const preview = evaluated(stepUsing(PREVIEW(), 'OWNER/REPO@v1').with, context());
    const sweepWith = evaluated(stepUsing(SWEEP(), 'OWNER/REPO/sweep@v1').with, context());
    expect(sweepWith['name-pattern']?.replace('{number}', '7')).toBe(preview.name);
    expect(sweepWith['environment-pattern']?.replace('{number}', '7')).toBe(preview.environment);

    const schedule = { name: 'schedule', ref: 'refs/heads/main', sha: first, payload: {} };
    const swept = await runStep(SWEEP(), 'OWNER/REPO/sweep@v1', schedule);
    // on-orphans: fail keeps the job red while the orphan runs.
    expect(swept.exitCode).not.toBe(0);
    expect(swept.outputs).toMatchObject({ 'orphan-count': '1', 'open-count': '1', retired: '1' });
    const [orphan] = JSON.parse(swept.outputs.orphans ?? '[]') as Record<string, unknown>[];
    expect(orphan).toMatchObject({
      name: 'my-agent-pr-7',
      'deployment-id': created.outputs['deployment-id'],
      state: 'merged',
    });
    expect(gh.comments[0]?.body).toContain('its preview is retired');

    const writes = gh.writes().length;
    const again = await runStep(SWEEP(), 'OWNER/REPO/sweep@v1', schedule);
    expect(again.outputs.orphans).toBe(swept.outputs.orphans);
    expect(gh.writes()).toHaveLength(writes);
  });
});

describe('the fleet examples of docs/command.md', () => {
  it('pipes list into cut: who waits for a database, and which of two ids still exists', async () => {
    const [waiting, ready, alsoWaiting] = emu.seedDeployments(3, (i) => ({
      name: `agent-${i}`,
      status: i === 1 ? 'READY' : 'AWAITING_DATABASE',
    }));
    const [who, which, ...rest] = shellLines('docs/command.md', 'deploy-agent list');
    expect(rest).toEqual([]);

    const stalled = await runLine(who ?? '', {}, []);
    expect(stalled.exitCode).toBe(0);
    expect(stalled.stdout.trim().split('\n').sort()).toEqual(
      [waiting, alsoWaiting].map((d) => `${d?.name ?? ''}\t${d?.id ?? ''}`).sort(),
    );

    const gone = '5a1e0b6c-3f4d-4e2a-9b8c-7d6e5f4a3b2c';
    const exists = await runLine(which ?? '', { OLD_ID: gone, NEW_ID: ready?.id ?? '' }, []);
    expect(exists.exitCode).toBe(0);
    expect(exists.stdout).toBe(`${ready?.id ?? ''}\n`);
  });

  it('the scheduled GitLab job lists every preview a merge request left, each secret value ***', async () => {
    emu.seedDeployment({ name: 'my-agent' });
    for (const iid of [7, 8]) {
      emu.seedDeployment({
        name: `my-agent-mr-${iid}`,
        secrets: [{ name: 'OPENAI_API_KEY', value: OPENAI_API_KEY }],
      });
    }
    const line = gitLabScript('docs/command.md', 'leftovers');
    const run = await runLine(
      line,
      { CI: 'true', GITLAB_CI: 'true', CI_PIPELINE_SOURCE: 'schedule' },
      ['previews.json'],
    );
    expect(run.exitCode).toBe(0);
    const previews = JSON.parse(run.files['previews.json'] ?? '') as {
      name: string;
      secrets: { value: string }[];
    }[];
    expect(previews.map((preview) => preview.name).sort()).toEqual([
      'my-agent-mr-7',
      'my-agent-mr-8',
    ]);
    expect(previews.flatMap((preview) => preview.secrets.map((secret) => secret.value))).toEqual([
      '***',
      '***',
    ]);
    expectNoSecret([OPENAI_API_KEY, API_KEY], run);
  });
});

describe('the examples this test reads', () => {
  it('are all there, and an expression no example test knows is an error, not an empty value', () => {
    expect(() => evaluate('${{ vars.SOMETHING_NEW }}', {})).toThrow(
      'the test gives no value for ${{ vars.SOMETHING_NEW }}',
    );
    expect(README_DEPLOY()).toContain('OWNER/REPO@v1');
    expect(PLAN()).toContain('OWNER/REPO/plan@v1');
    expect(RETIRE()).toContain('OWNER/REPO/retire@v1');
    expect(PREVIEW()).toContain('pr-comment: true');
    expect(SWEEP()).toContain('OWNER/REPO/sweep@v1');
  });
});
