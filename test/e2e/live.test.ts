/**
 * End-to-end: what green means (issue 9). The bundle under Node 24, with the
 * run's event as the runner gives it, against an emulator that builds a
 * revision for each push.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  printed,
  runAction,
  startAction,
  type ActionRun,
  type RunOptions,
  KILL_AFTER_MS,
} from '../support/run-action.ts';
import {
  INTEGRATION,
  codehostStep,
  AGENT_REPO_URL,
  seedAgentRepository,
} from '../support/fixtures.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { QUICK } from '../support/quick.ts';

const REPO = AGENT_REPO_URL;
const OLD = '1111111111111111111111111111111111111111';
const NEW = '2222222222222222222222222222222222222222';
const NEWER = '3333333333333333333333333333333333333333';
const MERGE = '9999999999999999999999999999999999999999';
const SECRET = 'sk-drift-0123456789abcdef';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator();
  seedAgentRepository(emu);
});

afterEach(async () => {
  await emu.close();
});

/**
 * The bundle as the runner starts it, checking every 100 ms instead of on the shipped schedule
 * (src/run/ports/pace.ts; test/run/decisions/wait.test.ts runs the shipped one on a fake clock): the same checks
 * and verdicts, without the real waiting between them.
 */
const quickly = (options: RunOptions = {}): RunOptions => ({
  ...options,
  env: { ...QUICK, ...options.env },
});
const quickRun = (given: Record<string, string>, options?: RunOptions) =>
  runAction(given, quickly(options));
const quickStart = (given: Record<string, string>, options?: RunOptions) =>
  startAction(given, quickly(options));

function step(extra: Record<string, string> = {}): Record<string, string> {
  return codehostStep(emu, { 'wait-for-ready': 'true', 'wait-timeout': '30', ...extra });
}

const pushTo = (branch: string, sha: string) => ({
  name: 'push',
  ref: `refs/heads/${branch}`,
  sha,
});

/** The deployment as an earlier run left it: live on `commit`, tracking `ref`. */
function existing(commit: string, options: { ref?: string; buildOnPush?: boolean } = {}) {
  return emu.seedDeployment({
    name: 'my-agent',
    source_config: {
      integration_id: INTEGRATION,
      repo_url: REPO,
      build_on_push: options.buildOnPush ?? true,
    },
    source_revision_config: {
      repo_ref: options.ref ?? 'main',
      agent_config_path: 'agent.json',
      repo_commit_sha: commit,
    },
  });
}

const polls = () => emu.requests.filter((request) => request.query.deployment_ids !== undefined);

/**
 * Resolves once `condition` holds, looking every 20 ms for at most 15 s: the look ends with
 * its test, never leaking into the next one.
 */
