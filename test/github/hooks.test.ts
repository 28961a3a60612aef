/**
 * The GitHub side of a run against the GitHub emulator over real HTTP, with
 * the real Octokit: the record and its statuses, the comment's one walk and
 * two writes, the commit order, and every fault as one advisory warning.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/github/client/calls.ts';
import { RUN_BUDGET_MS } from '../../src/github/client/budget.ts';
import { marker } from '../../src/github/features/comment-marker.ts';
import type { RunReport } from '../../src/run/ports/progress.ts';
import type { GitHubRunContext } from '../../src/github/features/context.ts';
import { CommitOrders } from '../../src/github/features/commit-order.ts';
import { DeployReport, FLAT_KEY } from '../../src/github/features/deploy-report.ts';
import { deployHooks } from '../../src/github/deploy-hooks.ts';
import { gitHubApi, type HookDependencies } from '../../src/github/hooks.ts';
import { retireHooks } from '../../src/github/retire-hooks.ts';
import type { GitHubApi } from '../../src/github/client/api.ts';
import { markInactive } from '../../src/github/features/retire-records.ts';
import { aDeployment } from '../support/fixtures.ts';
import type { GitHubSettings } from '../../src/github/inputs.ts';
import { systemClock, type Logger } from '../../src/common/runtime.ts';
import {
  GITHUB_ACTIONS_BOT,
  rateLimited,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import { retireOne } from '../support/recording-runner.ts';

const TOKEN = 'ghs_workflow_token';
const SHA = 'c0ffee0123456789c0ffee0123456789c0ffee01';
const NAME = 'my-agent-pr-7';

let gh: GitHubEmulator;
let lines: { level: keyof Logger; message: string }[];

beforeEach(async () => {
  gh = await startGitHubEmulator();
  gh.addToken(TOKEN, GITHUB_ACTIONS_BOT);
  lines = [];
});
afterEach(() => gh.close());

const logger: Logger = {
  info: (message) => lines.push({ level: 'info', message }),
  notice: (message) => lines.push({ level: 'notice', message }),
  warning: (message) => lines.push({ level: 'warning', message }),
  debug: (message) => lines.push({ level: 'debug', message }),
};
const warnings = () => lines.filter((l) => l.level === 'warning').map((l) => l.message);

function context(overrides: Partial<GitHubRunContext> = {}): GitHubRunContext {
  return {
    repository: { owner: 'acme', repo: 'agent' },
    sha: SHA,
    pullRequest: 7,
    fork: false,
    runUrl: 'https://github.com/acme/agent/actions/runs/42',
    apiUrl: gh.url,
    ...overrides,
  };
}

const features: GitHubSettings = { token: TOKEN, environment: 'preview-pr-7', comment: true };

/** A deploy's features over one API, as deployHooks makes them. */
interface Deploy {
  api: GitHubApi;
  report: DeployReport;
  orders: CommitOrders;
}

function reporter(
  overrides: Partial<GitHubRunContext> = {},
  wanted: Partial<GitHubSettings> = {},
  dependencies: Partial<HookDependencies> = {},
): Deploy {
  const settings = { ...features, ...wanted };
  const at = context(overrides);
  const made: HookDependencies = {
    logger,
    clock: systemClock,
    redact: (text) => text.replaceAll('s3cr3t-value', '***'),
    ...dependencies,
  };
  const api = gitHubApi(settings.token, at, made);
  return { api, report: new DeployReport(api, at, settings, made), orders: new CommitOrders(api) };
}

const deployed: RunReport = {
  name: NAME,
  stage: 'deploying',
  id: 'd-1',
  status: 'AWAITING_DATABASE',
  created: true,
  targetCommit: SHA,
  waitingFor: `commit ${SHA.slice(0, 12)} to be live`,
  drift: [],
  dashboardUrl: 'https://console.example/deployments/d-1',
};
const live: RunReport = { ...deployed, stage: 'live', status: 'READY', liveCommit: SHA };

async function run({ report }: Deploy, end: RunReport = live): Promise<void> {
  report.deployed(deployed);
  await report.finished(end);
}

