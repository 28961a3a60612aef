/**
 * End-to-end, the GitHub side of the deploy step: the bundle under Node 24,
 * spawned as the runner spawns it, against the service's emulator and
 * GitHub's (reached through GITHUB_API_URL, as on any runner): the
 * deployment record and its statuses, the pull request comment, the commit
 * order, every GitHub fault as one advisory warning, annotations within
 * GitHub's limit, and no secret anywhere.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import {
  INTEGRATION,
  codehostStep,
  AGENT_REPO_URL,
  seedAgentRepository,
} from '../support/fixtures.ts';
import {
  GITHUB_TOKEN,
  PR_HEAD,
  RUN_URL,
  gitHubStep,
  pullRequestEvent,
  pushEvent,
  type GitHubInputs,
} from '../support/github-step.ts';
import { whatAReaderSees } from '../support/github-render.ts';
import { TENANT_ID } from '../support/ids.ts';
import {
  printed,
  startAction,
  type ActionRun,
  type RunOptions,
  KILL_AFTER_MS,
} from '../support/run-action.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { QUICK } from '../support/quick.ts';

const REPO = AGENT_REPO_URL;
const OLD = '1111111111111111111111111111111111111111';
const MIDDLE = '2222222222222222222222222222222222222222';
const NEW = '3333333333333333333333333333333333333333';
const API_KEY = 'sk-service-key-0123456789abcdef';
const SECRET = 'sk-openai-fedcba9876543210';
const DASHBOARD = 'https://console.example/o/{tenant_id}/deployments/{id}';

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  [emu, gh] = await Promise.all([
    startEmulator({ tenantId: TENANT_ID, apiKey: API_KEY }),
    startGitHubEmulator(),
  ]);
  seedAgentRepository(emu);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
  gh.chain(OLD, MIDDLE, NEW, PR_HEAD);
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

/** The deployment as an earlier run left it: live on `commit` of `ref`. */
function existing(
  commit: string,
  options: { ref?: string; name?: string; customUrl?: string } = {},
) {
  return emu.seedDeployment({
    name: options.name ?? 'my-agent',
    source_config: {
      integration_id: INTEGRATION,
      repo_url: REPO,
      build_on_push: true,
      ...(options.customUrl === undefined ? {} : { custom_url: options.customUrl }),
    },
    source_revision_config: {
      repo_ref: options.ref ?? 'main',
      agent_config_path: 'agent.json',
      repo_commit_sha: commit,
    },
  });
}

/** Starts a codehost step with `inputs` and the GitHub inputs, on `options.event`. */
function start(inputs: Record<string, string>, github: GitHubInputs, options: RunOptions = {}) {
  const [given, runOptions] = gitHubStep(
    gh,
    codehostStep(emu, { 'api-key': API_KEY, 'agent-config-path': 'agent.json', ...inputs }),
    github,
    { killAfterMs: KILL_AFTER_MS, ...options },
  );
  return startAction(given, runOptions);
}

/** Runs it to the end. */
function run(
  inputs: Record<string, string>,
  github: GitHubInputs,
  options: RunOptions = {},
): Promise<ActionRun> {
  return start(inputs, github, options).finished;
}

const annotations = (r: ActionRun, kind = 'warning') =>
  r.stdout.split('\n').filter((line) => line.startsWith(`::${kind}`));
const states = (index = 0) => gh.deployments[index]?.statuses.map((status) => status.state);
const botComments = () => gh.comments.filter((c) => c.user.login === 'github-actions[bot]');

