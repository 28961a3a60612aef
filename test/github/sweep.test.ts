/**
 * The GitHub side of the sweep (orphans found and retired, never deleted) against
 * the GitHub emulator over real HTTP, with the real Octokit: the pull
 * requests' states, one GraphQL query per 100, and the one failure that is
 * not advisory; each orphan retired with its own pull request and
 * environment; and a second sweep that writes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionError } from '../../src/common/errors.ts';
import { systemClock, type Logger } from '../../src/common/runtime.ts';
import { marker } from '../../src/github/features/comment-marker.ts';
import type { GitHubSettings } from '../../src/github/inputs.ts';
import type { GitHubHooks, HookDependencies } from '../../src/github/hooks.ts';
import { retireHooks } from '../../src/github/retire-hooks.ts';
import { sweepHooks, type SweepSettings } from '../../src/github/sweep-hooks.ts';
import {
  graphqlAnswer,
  pullRequestStatesQuery,
  MAX_PULL_REQUESTS_PER_QUERY,
} from '../../src/github/client/pull-request-states.ts';
import type { GitHubRunContext } from '../../src/github/features/context.ts';
import { retiredCommentBody, sameRetiredBody } from '../../src/github/features/retire-comment.ts';
import type { RetireReport } from '../../src/run/ports/progress.ts';
import { aDeployment } from '../support/fixtures.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import { retireOne } from '../support/recording-runner.ts';

const TOKEN = 'ghs_workflow_token';
const BOT = { login: 'github-actions[bot]', type: 'Bot' as const };

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

/** A scheduled run: a repository, no pull request. */
function context(runId = 42): GitHubRunContext {
  return {
    repository: { owner: 'acme', repo: 'agent' },
    sha: 'c0ffee0123456789c0ffee0123456789c0ffee01',
    fork: false,
    runUrl: `https://github.com/acme/agent/actions/runs/${runId}`,
    apiUrl: gh.url,
  };
}

const sweeping: SweepSettings = { token: TOKEN, comment: true };

function hooks(
  settings: SweepSettings = sweeping,
  dependencies: Partial<HookDependencies> = {},
  runId = 42,
): GitHubHooks {
  return sweepHooks(settings)(context(runId), {
    logger,
    clock: systemClock,
    redact: (text) => text,
    ...dependencies,
  });
}

async function statesOf(numbers: number[], made: GitHubHooks = hooks()) {
  const states = await made.pullRequestStates?.(numbers);
  if (states === undefined) throw new Error('no pullRequestStates hook');
  return states;
}