const writes = () => gh.calls(/^(POST|PATCH) \/repos\/acme\/agent\/issues\//);

describe('deployment record', () => {
  it('creates the deployment for the run’s commit, in_progress, then success with auto_inactive', async () => {
    const r = reporter();
    await run(r);
    expect(gh.deployments).toHaveLength(1);
    const record = gh.deployments[0]!;
    expect(r.report.recordIds.get(FLAT_KEY)).toBe(record.id);
    expect(record).toMatchObject({
      ref: SHA,
      environment: 'preview-pr-7',
      transient_environment: true,
      auto_merge: false,
      required_contexts: [],
      payload: { id: 'd-1', name: NAME },
    });
    expect(record.description).toContain(NAME);
    expect(record.statuses.map((s) => s.state)).toEqual(['in_progress', 'success']);
    for (const status of record.statuses) {
      expect(status.log_url).toBe('https://github.com/acme/agent/actions/runs/42');
      expect(status.environment_url).toBe('https://console.example/deployments/d-1');
      expect(status.description.length).toBeLessThanOrEqual(140);
    }
    expect(record.statuses[1]?.auto_inactive).toBe(true);
    expect(record.statuses[0]?.description).toBe(
      `${NAME}: deploying (commit ${SHA.slice(0, 12)} to be live)`,
    );
    expect(record.statuses[1]?.description).toBe(`${NAME} is live at commit c0ffee012345`);
    expect(warnings()).toEqual([]);
  });

  it('prefers the deployment’s own address for environment_url; no transient environment off a pull request', async () => {
    await run(reporter({ pullRequest: undefined }, { comment: false }), {
      ...live,
      url: 'https://my-agent.example',
    });
    const record = gh.deployments[0]!;
    expect(record.transient_environment).toBe(false);
    expect(record.statuses[1]?.environment_url).toBe('https://my-agent.example');
  });

  it.each([
    ['failed', 'failure'],
    ['cancelled', 'error'],
    ['not-live', 'in_progress'],
  ] as const)('ends a %s run with a %s status', async (stage, state) => {
    await run(reporter({}, { comment: false }), {
      ...deployed,
      stage,
      failure: `timed out; the service said s3cr3t-value ${'x'.repeat(300)}`,
    });
    const last = gh.deployments[0]!.statuses.at(-1)!;
    expect(last.state).toBe(state);
    expect(last.description.length).toBeLessThanOrEqual(140);
    expect(last.description).not.toContain('s3cr3t-value');
    if (stage === 'not-live')
      expect(last.description).toContain('not live yet; the step did not wait');
    expect(last.auto_inactive).toBeUndefined();
  });

  it('a token without deployments: write: one warning naming the call, the status and the permissions line', async () => {
    gh.addToken('narrow', { ...GITHUB_ACTIONS_BOT, permissions: { deployments: 'read' } });
    const r = reporter({}, { token: 'narrow' });
    await run(r);
    expect(r.report.recordIds.get(FLAT_KEY)).toBeUndefined();
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toContain(
      'POST /repos/acme/agent/deployments: 403 Resource not accessible by integration',
    );
    expect(warnings()[0]).toContain('`deployments: write`');
    expect(gh.calls('POST /repos/acme/agent/deployments')).toHaveLength(1); // a 403 is not retried
    expect(gh.comments).toHaveLength(1); // the comment is a feature of its own
  });

  it('on a fork’s pull request, the warning says the token is read-only', async () => {
    gh.addToken('fork', {
      ...GITHUB_ACTIONS_BOT,
      permissions: { deployments: 'read', 'pull-requests': 'read', contents: 'read' },
    });
    await run(reporter({ fork: true }, { token: 'fork' }));
    expect(warnings()).toHaveLength(2);
    for (const warning of warnings())
      expect(warning).toContain('from a fork: GitHub gives it a read-only token');
  });
});

describe('pull request comment', () => {
  it('creates one comment when found or created, and updates it once at the end', async () => {
    await run(reporter({}, { environment: '' }));
    expect(writes().map((w) => w.method)).toEqual(['POST', 'PATCH']);
    expect(gh.comments).toHaveLength(1);
    const body = gh.comments[0]!.body;
    expect(body.startsWith(marker(NAME))).toBe(true);
    expect(body).toContain('is live');
    expect(gh.calls(/comments$/).filter((c) => c.method === 'GET')).toHaveLength(1);
    expect(gh.calls('POST /graphql')).toHaveLength(1);
  });

  it('a second run finds its comment and only updates it (no comment spam)', async () => {
    await run(reporter({}, { environment: '' }));
    await run(reporter({}, { environment: '' }), { ...live, stage: 'failed', failure: 'boom' });
    expect(gh.comments).toHaveLength(1);
    expect(writes().map((w) => w.method)).toEqual(['POST', 'PATCH', 'PATCH', 'PATCH']);
    expect(gh.comments[0]!.body).toContain('boom');
  });

  it('walks every page once to find its comment, and leaves foreign comments with the marker alone', async () => {
    const foreign = gh.seedComment('acme/agent', 7, `${marker(NAME)}\nfake by someone`, {
      login: 'mallory',
    });
    const impostor = gh.seedComment(
      'acme/agent',
      7,
      `${marker(NAME)}\nfrom a user named like the bot`,
      {
        login: 'github-actions',
        type: 'User',
      },
    );
    gh.seedComments('acme/agent', 7, 240);
    const mine = gh.seedComment('acme/agent', 7, `${marker(NAME)}\nold`, {
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    const other = gh.seedComment('acme/agent', 7, `${marker('my-agent')}\nanother app`, {
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    await run(reporter({}, { environment: '' }));
    const pages = gh.calls('GET /repos/acme/agent/issues/7/comments').map((c) => c.query.page);
    expect(pages).toEqual(['1', '2', '3']);
    expect(
      gh.calls('GET /repos/acme/agent/issues/7/comments').every((c) => c.query.per_page === '100'),
    ).toBe(true);
    expect(writes().map((w) => `${w.method} ${w.path}`)).toEqual([
      `PATCH /repos/acme/agent/issues/comments/${mine.id}`,
      `PATCH /repos/acme/agent/issues/comments/${mine.id}`,
    ]);
    expect(foreign.body).toContain('fake by someone');
    expect(impostor.body).toContain('from a user named like the bot');
    expect(other.body).toContain('another app');
    expect(mine.body).toContain('is live');
  });

  it('stops after 10 pages of 100, and then writes nothing (it could be a second comment)', async () => {
    gh.seedComments('acme/agent', 7, 1_050);
    await run(reporter({}, { environment: '' }));
    expect(gh.calls('GET /repos/acme/agent/issues/7/comments')).toHaveLength(10);
    expect(writes()).toEqual([]);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toContain('more than 1000 comments');
  });

  it('without pull-requests: write: one warning with the permissions line, and no second try at the end', async () => {
    gh.addToken('narrow', { ...GITHUB_ACTIONS_BOT, permissions: { 'pull-requests': 'read' } });
    await run(reporter({}, { token: 'narrow', environment: '' }));
    expect(writes()).toHaveLength(1);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toContain('POST /repos/acme/agent/issues/7/comments: 403');
    expect(warnings()[0]).toContain('`pull-requests: write`');
  });

  it('finds its own comment when GraphQL names the bot without the [bot] suffix', async () => {
    gh.addToken('bare', { ...GITHUB_ACTIONS_BOT, viewerLogin: 'github-actions' });
    const mine = gh.seedComment('acme/agent', 7, `${marker(NAME)}\nold`, {
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    await run(reporter({}, { token: 'bare', environment: '' }));
    expect(gh.comments).toHaveLength(1);
    expect(mine.body).toContain('is live');
  });

  it('works for a personal token too: its own comments are the user’s', async () => {
    gh.addToken('ghp_pat', { login: 'octocat', type: 'User' });
    gh.seedComment('acme/agent', 7, `${marker(NAME)}\nby the bot, not by this token`, {
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    await run(reporter({}, { token: 'ghp_pat', environment: '' }));
    expect(gh.comments).toHaveLength(2);
    expect(gh.comments[1]?.user.login).toBe('octocat');
    expect(gh.comments[0]?.body).toContain('by the bot');
  });

  it('a run that failed before the deploy writes one comment with the reason', async () => {
    await reporter({}, { environment: '' }).report.finished({
      name: NAME,
      stage: 'failed',
      failure: '401 Unauthorized from GET /v2/deployments: check the api-key input',
      drift: [],
    });
    expect(writes().map((w) => w.method)).toEqual(['POST']);
    expect(gh.comments[0]?.body).toContain('check the api-key input');
  });
});

/** Bounds long enough that a hanging call ends only when the run is cancelled. */
const HOUR_LIMITS = { ...DEFAULT_LIMITS, attemptMs: 3_600_000, callMs: 3_600_000 };

/** `promise`, or a failure after 10 s (below the test's timeout) when it has not settled. */
async function endsBeforeTheTest(promise: Promise<void>): Promise<void> {
  let bound: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    bound = setTimeout(() => reject(new Error('still waiting after 10 s')), 10_000);
  });
  await Promise.race([promise, late]).finally(() => clearTimeout(bound));
}

describe('faults', () => {
  it('retries a 502 once, and warns once when the second attempt fails too', async () => {
    gh.inject({ method: 'POST', path: '/repos/acme/agent/deployments', status: 502 });
    await run(reporter({}, { comment: false }), live);
    expect(gh.calls('POST /repos/acme/agent/deployments')).toHaveLength(2);
    expect(gh.deployments).toHaveLength(1);
    expect(warnings()).toEqual([]);

    gh.inject({ method: 'POST', path: '/repos/acme/agent/deployments', status: 502, times: 2 });
    await run(reporter({}, { comment: false }), live);
    expect(gh.calls('POST /repos/acme/agent/deployments')).toHaveLength(4);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toContain(
      'POST /repos/acme/agent/deployments: 502 Server Error (2 attempts)',
    );
  });

  it('an unknown token: one warning that names github-token, and nothing more is tried after it', async () => {
    await run(reporter({}, { token: 'ghp_revoked' }));
    expect(warnings()).toHaveLength(2); // the record and the comment each say so once
    for (const warning of warnings()) {
      expect(warning).toContain('401 Bad credentials');
      expect(warning).toContain('github-token');
    }
    expect(gh.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/acme/agent/deployments',
      'POST /graphql',
    ]);
  });

  it('a hanging GitHub: every call bounded, all of it within the run’s budget', async () => {
    gh.inject({ hang: true, times: Infinity });
    // Judged by attempts, not time: a budget of 500 ms pays for one 300 ms attempt and for
    // what is left (200 ms) of the other call's; no retry fits after them (unbudgeted: four).
    const r = reporter(
      {},
      {},
      {
        apiOptions: { limits: { attemptMs: 300, callMs: 10_000, retryDelayMs: 50 } },
        budgetMs: 500,
      },
    );
    r.report.deployed(deployed);
    await r.report.finished(live);
    expect(gh.requests).toHaveLength(2);
    // One attempt each (a second is said as '(2 attempts)'), each bounded by its window.
    const bounds = warnings().map((w) => /no answer: timed out after (\S+) s\. /.exec(w)?.[1]);
    expect(bounds.sort()).toEqual(['0.2', '0.3']);
  });

  it('the default bounds are those of the contract', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ attempts: 2, callMs: 10_000 });
    expect(DEFAULT_LIMITS.attemptMs * DEFAULT_LIMITS.attempts).toBeLessThanOrEqual(10_000);
    expect(RUN_BUDGET_MS).toBe(15_000);
  });

  it('a rate limit: retried when GitHub’s wait fits, else one warning and no wait', async () => {
    gh.inject({ path: '/repos/acme/agent/deployments', ...rateLimited(429, 0) });
    await run(reporter({}, { comment: false }), live);
    expect(gh.calls('POST /repos/acme/agent/deployments')).toHaveLength(2);
    expect(warnings()).toEqual([]);

    gh.inject({ path: '/repos/acme/agent/deployments', ...rateLimited(403, 3_600) });
    await run(reporter({}, { comment: false }), live);
    // No wait and no retry: one more attempt only (a wait of an hour would outlast the test).
    expect(gh.calls('POST /repos/acme/agent/deployments')).toHaveLength(3);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toContain('rate-limits this token');
  });

  it('a cancelled run ends at once, even while its error status hangs', async () => {
    const r = reporter({}, { comment: false }, { apiOptions: { limits: HOUR_LIMITS } });
    r.report.deployed(deployed);
    await expect.poll(() => gh.deployments[0]?.statuses.length ?? 0).toBe(1);
    gh.inject({ method: 'POST', path: /\/statuses$/, hang: true });
    // A progress status would hang here (for an hour: only the cancel can end it); the cancel
    // goes around it.
    await endsBeforeTheTest(r.report.finished({ ...deployed, stage: 'cancelled' }));
  });

  it('a cancelled run writes its error status at once, even while a call hangs', async () => {
    const r = reporter({}, { comment: false }, { apiOptions: { limits: HOUR_LIMITS } });
    gh.inject({ method: 'POST', path: /\/statuses$/, hang: true });
    r.report.deployed(deployed);
    // The in_progress status is under way, and hangs.
    await expect.poll(() => gh.calls(/\/statuses$/).length).toBe(1);
    await endsBeforeTheTest(r.report.finished({ ...deployed, stage: 'cancelled' }));
    expect(gh.calls(/\/statuses$/)).toHaveLength(2);
    expect(gh.deployments[0]?.statuses.map((status) => status.state)).toEqual(['error']);
  });
});

describe('commit order', () => {
  const [a, b, c] = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)];

  it('newer when the latest commit is ahead of the target, older when behind, asked once a pair', async () => {
    gh.chain(a, b, c);
    gh.commit('d'.repeat(40), [a]);
    const r = reporter({}, { environment: '', comment: false });
    const repo = 'acme/agent';
    expect(await r.orders.ask(repo, a, c)).toBe('newer');
    expect(await r.orders.ask(repo, c, b)).toBe('older');
    expect(await r.orders.ask(repo, c, 'd'.repeat(40))).toBeUndefined();
    expect(await r.orders.ask(repo, b, b)).toBeUndefined();
    expect(await r.orders.ask(repo, a, c)).toBe('newer');
    expect(gh.calls(/^GET \/repos\/acme\/agent\/compare\//)).toHaveLength(4);
    expect(gh.calls(/compare/)[0]?.path).toBe(`/repos/acme/agent/compare/${a}...${c}`);
    // The core writes the one debug line an unknown order gets; the feature says nothing.
    expect(lines.filter((l) => l.level === 'debug')).toEqual([]);
    expect(warnings()).toEqual([]);
  });

  it('unknown, and no line, for an unknown commit, a repository the token cannot read or a malformed name', async () => {
    gh.chain(a, b);
    gh.addToken('narrow', { ...GITHUB_ACTIONS_BOT, repositories: ['acme/agent'] });
    const r = reporter({}, { token: 'narrow', environment: '', comment: false });
    expect(await r.orders.ask('acme/agent', a, c)).toBeUndefined();
    expect(await r.orders.ask('acme/other', a, b)).toBeUndefined();
    expect(await r.orders.ask('acme', a, b)).toBeUndefined();
    expect(gh.calls(/compare/)).toHaveLength(2);
    expect(lines).toEqual([]);
  });
});

const dependencies = (): HookDependencies => ({
  logger,
  clock: systemClock,
  redact: (t) => t,
});

describe('wiring', () => {
  it('no token: skipped with one notice, no hook, no request', () => {
    const hooks = deployHooks({ ...features, token: '' })(context(), dependencies());
    expect(hooks).toEqual({ api: undefined });
    expect(lines).toEqual([
      {
        level: 'notice',
        message:
          'github-token is empty: the GitHub deployment record and the pull request comment are skipped.',
      },
    ]);
    expect(gh.requests).toEqual([]);
  });

  it('pr-comment off a pull request: one debug line; commit order only, and no API until asked', async () => {
    gh.chain('a'.repeat(40), 'b'.repeat(40));
    const hooks = deployHooks({ ...features, environment: '' })(
      context({ pullRequest: undefined }),
      dependencies(),
    );
    expect(lines).toEqual([
      { level: 'debug', message: 'pr-comment is ignored: the run is not for a pull request' },
    ]);
    expect(hooks.view).toBeUndefined();
    expect(hooks.api?.()).toBeUndefined();
    expect(await hooks.commitOrder?.('acme/agent', 'a'.repeat(40), 'b'.repeat(40))).toBe('newer');
    expect(hooks.api?.()?.requests).toBe(1);
  });

  it('tells the GitHub deployment id once it is recorded', async () => {
    const ids: number[] = [];
    const hooks = deployHooks({ ...features, comment: false })(context(), {
      ...dependencies(),
      onRecorded: (id) => ids.push(id),
    });
    await hooks.view?.({ kind: 'deployed', report: deployed });
    await hooks.view?.({ kind: 'finished', report: live });
    expect(ids).toEqual([gh.deployments[0]?.id]);
  });

  it('loads Octokit on the first call only, and never for a run that makes none', async () => {
    let loads = 0;
    const load = async () => {
      loads += 1;
      return import('@actions/github');
    };
    const idle = reporter({}, {}, { apiOptions: { load } });
    expect(idle.report.recordIds.get(FLAT_KEY)).toBeUndefined();
    expect(loads).toBe(0);
    await run(reporter({}, {}, { apiOptions: { load } }));
    expect(loads).toBe(1);
  });
});

describe('retiring a preview (the retire step)', () => {
  const retiring: GitHubSettings = features;
  const report = {
    name: NAME,
    deployments: [
      {
        deployment: aDeployment({ id: '0b7e1c5a-3f2d-4e6a-9b8c-1d2e3f4a5b6c', status: 'READY' }),
      },
    ],
  };

  it('gives the retire step its one hook, and names what an empty token skips', () => {
    const hooks = retireHooks(retiring)(context(), dependencies());
    expect(Object.keys(hooks).filter((key) => key !== 'api')).toEqual(['retired']);
    const none = retireHooks({ ...retiring, token: '' })(context(), dependencies());
    expect(none.retired).toBeUndefined();
    expect(lines.filter((l) => l.level === 'notice').map((l) => l.message)).toEqual([
      "github-token is empty: marking the GitHub deployments of 'preview-pr-7' inactive and rewriting the preview comment are skipped.",
    ]);
  });

  it('off a pull request, marks the records and writes no comment', async () => {
    const records = gh.seedDeployments('acme/agent', 'preview-pr-7', 2);
    const hooks = retireHooks(retiring)(context({ pullRequest: undefined }), dependencies());
    const retired = await retireOne(hooks.retired, report);
    expect(retired).toEqual({
      environment: 'preview-pr-7',
      found: 2,
      inactive: 2,
      alreadyInactive: 0,
      more: false,
      comment: 'skipped',
    });
    expect(records.map((record) => gh.stateOf(record.id))).toEqual(['inactive', 'inactive']);
    expect(gh.calls(/comments|graphql/)).toHaveLength(0);
  });

  it('warns when the pull request is still open: the step is meant for closed ones', async () => {
    const hooks = retireHooks(retiring)(context({ pullRequestState: 'open' }), dependencies());
    await retireOne(hooks.retired, report);
    expect(warnings()).toEqual([
      'pull request #7 is still open, and its preview is retired all the same: run the retire step on `pull_request: types: [closed]`.',
    ]);
  });

  it('reads no further than its page cap, newest first, and says so once', async () => {
    const records = gh.seedDeployments('acme/agent', 'preview-pr-7', 101);
    const api = reporter({}, retiring).api;
    const marked = await markInactive(
      api,
      { owner: 'acme', repo: 'agent' },
      'preview-pr-7',
      { description: 'retired' },
      logger,
      1,
    );
    expect(marked).toEqual({ found: 100, inactive: 100, already: 0, more: true });
    expect(gh.stateOf(records[0]?.id ?? 0)).toBe('success');
    expect(gh.stateOf(records[100]?.id ?? 0)).toBe('inactive');
    expect(warnings()).toEqual([
      "GitHub: environment 'preview-pr-7' has more than 100 deployments; the step read the newest 100 and no further, so older ones may still show as active.",
    ]);
  });

  it('under a GitHub that never answers, gives up after its first attempts, with warnings', async () => {
    gh.seedDeployments('acme/agent', 'preview-pr-7', 3);
    gh.inject({ hang: true, times: Infinity });
    const hooks = retireHooks(retiring)(context(), { ...dependencies(), budgetMs: 1_500 });
    const retired = await retireOne(hooks.retired, report);
    expect(retired).toMatchObject({ found: 0, inactive: 0, comment: 'failed' });
    // At most 2 attempts of each of the two first calls (the listing, the viewer).
    expect(gh.requests.length).toBeLessThanOrEqual(4);
    expect(warnings().join('\n')).toContain('no answer: timed out');
  });
});