describe('the GitHub deployment record', () => {
  it('records a live deployment: in_progress, then success with auto_inactive; the id as an output', async () => {
    const deployment = existing(NEW, { customUrl: 'https://agent.example' });

    const r = await run(
      { 'wait-for-ready': 'true', 'dashboard-url': DASHBOARD },
      { environment: 'production' },
      { event: pushEvent(NEW) },
    );

    expect(r.exitCode).toBe(0);
    expect(gh.deployments).toHaveLength(1);
    const record = gh.deployments[0];
    expect(record).toMatchObject({
      owner: 'acme',
      repo: 'agent',
      ref: NEW,
      environment: 'production',
      transient_environment: false,
      auto_merge: false,
      required_contexts: [],
      payload: { id: deployment.id, name: 'my-agent' },
    });
    expect(record?.description).toContain('my-agent');
    expect(states()).toEqual(['in_progress', 'success']);
    for (const status of record?.statuses ?? []) {
      // The deployment's own address wins over the dashboard link.
      expect(status).toMatchObject({ environment_url: 'https://agent.example', log_url: RUN_URL });
      expect(status.description.length).toBeLessThanOrEqual(140);
    }
    expect(record?.statuses[1]).toMatchObject({ auto_inactive: true });
    expect(record?.statuses[1]?.description).toContain(
      `my-agent is live at commit ${NEW.slice(0, 12)}`,
    );
    expect(r.outputs['github-deployment-id']).toBe(String(record?.id));
    expect(annotations(r)).toEqual([]);
  });

  it('not waiting, not live yet: the last status stays in_progress and says so; the dashboard link', async () => {
    const deployment = existing(OLD);
    emu.setOptions({ buildMs: 600_000 });
    emu.push(REPO, 'main', NEW);

    const r = await run(
      { 'wait-for-ready': 'false', 'dashboard-url': DASHBOARD },
      { environment: 'production' },
      { event: pushEvent(NEW) },
    );

    expect(r.exitCode).toBe(0);
    expect(r.outputs.live).toBe('false');
    expect(states()).toEqual(['in_progress', 'in_progress']);
    const last = gh.deployments[0]?.statuses[1];
    expect(last?.description).toContain('not live yet');
    expect(last?.environment_url).toBe(
      `https://console.example/o/${TENANT_ID}/deployments/${deployment.id}`,
    );
  });

  it('a failed step: failure, with the reason', async () => {
    existing(NEW);

    const r = await run(
      { 'agent-config-path': 'other.json', 'wait-for-ready': 'true' },
      { environment: 'production' },
      { event: pushEvent(NEW) },
    );

    expect(r.exitCode).toBe(1);
    expect(states()).toEqual(['in_progress', 'failure']);
    expect(gh.deployments[0]?.statuses[1]?.description).toContain('the deploy failed');
    expect(r.outputs['github-deployment-id']).toBe(String(gh.deployments[0]?.id));
  });

  it('a revision the deployment will never take, without a wait: failure, never a lasting in_progress', async () => {
    existing(NEW);

    const r = await run(
      { 'agent-config-path': 'other.json' },
      { environment: 'production' },
      { event: pushEvent(NEW) },
    );

    expect(r.exitCode).toBe(0);
    expect(r.outputs.live).toBe('false');
    expect(states()).toEqual(['in_progress', 'failure']);
    expect(gh.deployments[0]?.statuses[1]?.description).toContain(
      'will not run what this run asks for',
    );
  });

  it('a cancelled run (SIGINT): error, written before the runner would kill the step', async () => {
    existing(OLD);
    emu.setOptions({ buildMs: 600_000 });
    emu.push(REPO, 'main', NEW);
    const started = start(
      { 'wait-for-ready': 'true' },
      { environment: 'production' },
      { event: pushEvent(NEW) },
    );
    await expect.poll(() => states()?.[0], { timeout: 10_000, interval: 20 }).toBe('in_progress');
    started.child.kill('SIGINT');
    // As the runner does: SIGTERM 7.5 s after SIGINT (here a kill, which the step cannot outlast).
    const runner = setTimeout(() => started.child.kill('SIGKILL'), 7_500);

    const r = await started.finished;
    clearTimeout(runner);

    expect(r.signal).toBeNull(); // it ended by itself, before the runner's kill
    expect(r.exitCode).toBe(1);
    expect(states()).toEqual(['in_progress', 'error']);
    expect(gh.deployments[0]?.statuses[1]?.description).toContain('cancelled');
  });
});