async function until(condition: () => boolean): Promise<void> {
  for (let looks = 0; looks < 750; looks++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the condition never held within 15 s');
}
const drift = (run: ActionRun) => JSON.parse(run.outputs.drift ?? 'null') as unknown;

describe('waiting for the commit of a push', () => {
  it('waits until the revision of the pushed commit is active', async () => {
    existing(OLD);
    emu.setOptions({ buildPolls: 2 });
    emu.push(REPO, 'main', NEW);

    const run = await quickRun(step(), { event: pushTo('main', NEW) });

    expect(run.error).toBeUndefined();
    expect(run.outputs).toMatchObject({ live: 'true', 'commit-sha': NEW, drift: '[]' });
    expect(run.outputs['active-revision-id']).toBe(run.outputs['latest-revision-id']);
    expect(polls().length).toBeGreaterThanOrEqual(2);
    expect(run.stdout).toMatch(/waiting until live: the latest revision .* is not active yet/);
  });

  it('fails at wait-timeout naming the revision whose build failed and the one still active', async () => {
    const deployment = existing(OLD);
    emu.push(REPO, 'main', NEW, { fail: true });
    const failed = emu.revisions(deployment.id).at(-1);

    const run = await quickRun(step({ 'wait-timeout': '2' }), { event: pushTo('main', NEW) });

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain(
      `the latest revision ${failed?.id} is not active yet (revision ${deployment.active_revision_id} still is; if it stays so, its build may have failed)`,
    );
    expect(run.outputs).toMatchObject({ live: 'false', 'deployment-id': deployment.id });
  });

  it('succeeds when a newer push supersedes the commit, and names the commit that is live', async () => {
    existing(OLD);
    // The emulator's time stands still until the test moves it: NEW's build cannot finish
    // before the step's first check, however slowly the machine starts the bundle.
    let time = Date.now();
    emu.setOptions({ buildMs: 1_500, now: () => time });
    emu.push(REPO, 'main', NEW);
    const started = quickStart(step(), { event: pushTo('main', NEW), killAfterMs: KILL_AFTER_MS });
    // The newer push lands while the step waits, and then its build is done.
    await Promise.race([until(() => polls().length > 0), started.finished]);
    emu.push(REPO, 'main', NEWER);
    time += 1_500;

    const run = await started.finished;

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ live: 'true', 'commit-sha': NEWER });
    expect(run.stdout).toContain(
      `commit ${NEW.slice(0, 12)} was superseded by a newer push: commit ${NEWER.slice(0, 12)} is live instead`,
    );
    expect(run.summary).toContain(`commit ${NEWER.slice(0, 12)} of a newer push is live`);
  });

  it('needs no status check when the commit is already live: 2 requests', async () => {
    existing(NEW);

    const run = await quickRun(step(), { event: pushTo('main', NEW) });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ live: 'true', 'commit-sha': NEW, created: 'false' });
    expect(emu.requests).toHaveLength(2);
  });

  it('fails at once on a commit build_on_push off will never build: not live, what runs, what to do', async () => {
    existing(OLD, { buildOnPush: false });

    const run = await quickRun(step(), { event: pushTo('main', NEW) });

    expect(run.exitCode).toBe(1);
    expect(drift(run)).toEqual([
      { field: 'source_revision_config.repo_commit_sha', wanted: NEW, live: OLD },
    ]);
    expect(run.outputs).toMatchObject({ live: 'false', 'commit-sha': OLD });
    expect(run.stdout).toMatch(
      /::warning::drift: source_revision_config\.repo_commit_sha.*build_on_push is off/,
    );
    expect(run.error).toBe(
      `Deployment 'my-agent' is not live and will not be: it runs commit ${OLD.slice(0, 12)} and the step asks for commit ${NEW.slice(0, 12)}, which the service will not build (build_on_push is off). The service cannot update a deployment, so what the step asks for will never run there. To fix it: turn build_on_push on for the deployment in the service (or set commit: none), or deploy under a new name.`,
    );
    expect(polls()).toHaveLength(0);
  });

  it('without wait-for-ready and with on-drift: warn, says it in one warning and is green with live false', async () => {
    existing(OLD, { buildOnPush: false });

    const run = await quickRun(step({ 'wait-for-ready': 'false', 'on-drift': 'warn' }), {
      event: pushTo('main', NEW),
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ live: 'false', 'commit-sha': OLD });
    const notLive = run.stdout
      .split('\n')
      .filter((line) => line.startsWith("::warning::Deployment 'my-agent' is not live"));
    expect(notLive).toHaveLength(1);
    expect(notLive[0]).toContain('build_on_push is off');
    expect(polls()).toHaveLength(0);
  });

  it('without wait-for-ready but with on-drift: fail, fails after the outputs, before any check', async () => {
    existing(OLD, { buildOnPush: false });

    const run = await quickRun(step({ 'wait-for-ready': 'false', 'on-drift': 'fail' }), {
      event: pushTo('main', NEW),
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({ live: 'false', 'commit-sha': OLD });
    expect(run.error).toContain("Deployment 'my-agent' is not live and will not be");
    expect(run.error).toContain('build_on_push is off');
    expect(polls()).toHaveLength(0);
  });

  it('reads build_on_push null as off', async () => {
    const deployment = existing(OLD);
    deployment.source_config.build_on_push = null;

    const run = await quickRun(step(), { event: pushTo('main', NEW) });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.live).toBe('false');
    expect(run.error).toContain('build_on_push is off');
  });

  it('waits on create until the first revision is active, not only READY', async () => {
    emu.setOptions({ readyAfterPolls: 0, buildPolls: 2 });
    emu.setHead(REPO, 'main', NEW);

    const run = await quickRun(step(), { event: pushTo('main', NEW) });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({
      created: 'true',
      live: 'true',
      'commit-sha': NEW,
      drift: '[]',
    });
    expect(polls().length).toBeGreaterThanOrEqual(3);
    expect(run.stdout).toMatch(/not active yet \(no revision is active yet/);
  });

  it('says when the commit is not live yet without waiting, and sets live=false', async () => {
    existing(OLD);
    emu.push(REPO, 'main', NEW);
    emu.setOptions({ buildPolls: 5 });

    const run = await quickRun(step({ 'wait-for-ready': 'false' }), {
      event: pushTo('main', NEW),
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.live).toBe('false');
    expect(run.stdout).toMatch(/::notice::commit 222222222222 is not live yet/);
  });
});

describe('which commit a run is for', () => {
  it('takes the pull request head sha, never the merge sha', async () => {
    existing(OLD, { ref: 'feature' });
    emu.setOptions({ buildPolls: 1 });
    emu.push(REPO, 'feature', NEW);

    const run = await quickRun(step({ 'repo-ref': 'feature' }), {
      event: {
        name: 'pull_request',
        ref: 'refs/pull/7/merge',
        sha: MERGE,
        payload: { number: 7, pull_request: { head: { ref: 'feature', sha: NEW } } },
      },
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['commit-sha']).toBe(NEW);
    expect(run.summary).toContain(NEW.slice(0, 12));
    expect(printed(run)).not.toContain(`commit ${MERGE.slice(0, 12)}`);
  });

  it('targets nothing for a pull request whose branch the deployment does not track', async () => {
    existing(OLD);

    const run = await quickRun(step(), {
      event: {
        name: 'pull_request',
        ref: 'refs/pull/8/merge',
        sha: MERGE,
        payload: { pull_request: { head: { ref: 'feature', sha: NEW } } },
      },
    });

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(
      'no commit is targeted: the run is for branch feature, and the deployment tracks main',
    );
    expect(run.outputs).toMatchObject({ live: 'true', 'commit-sha': OLD });
    expect(emu.requests).toHaveLength(2);
  });

  it('always targets an explicit sha, whatever the branch', async () => {
    existing(OLD);
    emu.setOptions({ buildPolls: 1 });
    emu.push(REPO, 'main', NEW);

    const run = await quickRun(step({ commit: NEW.toUpperCase() }), {
      event: pushTo('some-other-branch', MERGE),
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs['commit-sha']).toBe(NEW);
  });

  it.each([
    ['a short sha', { commit: NEW.slice(0, 7) }],
    ['a word', { commit: 'latest' }],
    ['a sha with another source', { commit: NEW, source: 'internal_docker', 'image-uri': 'img:1' }],
  ])('rejects %s before any request', async (_title, given) => {
    const run = await quickRun(step(given));

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain("input 'commit'");
    expect(emu.requests).toHaveLength(0);
  });
});

describe('drift on reuse', () => {
  it('warns for each difference, fills the drift output and the summary, and never shows a secret', async () => {
    const deployment = existing(OLD);
    deployment.secrets = [{ name: 'OLD_ONLY', value: 'old-secret-value-123' }];

    const run = await quickRun(
      step({
        'agent-config-path': 'new.json',
        secrets: `OPENAI_API_KEY=${SECRET}`,
        'wait-for-ready': 'false',
        commit: 'none',
      }),
    );

    expect(run.exitCode).toBe(0);
    expect(drift(run)).toEqual([
      { field: 'source_revision_config.agent_config_path', wanted: 'new.json', live: 'agent.json' },
      { field: 'secrets.OPENAI_API_KEY', wanted: '***', live: null },
      { field: 'secrets.OLD_ONLY', wanted: null, live: '***' },
    ]);
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning::drift: '));
    expect(warnings).toHaveLength(3);
    expect(run.summary).toContain('Drift: not applied');
    expect(run.summary).toContain('source_revision_config.agent_config_path');
    expectNoSecret([SECRET, 'old-secret-value-123'], run);
  });

  it('fails with on-drift: fail after reporting, outputs set, naming fields and the remedy', async () => {
    const deployment = existing(OLD);

    const run = await quickRun(
      step({ config: 'source_config:\n  resource_spec:\n    min_scale: 3\n', 'on-drift': 'fail' }),
    );

    expect(run.exitCode).toBe(1);
    expect(run.error).toBe(
      "Deployment 'my-agent' differs from what the step asks for (on-drift: fail): source_config.resource_spec. The service cannot update a deployment: change it in the service, or deploy under a new name.",
    );
    expect(run.outputs['deployment-id']).toBe(deployment.id);
    expect(drift(run)).toHaveLength(1);
  });

  it('fails at once, with on-drift: warn, on a revision the deployment will never take', async () => {
    const deployment = existing(OLD);

    const run = await quickRun(step({ 'agent-config-path': 'new.json', commit: 'none' }));

    expect(run.exitCode).toBe(1);
    expect(run.error).toBe(
      "Deployment 'my-agent' is not live and will not be: source_revision_config.agent_config_path is agent.json and the step asks for new.json. The service cannot update a deployment, so what the step asks for will never run there. To fix it: change the deployment in the service, or deploy under a new name.",
    );
    expect(run.outputs).toMatchObject({ 'deployment-id': deployment.id, live: 'false' });
    expect(drift(run)).toEqual([
      { field: 'source_revision_config.agent_config_path', wanted: 'new.json', live: 'agent.json' },
    ]);
    expect(polls()).toHaveLength(0);
  });

  it('finds none when only service defaults and number forms differ', async () => {
    const deployment = existing(OLD);
    deployment.source_config.resource_spec = { min_scale: 2, cpu: 2, memory_mb: 1024 };

    const run = await quickRun(
      step({ config: 'source_config:\n  resource_spec:\n    min_scale: 2\n    cpu: 2.0\n' }),
    );

    expect(run.exitCode).toBe(0);
    expect(drift(run)).toEqual([]);
    expect(run.stdout).not.toContain('::warning::drift');
  });

  it('reports drift in a dry run, which sends nothing', async () => {
    existing(OLD);

    const run = await quickRun(step({ 'agent-config-path': 'new.json', 'dry-run': 'true' }));

    expect(run.exitCode).toBe(0);
    expect(drift(run)).toHaveLength(1);
    expect(emu.requests.every((request) => request.method === 'GET')).toBe(true);
  });

  it('reports the live repository and ref on reuse, not what the step resolved', async () => {
    existing(OLD, { ref: 'master' });
    emu.deployments[0]!.source_config.repo_url = 'https://github.com/other-org/agent-app';

    const run = await quickRun(step({ 'wait-for-ready': 'false' }));

    expect(run.outputs['repo-url']).toBe('https://github.com/other-org/agent-app');
    expect(run.outputs['repo-ref']).toBe('master');
    expect(drift(run)).toEqual([
      {
        field: 'source_config.repo_url',
        wanted: REPO,
        live: 'https://github.com/other-org/agent-app',
      },
    ]);
  });
});

describe('statuses the action does not know', () => {
  it('waits through them, logging the status', async () => {
    existing(OLD).status = 'MIGRATING';
    emu.setOptions({ readyAfterPolls: 2 });

    const run = await quickRun(step({ commit: 'none' }));

    expect(run.exitCode).toBe(0);
    expect(run.outputs.status).toBe('READY');
    expect(run.stdout).toContain(
      'status MIGRATING is not one this release knows: waiting through it',
    );
  });
});