/** What the states query throws, or undefined. */
async function refusal(made: GitHubHooks, numbers = [1]): Promise<unknown> {
  try {
    await made.pullRequestStates?.(numbers);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe("the pull requests' states", () => {
  it('maps each of GitHub’s states, a closed one with its close and a merged one with its merge', async () => {
    gh.seedPullRequest('acme/agent', 1, 'open');
    gh.seedPullRequest('acme/agent', 2, 'closed', '2026-11-01T10:00:00Z');
    gh.seedPullRequest('acme/agent', 3, 'merged', '2026-11-02T11:00:00Z');

    const states = await statesOf([1, 2, 3, 4]);

    expect([...states.values()]).toEqual([
      { number: 1, state: 'open' },
      { number: 2, state: 'closed', closedAt: '2026-11-01T10:00:00Z' },
      { number: 3, state: 'merged', closedAt: '2026-11-02T11:00:00Z' },
      // GitHub knows no pull request 4: a null field and a NOT_FOUND error beside the data.
      { number: 4, state: 'unknown' },
    ]);
    expect(gh.stateQueries()).toHaveLength(1);
    expect(gh.stateQueries()[0]?.body).toMatchObject({
      variables: { owner: 'acme', name: 'agent' },
    });
    expect(warnings()).toEqual([]);
  });

  it('asks at most 100 pull requests a query: 250 numbers are 3 queries', async () => {
    const numbers = Array.from({ length: 250 }, (_, i) => i + 1);
    for (const number of numbers) {
      gh.seedPullRequest('acme/agent', number, number % 2 === 0 ? 'merged' : 'open');
    }

    const states = await statesOf([...numbers, 7, 7]);

    const queries = gh.stateQueries().map((request) => (request.body as { query: string }).query);
    expect(queries).toHaveLength(3);
    const asked = queries.map((query) => query.match(/pullRequest\(number: \d+\)/g)?.length);
    expect(asked).toEqual([100, 100, 50]);
    expect(states.size).toBe(250);
    expect(states.get(250)?.state).toBe('merged');
    expect(states.get(249)?.state).toBe('open');
  });

  it('asks nothing for no numbers', async () => {
    expect((await statesOf([])).size).toBe(0);
    expect(gh.requests).toEqual([]);
  });

  it('refuses a number that is not a pull request’s before any request', async () => {
    const error = await refusal(hooks(), [3, 0]);
    expect(error).toBeInstanceOf(RangeError);
    expect(() => pullRequestStatesQuery([1.5])).toThrow(RangeError);
    expect(gh.requests).toEqual([]);
  });

  it('trusts no node about another number than the one asked: that one is unknown', async () => {
    gh.seedPullRequest('acme/agent', 5, 'open');
    gh.seedPullRequest('acme/agent', 6, 'closed', '2026-11-01T10:00:00Z');
    gh.inject({
      method: 'POST',
      path: '/graphql',
      rewrite: (body) => {
        const { repository } = (body as { data: { repository: Record<string, unknown> } }).data;
        repository.pr5 = repository.pr6;
        return body;
      },
    });

    const states = await statesOf([5, 6]);

    expect([...states.values()]).toEqual([
      { number: 5, state: 'unknown', answeredFor: 6 },
      { number: 6, state: 'closed', closedAt: '2026-11-01T10:00:00Z' },
    ]);
  });

  it("refuses a number beyond GraphQL's Int before any request; it would reject the whole query", async () => {
    expect(() => pullRequestStatesQuery([2_147_483_647])).not.toThrow();
    expect(() => pullRequestStatesQuery([2_147_483_648])).toThrow(RangeError);
    expect(await refusal(hooks(), [1, 2 ** 53 + 2])).toBeInstanceOf(RangeError);
    expect(gh.requests).toEqual([]);
  });

  it('says GitHub rejected the query as invalid, with its message as untrusted text, naming no permission', async () => {
    gh.inject({
      method: 'POST',
      path: '/graphql',
      status: 200,
      body: {
        errors: [
          {
            path: ['query', 'repository', 'pr1', 'number'],
            extensions: { code: 'argumentLiteralsIncompatible' },
            message: "Argument 'number' on Field 'pr1' has an invalid value.\n::error::x",
          },
        ],
      },
    });

    const error = await refusal(hooks());

    expect(error).toBeInstanceOf(ActionError);
    const { message } = error as Error;
    expect(message).toMatch(
      /^GitHub rejected the pull requests' states query as invalid: POST \/graphql: Argument 'number' on Field 'pr1' has an invalid value\.\\n::error::x\. /,
    );
    expect(message).not.toContain('\n');
    expect(message).not.toContain('pull-requests: read');
    // Invalid is invalid: asking again would get the same answer.
    expect(gh.stateQueries()).toHaveLength(1);
  });

  it('throws an ActionError naming `pull-requests: read` when GitHub answers 403', async () => {
    gh.inject({ method: 'POST', path: '/graphql', status: 403 });

    const error = await refusal(hooks());

    expect(error).toBeInstanceOf(ActionError);
    expect(String((error as Error).message)).toContain('pull-requests: read');
    expect(String((error as Error).message)).toContain(
      '403 Resource not accessible by integration',
    );
    // A refusal is not retried, and the failure is the error's, not a warning.
    expect(gh.stateQueries()).toHaveLength(1);
    expect(warnings()).toEqual([]);
  });

  it('throws the same for a token without the permission (GraphQL’s FORBIDDEN) and for a 401', async () => {
    gh.addToken(TOKEN, { ...GITHUB_ACTIONS_BOT, permissions: { 'pull-requests': 'none' } });
    const forbidden = await refusal(hooks());
    expect(forbidden).toBeInstanceOf(ActionError);
    expect((forbidden as Error).message).toContain('pull-requests: read');

    const unknownToken = await refusal(hooks({ ...sweeping, token: 'ghs_not_known' }));
    expect(unknownToken).toBeInstanceOf(ActionError);
    expect((unknownToken as Error).message).toContain('github-token');
    expect((unknownToken as Error).message).toContain('pull-requests: read');
  });

  it('throws when a repository is not visible to the token', async () => {
    gh.addToken(TOKEN, { ...GITHUB_ACTIONS_BOT, repositories: ['acme/other'] });
    const error = await refusal(hooks());
    expect(error).toBeInstanceOf(ActionError);
    expect((error as Error).message).toContain('404');
  });

  it('throws after its attempts when GitHub does not answer in time', async () => {
    gh.inject({ method: 'POST', path: '/graphql', hang: true, times: Infinity });
    const limits = { attempts: 2, attemptMs: 100, callMs: 1_000, retryDelayMs: 10 };

    const error = await refusal(hooks(sweeping, { apiOptions: { limits } }));

    expect(error).toBeInstanceOf(ActionError);
    expect((error as Error).message).toContain('timed out');
    expect((error as Error).message).toContain('pull-requests: read');
    expect(gh.stateQueries()).toHaveLength(2);
  });

  it("throws without a request once the run's GitHub budget is spent", async () => {
    const error = await refusal(hooks(sweeping, { budgetMs: 0 }));
    expect(error).toBeInstanceOf(ActionError);
    expect((error as Error).message).toContain('not sent');
    expect((error as Error).message).toContain('pull-requests: read');
    expect(gh.requests).toEqual([]);
  });

  it('without a token, the hook is still there and throws naming github-token, with no request', async () => {
    const made = hooks({ ...sweeping, token: '' });
    expect(made.retired).toBeUndefined();
    const error = await refusal(made);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as Error).message).toContain('github-token is empty');
    expect((error as Error).message).toContain('pull-requests: read');
    expect(gh.requests).toEqual([]);
  });

  it('reads a partial GraphQL answer: NOT_FOUND on fields is data, FORBIDDEN is a refusal', () => {
    const data = { repository: { pr1: null } };
    const notFound = { type: 'NOT_FOUND', path: ['repository', 'pr1'], message: 'x' };
    expect(graphqlAnswer({ errors: [notFound], data })).toEqual({
      status: 200,
      data,
      headers: {},
    });
    const forbidden = { type: 'FORBIDDEN', path: ['repository', 'pr1'], message: 'no' };
    expect(graphqlAnswer({ errors: [notFound, forbidden], data })?.status).toBe(403);
    const repository = { type: 'NOT_FOUND', path: ['repository'], message: 'no repo' };
    expect(graphqlAnswer({ errors: [repository], data: { repository: null } })?.status).toBe(404);
    expect(graphqlAnswer(new Error('network'))).toBeUndefined();
    // Errors without a type and no data: GitHub did not run the query (its validation).
    const invalid = { message: 'Expected type Int!', extensions: { code: 'x' } };
    expect(graphqlAnswer({ errors: [invalid, invalid] })).toEqual({
      status: 400,
      data: { message: 'Expected type Int!; Expected type Int!' },
      headers: {},
      invalid: true,
    });
    const limited = { type: 'RATE_LIMITED', message: 'API rate limit exceeded' };
    expect(graphqlAnswer({ errors: [limited] })).toBeUndefined();
    // A query that ran and failed (GitHub's timeout) has data, null: not the query's fault.
    const timeout = { message: 'Something went wrong while executing your query.' };
    expect(graphqlAnswer({ errors: [timeout], data: null })).toBeUndefined();
    expect(MAX_PULL_REQUESTS_PER_QUERY).toBe(100);
  });
});