describe('a pull request: transient environment and one comment', () => {
  const preview = { environment: 'preview-pr-7', 'pr-comment': 'true' };

  it('after a failed build, says the previous commit is still live (issue 46)', async () => {
    const deployment = existing(OLD, { ref: 'feature' });
    const polls = () =>
      emu.requests.filter((request) => request.query.deployment_ids !== undefined);
    const started = start({ 'wait-for-ready': 'true', 'wait-timeout': '2' }, preview, {
      event: pullRequestEvent(),
      env: QUICK,
    });
    // The push's build starts while the step waits, and fails.
    await expect.poll(() => polls().length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    emu.push(REPO, 'feature', PR_HEAD, { fail: true });

    const r = await started.finished;

    expect(r.exitCode, printed(r)).toBe(1);
    const [comment] = gh.comments;
    const seen = whatAReaderSees(comment?.body ?? '');
    expect(seen.text).toContain('my-agent: the deploy failed');
    expect(seen.tables[0]).toContainEqual([
      'Still live',
      `commit ${OLD.slice(0, 12)} is still live (revision ${deployment.active_revision_id})`,
    ]);
  });

  it('one comment per deployment name, found again across pages, a foreign marker left alone, no secret', async () => {
    existing(PR_HEAD, { ref: 'feature', customUrl: 'https://pr-7.agent.example' });
    existing(PR_HEAD, { ref: 'feature', name: 'my-agent-b' });
    gh.seedComment('acme/agent', 7, '<!-- deploy-agent:my_agent -->\nnot mine', {
      login: 'someone',
      type: 'User',
    });
    gh.seedComment('acme/agent', 7, '<!-- deploy-agent:my%2Dagent -->\nalso not mine', {
      login: 'someone',
      type: 'User',
    });
    gh.seedComments('acme/agent', 7, 248);
    const inputs = { 'wait-for-ready': 'true', secrets: `OPENAI_API_KEY=${SECRET}` };
    const event = pullRequestEvent();

    const first = await run(inputs, preview, { event });
    expect(first.exitCode).toBe(0);
    // Three pages of 100 read once, one comment created, then updated once.
    expect(gh.calls(/^GET .*\/issues\/7\/comments$/).map((c) => c.query.page)).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect(gh.calls(/^POST .*\/issues\/7\/comments$/)).toHaveLength(1);
    expect(gh.calls(/^PATCH /)).toHaveLength(1);

    const second = await run(inputs, preview, { event });
    const other = await run({ ...inputs, name: 'my-agent-b' }, preview, { event });
    expect([second.exitCode, other.exitCode]).toEqual([0, 0]);

    // Two names, two comments; the second run of my-agent updated its own comment twice.
    expect(botComments()).toHaveLength(2);
    expect(gh.calls(/^POST .*\/issues\/7\/comments$/)).toHaveLength(2);
    expect(gh.calls(/^PATCH /)).toHaveLength(1 + 2 + 1);
    const foreign = gh.comments.filter((c) => c.user.login === 'someone');
    expect(foreign.map((c) => c.updated_at)).toEqual(foreign.map((c) => c.created_at));
    expect(foreign[1]?.body).toContain('also not mine');

    const mine = botComments()[0]?.body ?? '';
    expect(mine.startsWith('<!-- deploy-agent:my%2Dagent -->')).toBe(true);
    expect(mine).toContain('`my-agent` is live');
    expect(mine).toContain(`[Workflow run](${RUN_URL})`);
    expect(mine).toContain('https://pr-7.agent.example');

    // The record: the pull request's head, a transient environment.
    expect(gh.deployments[0]).toMatchObject({
      ref: PR_HEAD,
      environment: 'preview-pr-7',
      transient_environment: true,
    });
    // auto_inactive: the next run's success turned the first one's inactive.
    expect(states(0)).toEqual(['in_progress', 'success', 'inactive']);
    expect(states(2)).toEqual(['in_progress', 'success']);

    // No secret in any log, output, summary, comment, GitHub record, or request sent to GitHub.
    expectNoSecret([SECRET, API_KEY, GITHUB_TOKEN], first, second, other, gh);
  });

  it('pr-comment on a push: ignored, with one debug line', async () => {
    existing(NEW);

    const r = await run(
      {},
      { 'pr-comment': 'true' },
      { event: pushEvent(NEW), env: { RUNNER_DEBUG: '1' } },
    );

    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('::debug::pr-comment is ignored: the run is not for a pull request');
    expect(gh.requests).toEqual([]);
  });
});

describe('commit order', () => {
  it('a re-run of an old commit whose newer descendant is live goes green at once, naming it', async () => {
    existing(NEW);

    const r = await run(
      { 'wait-for-ready': 'true' },
      { environment: 'production' },
      {
        event: pushEvent(OLD),
      },
    );

    expect(r.exitCode).toBe(0);
    expect(r.outputs).toMatchObject({ live: 'true', 'commit-sha': NEW });
    expect(r.stdout).toContain(
      `commit ${OLD.slice(0, 12)} was superseded by a newer commit: commit ${NEW.slice(0, 12)} is live instead`,
    );
    expect(gh.calls(`GET /repos/acme/agent/compare/${OLD}...${NEW}`)).toHaveLength(1);
    expect(states()).toEqual(['in_progress', 'success']);
    expect(gh.deployments[0]?.statuses[1]?.description).toContain(NEW.slice(0, 12));
    // Nothing polled: the newer commit was live when the step looked.
    expect(emu.requests.filter((request) => request.query.deployment_ids)).toEqual([]);
  });

  it('a revision for an older commit does not supersede the target: the step keeps waiting', async () => {
    existing(OLD);
    emu.setOptions({ buildPolls: 1 });
    emu.push(REPO, 'main', NEW);
    const started = start(
      { 'wait-for-ready': 'true', 'wait-timeout': '3' },
      {},
      { event: pushEvent(NEW) },
    );
    // Once the step has looked the deployment up (repos, then the list), the service builds
    // MIDDLE, an ancestor of NEW (a listing that lagged the push), and it goes live first.
    await expect
      .poll(() => emu.requests.length, { timeout: 10_000, interval: 5 })
      .toBeGreaterThanOrEqual(2);
    emu.push(REPO, 'main', MIDDLE);

    const r = await started.finished;

    expect(r.exitCode).toBe(1);
    expect(r.stdout).not.toContain('superseded');
    expect(r.outputs.live).toBe('false');
    expect(gh.calls(`GET /repos/acme/agent/compare/${NEW}...${MIDDLE}`)).toHaveLength(1);
  });
});

describe('GitHub faults are advisory', () => {
  /** The outputs of the same step without any GitHub feature, for comparison. */
  async function baseline(): Promise<Record<string, string>> {
    const r = await run(
      { 'wait-for-ready': 'true' },
      { 'github-token': '' },
      {
        event: pushEvent(NEW),
      },
    );
    expect(r.exitCode).toBe(0);
    return r.outputs;
  }

  it('403 with GitHub’s body: one warning naming the call, the status and the permission; same outputs', async () => {
    existing(NEW);
    gh.addToken('ghs_readonly', { ...GITHUB_ACTIONS_BOT, permissions: { deployments: 'read' } });
    const expected = await baseline();

    const r = await run(
      { 'wait-for-ready': 'true' },
      { 'github-token': 'ghs_readonly', environment: 'production' },
      { event: pushEvent(NEW) },
    );

    expect(r.exitCode).toBe(0);
    expect(r.outputs).toEqual(expected);
    const warnings = annotations(r);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('POST /repos/acme/agent/deployments: 403');
    expect(warnings[0]).toContain('Resource not accessible by integration');
    expect(warnings[0]).toContain('`deployments: write`');
    expect(warnings[0]).toContain('The deploy itself is not affected.');
  });

  it('a 502, twice: retried once, then one warning; green', async () => {
    existing(NEW);
    gh.inject({ method: 'POST', path: '/repos/acme/agent/deployments', status: 502, times: 2 });

    const r = await run({}, { environment: 'production' }, { event: pushEvent(NEW) });

    expect(r.exitCode).toBe(0);
    expect(gh.calls('POST /repos/acme/agent/deployments')).toHaveLength(2);
    expect(annotations(r)).toHaveLength(1);
    expect(annotations(r)[0]).toContain('502');
    expect(annotations(r)[0]).toContain('(2 attempts)');
  });

  it('a GitHub that never answers: bounded by the run’s GitHub budget; green, same outputs', async () => {
    existing(PR_HEAD, { ref: 'feature' });
    gh.inject({ hang: true, times: Infinity });

    // A budget shorter than the contract's 15 s, so that the test stays short (the bench measures 15 s).
    const r = await run(
      { 'wait-for-ready': 'true' },
      { environment: 'preview-pr-7', 'pr-comment': 'true' },
      { event: pullRequestEvent(), env: { DEPLOY_AGENT_GITHUB_BUDGET_MS: '1500' } },
    );

    expect(r.exitCode).toBe(0);
    expect(r.outputs.live).toBe('true');
    // Judged by attempts, not time: the budget paid for one attempt (cut at 1.5 s, not the
    // contract's 5 s an attempt), and every other call was not sent.
    expect(gh.requests).toHaveLength(1);
    expect(annotations(r).join('\n')).toContain('no answer: timed out after 1.5 s.');
    expect(annotations(r).join('\n')).toContain('not sent: the 1.5 s the GitHub work of a run');
  });

  it('a token GitHub does not know: one warning about github-token; green', async () => {
    existing(NEW);

    const r = await run(
      {},
      { 'github-token': 'ghp_unknownToken0123456789', environment: 'production' },
      { event: pushEvent(NEW) },
    );

    expect(r.exitCode).toBe(0);
    expect(annotations(r)).toHaveLength(1);
    expect(annotations(r)[0]).toContain('401 Bad credentials');
    expect(annotations(r)[0]).toContain('Check the github-token input');
    expectNoSecret(['ghp_unknownToken0123456789', API_KEY], r, gh);
  });

  it('an empty token: one notice, no request to GitHub', async () => {
    existing(NEW);

    const r = await run(
      {},
      { 'github-token': '', environment: 'production', 'pr-comment': 'true' },
      { event: pullRequestEvent() },
    );

    expect(annotations(r, 'notice')).toEqual([
      '::notice::github-token is empty: the GitHub deployment record and the pull request comment are skipped.',
    ]);
    expect(gh.requests).toEqual([]);
  });
});

describe('inputs and annotations', () => {
  it('a bad pr-comment or environment fails the step before any request, named with the core inputs', async () => {
    const r = await run(
      { 'dashboard-url': 'https://c.example/{nope}' },
      { 'pr-comment': 'maybe', environment: 'e'.repeat(256) },
      { event: pushEvent(NEW) },
    );

    expect(r.exitCode).toBe(1);
    // One report, in action.yml's order, the core's inputs and the GitHub ones alike.
    expect((r.error ?? '').split('\n').map((line) => /input '([^']+)'/.exec(line)?.[1])).toEqual([
      undefined,
      'dashboard-url',
      'environment',
      'pr-comment',
    ]);
    expect(r.error).toContain(
      "input 'environment': is 256 characters long; GitHub takes at most 255",
    );
    expect(r.error).toContain("input 'pr-comment': must be true or false, got 'maybe'");
    expect(emu.requests).toEqual([]);
    expect(gh.requests).toEqual([]);
  });

  it('15 drift warnings: 10 annotations, the last counting the other 6 and where they are; all 15 in the log', async () => {
    existing(NEW);
    const names = Array.from({ length: 15 }, (_, i) => `SECRET_${i + 1}`);

    const r = await run(
      { secrets: names.map((name) => `${name}=value-${name}-x`).join('\n') },
      {},
      {
        event: pushEvent(NEW),
      },
    );

    expect(r.exitCode).toBe(0);
    const warnings = annotations(r);
    expect(warnings).toHaveLength(10);
    expect(warnings.at(-1)).toContain('6 more warnings than GitHub shows here');
    expect(warnings.at(-1)).toContain('the job summary');
    expect(warnings.at(-1)).toContain('`drift` output');
    for (const name of names) expect(r.stdout).toContain(`drift: secrets.${name}:`);
  });
});

describe('the addresses the action publishes (hardening IV)', () => {
  const preview = { environment: 'preview-pr-7', 'pr-comment': 'true' };
  const PASSWORD = 'hunter2-Pa55word-0123';

  it('a custom_url with a user and password: masked at once, published without them everywhere', async () => {
    existing(PR_HEAD, {
      ref: 'feature',
      customUrl: `https://deployer:${PASSWORD}@preview.example/app`,
    });

    const r = await run({ 'wait-for-ready': 'true' }, preview, { event: pullRequestEvent() });

    expect(r.exitCode).toBe(0);
    // Masked before any line that could carry it.
    const lines = r.stdout.split('\n');
    const mask = lines.indexOf(`::add-mask::${PASSWORD}`);
    expect(mask).toBeGreaterThanOrEqual(0);
    expect(lines.findIndex((line) => line.includes('custom_url'))).toBeGreaterThan(mask);
    expect(r.outputs.url).toBe('https://preview.example/app');
    const deployment = JSON.parse(r.outputs.deployment ?? '{}') as {
      source_config: { custom_url: string };
    };
    expect(deployment.source_config.custom_url).toBe('https://preview.example/app');
    for (const status of gh.deployments[0]?.statuses ?? []) {
      expect(status.environment_url).toBe('https://preview.example/app');
    }
    expect(gh.deployments[0]?.statuses).toHaveLength(2);
    const comment = botComments()[0]?.body ?? '';
    expect(comment).toContain('(https://preview.example/app)');
    const everything = [printed(r), r.outputFile, r.summary, comment];
    everything.push(...gh.requests.map((request) => JSON.stringify(request.body ?? '')));
    for (const text of everything) expect(text).not.toContain('deployer:');
    expectNoSecret([PASSWORD, API_KEY], r, gh);
  });

  it.each(['javascript:alert(document.domain)', 'data:text/html,<script>alert(1)</script>'])(
    'a custom_url of %s is not published: environment_url falls back to the dashboard address',
    async (customUrl) => {
      const deployment = existing(NEW, { customUrl });

      const r = await run(
        { 'wait-for-ready': 'true', 'dashboard-url': DASHBOARD },
        { environment: 'production' },
        { event: pushEvent(NEW) },
      );

      expect(r.exitCode).toBe(0);
      const dashboard = `https://console.example/o/${TENANT_ID}/deployments/${deployment.id}`;
      expect(gh.deployments[0]?.statuses.map((status) => status.environment_url)).toEqual([
        dashboard,
        dashboard,
      ]);
      expect(r.outputs.url).toBe('');
      expect(r.outputs['dashboard-url']).toBe(dashboard);
      const published = JSON.parse(r.outputs.deployment ?? '{}') as {
        source_config: { custom_url: unknown };
      };
      expect(published.source_config.custom_url).toBeNull();
      expect(r.summary).not.toContain(customUrl.slice(0, 10));
      expect(r.stdout).toContain(
        "the service's custom_url of 'my-agent' is not published: it is not an http(s) address",
      );
    },
  );

  it('without a dashboard address, such a custom_url leaves environment_url out', async () => {
    existing(NEW, { customUrl: 'javascript:alert(1)' });

    const r = await run(
      { 'wait-for-ready': 'true' },
      { environment: 'production' },
      { event: pushEvent(NEW) },
    );

    expect(r.exitCode).toBe(0);
    const sent = gh.calls(/^POST .*\/deployments\/\d+\/statuses$/);
    expect(sent).toHaveLength(2);
    for (const call of sent) expect(call.body).not.toHaveProperty('environment_url');
  });
});