describe('retiring each orphan (the sweep, once the states are known)', () => {
  const orphans: RetireReport[] = [
    {
      name: 'my-agent-pr-12',
      deployments: [
        {
          deployment: aDeployment({ id: '0b7e1c5a-3f2d-4e6a-9b8c-1d2e3f4a5b6c', status: 'READY' }),
        },
      ],
      pullRequest: 12,
      environment: 'preview-pr-12',
    },
    { name: 'my-agent-pr-15', deployments: [], pullRequest: 15, environment: 'preview-pr-15' },
  ];

  /** Two closed pull requests, each with its preview's records and its bot comment. */
  function seedOrphans() {
    gh.seedPullRequest('acme/agent', 12, 'merged', '2026-11-01T10:00:00Z');
    gh.seedPullRequest('acme/agent', 15, 'closed', '2026-11-02T10:00:00Z');
    const records = {
      12: gh.seedDeployments('acme/agent', 'preview-pr-12', 2),
      15: gh.seedDeployments('acme/agent', 'preview-pr-15', 1),
      other: gh.seedDeployments('acme/agent', 'preview-pr-16', 1),
    };
    const comments = {
      12: gh.seedComment('acme/agent', 12, `${marker('my-agent-pr-12')}\n### live`, BOT),
      15: gh.seedComment('acme/agent', 15, `${marker('my-agent-pr-15')}\n### live`, BOT),
    };
    return { records, comments };
  }

  async function sweep(runId: number) {
    const made = hooks(sweeping, {}, runId);
    await made.pullRequestStates?.([12, 15]);
    const retired = [];
    for (const orphan of orphans) retired.push(await retireOne(made.retired, orphan));
    return retired;
  }

  it('marks its own environment and rewrites its own pull request’s comment, with why', async () => {
    const { records, comments } = seedOrphans();

    const retired = await sweep(42);

    expect(retired).toEqual([
      {
        environment: 'preview-pr-12',
        found: 2,
        inactive: 2,
        alreadyInactive: 0,
        more: false,
        comment: 'rewritten',
      },
      {
        environment: 'preview-pr-15',
        found: 1,
        inactive: 1,
        alreadyInactive: 0,
        more: false,
        comment: 'rewritten',
      },
    ]);
    expect([...records[12], ...records[15]].map((r) => gh.stateOf(r.id))).toEqual([
      'inactive',
      'inactive',
      'inactive',
    ]);
    expect(gh.stateOf(records.other[0]?.id ?? 0)).toBe('success');
    expect(comments[12].body).toContain('This pull request was merged, so its preview is retired');
    expect(comments[15].body).toContain('This pull request was closed, so its preview is retired');
    expect(gh.comments).toHaveLength(2);
    // The still-open warning is the retire step's: the sweep's pull requests are closed.
    expect(warnings()).toEqual([]);
    // One viewer query for the run, however many comments it looks for.
    const graphql = gh.calls('POST /graphql').length - gh.stateQueries().length;
    expect(graphql).toBe(1);
  });

  it('writes nothing to GitHub the second time, and says what was already so', async () => {
    const { comments } = seedOrphans();
    await sweep(42);
    const firstWrites = gh.writes().length;
    expect(firstWrites).toBe(3 + 2);
    const bodies = [comments[12].body, comments[15].body];

    // The next scheduled run: another run id, so another link in a body it would write.
    const retired = await sweep(43);

    expect(gh.writes()).toHaveLength(firstWrites);
    expect(retired.map((r) => [r?.inactive, r?.alreadyInactive, r?.comment])).toEqual([
      [0, 2, 'unchanged'],
      [0, 1, 'unchanged'],
    ]);
    expect([comments[12].body, comments[15].body]).toEqual(bodies);
    expect(warnings()).toEqual([]);
  });

  it('makes the retire step idempotent too: its second run writes nothing', async () => {
    gh.seedDeployments('acme/agent', 'preview-pr-7', 2);
    gh.seedComment('acme/agent', 7, `${marker('my-agent-pr-7')}\n### live`, BOT);
    const retiring: GitHubSettings = {
      token: TOKEN,
      environment: 'preview-pr-7',
      comment: true,
    };
    const retiredAt = (runId: number) =>
      retireHooks(retiring)(
        { ...context(runId), pullRequest: 7, pullRequestState: 'merged' },
        { logger, clock: systemClock, redact: (text) => text },
      ).retired;
    const step = (runId: number) =>
      retireOne(retiredAt(runId), { name: 'my-agent-pr-7', deployments: [] });

    expect(await step(1)).toMatchObject({ inactive: 2, comment: 'rewritten' });
    const firstWrites = gh.writes().length;
    expect(await step(2)).toMatchObject({ inactive: 0, alreadyInactive: 2, comment: 'unchanged' });
    expect(gh.writes()).toHaveLength(firstWrites);
  });

  it('creates no comment for an orphan that has none, and writes none when pr-comment is off', async () => {
    gh.seedPullRequest('acme/agent', 15, 'closed');
    const made = hooks();
    await made.pullRequestStates?.([15]);
    const retired = await retireOne(made.retired, {
      name: 'my-agent-pr-15',
      deployments: [],
      pullRequest: 15,
    });
    expect(retired).toEqual({ found: 0, inactive: 0, more: false, comment: 'none' });

    const quiet = hooks({ ...sweeping, comment: false });
    const skipped = await retireOne(quiet.retired, {
      name: 'my-agent-pr-15',
      deployments: [],
      pullRequest: 15,
    });
    expect(skipped?.comment).toBe('skipped');
    expect(gh.writes()).toEqual([]);
  });

  it('rewrites a retired comment whose content moved on (the deployment’s status), not its run link', () => {
    const report = orphans[0] as RetireReport;
    const first = retiredCommentBody({
      ...report,
      runUrl: 'https://github.com/a/b/actions/runs/1',
    });
    const again = retiredCommentBody({
      ...report,
      runUrl: 'https://github.com/a/b/actions/runs/2',
    });
    expect(sameRetiredBody(first, again)).toBe(true);
    const deleting = retiredCommentBody({
      ...report,
      deployments: [
        {
          deployment: aDeployment({
            id: '0b7e1c5a-3f2d-4e6a-9b8c-1d2e3f4a5b6c',
            status: 'AWAITING_DELETE',
          }),
        },
      ],
    });
    expect(sameRetiredBody(first, deleting)).toBe(false);
  });
});
