/** The GitHub emulator answers as GitHub does, over real HTTP. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  GITHUB_ACTIONS_BOT,
  pullRequestFile,
  rateLimited,
  startGitHubEmulator,
  type GitHubEmulator,
} from './github.ts';

let gh: GitHubEmulator;
const TOKEN = 'ghs_workflow';
const PAT = 'ghp_person';

beforeEach(async () => {
  gh = await startGitHubEmulator();
  gh.addToken(TOKEN, GITHUB_ACTIONS_BOT);
  gh.addToken(PAT, { login: 'octocat', type: 'User' });
});
afterEach(() => gh.close());

async function api(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = TOKEN,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(`${gh.url}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `token ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

describe('identity', () => {
  it('answers 401 Bad credentials to a token it does not know, and to none', async () => {
    const unknown = await api('GET', '/repos/acme/agent/compare/a...b', undefined, 'nope');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({
      message: 'Bad credentials',
      documentation_url: expect.any(String) as string,
    });
    expect((await api('POST', '/graphql', {}, null)).status).toBe(401);
  });

  it('forbids GET /user to GITHUB_TOKEN, and answers viewer { login } to both kinds of token', async () => {
    expect(await api('GET', '/user')).toMatchObject({
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    });
    expect(await api('GET', '/user', undefined, PAT)).toMatchObject({ body: { login: 'octocat' } });
    const query = { query: 'query { viewer { login } }' };
    expect((await api('POST', '/graphql', query)).body).toEqual({
      data: { viewer: { login: 'github-actions[bot]' } },
    });
    expect((await api('POST', '/graphql', query, PAT)).body).toEqual({
      data: { viewer: { login: 'octocat' } },
    });
  });
});

describe('deployments', () => {
  it('creates a deployment and its statuses, listed newest first; a success turns older ones inactive', async () => {
    const first = await api('POST', '/repos/acme/agent/deployments', {
      ref: 'abc',
      environment: 'production',
      payload: { id: 'd1' },
    });
    expect(first.status).toBe(201);
    const id = (first.body as { id: number }).id;
    await api('POST', `/repos/acme/agent/deployments/${id}/statuses`, { state: 'success' });
    const second = await api('POST', '/repos/acme/agent/deployments', {
      ref: 'def',
      environment: 'production',
    });
    const secondId = (second.body as { id: number }).id;
    await api('POST', `/repos/acme/agent/deployments/${secondId}/statuses`, {
      state: 'in_progress',
      log_url: 'https://github.com/acme/agent/actions/runs/1',
    });
    await api('POST', `/repos/acme/agent/deployments/${secondId}/statuses`, {
      state: 'success',
      auto_inactive: true,
    });
    const listed = await api('GET', `/repos/acme/agent/deployments/${secondId}/statuses`);
    expect((listed.body as { state: string }[]).map((s) => s.state)).toEqual([
      'success',
      'in_progress',
    ]);
    expect(gh.deployments[0]?.statuses.map((s) => s.state)).toEqual(['success', 'inactive']);
    expect(gh.deployments[0]?.payload).toEqual({ id: 'd1' });
  });

  it('rejects a bad state, a description over 140 characters and an unknown deployment', async () => {
    const { body } = await api('POST', '/repos/acme/agent/deployments', { ref: 'abc' });
    const id = (body as { id: number }).id;
    const path = `/repos/acme/agent/deployments/${id}/statuses`;
    expect((await api('POST', path, { state: 'done' })).status).toBe(422);
    expect(
      (await api('POST', path, { state: 'success', description: 'x'.repeat(141) })).status,
    ).toBe(422);
    expect(
      (await api('POST', path, { state: 'success', description: 'x'.repeat(140) })).status,
    ).toBe(201);
    expect(
      (await api('POST', `/repos/acme/agent/deployments/9/statuses`, { state: 'success' })).status,
    ).toBe(404);
    expect((await api('POST', '/repos/acme/agent/deployments', {})).status).toBe(422);
  });

  it("lists an environment's deployments newest first, over pages with a Link header", async () => {
    const seeded = gh.seedDeployments('acme/agent', 'preview-pr-7', 5);
    gh.seedDeployments('acme/agent', 'production', 2);
    gh.seedDeployments('acme/other', 'preview-pr-7', 1);
    const path = '/repos/acme/agent/deployments';
    const first = await api('GET', `${path}?environment=preview-pr-7&per_page=2`);
    expect((first.body as { id: number }[]).map((d) => d.id)).toEqual([
      seeded[4]?.id,
      seeded[3]?.id,
    ]);
    expect(first.headers.get('link')).toContain(
      'environment=preview-pr-7&per_page=2&page=2>; rel="next"',
    );
    const last = await api('GET', `${path}?environment=preview-pr-7&per_page=2&page=3`);
    expect((last.body as { id: number }[]).map((d) => d.id)).toEqual([seeded[0]?.id]);
    expect(last.headers.get('link')).not.toContain('rel="next"');
    const all = await api('GET', `${path}?per_page=100`);
    expect((all.body as unknown[]).length).toBe(7);
    expect((await api('GET', `${path}?environment=preview-pr`)).body).toEqual([]);
  });

  it("takes an inactive status: the deployment's latest state", async () => {
    const [seeded] = gh.seedDeployments('acme/agent', 'preview-pr-8', 1);
    const id = seeded?.id ?? 0;
    expect(gh.stateOf(id)).toBe('success');
    const path = `/repos/acme/agent/deployments/${id}/statuses`;
    expect((await api('POST', path, { state: 'inactive', description: 'retired' })).status).toBe(
      201,
    );
    expect(gh.stateOf(id)).toBe('inactive');
  });

  it('answers 403 to a token without deployments: write, 404 for a repository it cannot see', async () => {
    gh.addToken('fork', { ...GITHUB_ACTIONS_BOT, permissions: { deployments: 'read' } });
    gh.addToken('narrow', { login: 'x', type: 'User', repositories: ['acme/agent'] });
    const forbidden = await api('POST', '/repos/acme/agent/deployments', { ref: 'a' }, 'fork');
    expect(forbidden).toMatchObject({
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    });
    expect(
      (await api('POST', '/repos/acme/other/deployments', { ref: 'a' }, 'narrow')).status,
    ).toBe(404);
    expect(
      (await api('POST', '/repos/ACME/Agent/deployments', { ref: 'a' }, 'narrow')).status,
    ).toBe(201);
  });
});

describe('comments', () => {
  it('pages with per_page up to 100 and a Link header with next and last', async () => {
    gh.seedComments('acme/agent', 7, 250);
    const first = await api('GET', '/repos/acme/agent/issues/7/comments?per_page=100');
    expect((first.body as unknown[]).length).toBe(100);
    const link = first.headers.get('link') ?? '';
    expect(link).toContain('page=2>; rel="next"');
    expect(link).toContain('page=3>; rel="last"');
    const third = await api('GET', '/repos/acme/agent/issues/7/comments?per_page=100&page=3');
    expect((third.body as { body: string }[]).map((c) => c.body).at(-1)).toBe('comment 250');
    expect(third.headers.get('link')).not.toContain('rel="next"');
    const capped = await api('GET', '/repos/acme/agent/issues/7/comments?per_page=500');
    expect((capped.body as unknown[]).length).toBe(100);
    const other = await api('GET', '/repos/acme/agent/issues/8/comments');
    expect(other.body).toEqual([]);
    expect(other.headers.get('link')).toBeNull();
  });

  it('creates a comment as the token’s identity, edits it, and refuses a body over 65,536 characters', async () => {
    const created = await api('POST', '/repos/acme/agent/issues/7/comments', { body: 'hi' });
    expect(created.body).toMatchObject({
      body: 'hi',
      user: { login: 'github-actions[bot]', type: 'Bot' },
    });
    const id = (created.body as { id: number }).id;
    expect(
      (await api('PATCH', `/repos/acme/agent/issues/comments/${id}`, { body: 'bye' })).status,
    ).toBe(200);
    expect(gh.comments.map((c) => c.body)).toEqual(['bye']);
    const long = await api('POST', '/repos/acme/agent/issues/7/comments', {
      body: 'x'.repeat(65_537),
    });
    expect(long.status).toBe(422);
    expect((await api('PATCH', '/repos/acme/agent/issues/comments/1', { body: 'x' })).status).toBe(
      404,
    );
  });
});

describe('compare', () => {
  it('answers ahead, behind, identical and diverged from the seeded graph, 404 for an unknown commit', async () => {
    const [a, b, c] = gh.chain('a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40));
    gh.commit('d'.repeat(40), [a as string]);
    const status = async (base: string, head: string) =>
      (await api('GET', `/repos/acme/agent/compare/${base}...${head}`)).body;
    expect(await status(a as string, c as string)).toMatchObject({
      status: 'ahead',
      ahead_by: 2,
      behind_by: 0,
    });
    expect(await status(c as string, b as string)).toMatchObject({
      status: 'behind',
      ahead_by: 0,
      behind_by: 1,
    });
    expect(await status(b as string, b as string)).toMatchObject({ status: 'identical' });
    expect(await status(c as string, 'd'.repeat(40))).toMatchObject({
      status: 'diverged',
      ahead_by: 1,
      behind_by: 2,
    });
    expect(
      (await api('GET', `/repos/acme/agent/compare/${a as string}...${'e'.repeat(40)}`)).status,
    ).toBe(404);
  });
});

describe('faults and records', () => {
  it('injects a status per method and path for a count, a rate limit, and records every request', async () => {
    gh.inject(
      { method: 'POST', path: /\/deployments$/, status: 502, times: 2 },
      rateLimited(429, 3),
    );
    expect((await api('GET', '/repos/acme/agent/compare/a...b')).status).toBe(429);
    expect((await api('POST', '/repos/acme/agent/deployments', { ref: 'a' })).status).toBe(502);
    expect((await api('POST', '/repos/acme/agent/deployments', { ref: 'a' })).status).toBe(502);
    const limited = gh.requests[0];
    expect(limited?.status).toBe(429);
    expect((await api('POST', '/repos/acme/agent/deployments', { ref: 'a' })).status).toBe(201);
    expect(gh.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /repos/acme/agent/compare/a...b 429',
      'POST /repos/acme/agent/deployments 502',
      'POST /repos/acme/agent/deployments 502',
      'POST /repos/acme/agent/deployments 201',
    ]);
    expect(gh.requests[1]).toMatchObject({ auth: `token ${TOKEN}`, body: { ref: 'a' } });
  });

  it('hangs until closed', async () => {
    gh.inject({ hang: true });
    const outcome = fetch(`${gh.url}/graphql`, {
      method: 'POST',
      signal: AbortSignal.timeout(300),
    });
    await expect(outcome).rejects.toThrow();
    expect(gh.requests[0]?.answeredAt).toBeUndefined();
  });
});

describe("pull requests' states (GraphQL)", () => {
  const query = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
    pr1: pullRequest(number: 1) { number state merged closedAt mergedAt }
    pr2: pullRequest(number: 2) { number state merged closedAt mergedAt }
    pr3: pullRequest(number: 3) { number state merged closedAt mergedAt }
    pr9: pullRequest(number: 9) { number state merged closedAt mergedAt } } }`;
  const ask = (token = TOKEN, variables = { owner: 'acme', name: 'agent' }) =>
    api('POST', '/graphql', { query, variables }, token);

  it('answers each alias, and an unknown number with null and a NOT_FOUND error, as GitHub does', async () => {
    gh.seedPullRequest('acme/agent', 1);
    gh.seedPullRequest('acme/agent', 2, 'closed', '2026-11-01T10:00:00Z');
    gh.seedPullRequest('acme/agent', 3, 'merged', '2026-11-02T10:00:00Z');
    gh.seedPullRequest('acme/other', 9, 'open');

    const answer = await ask();

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: {
        repository: {
          pr1: { number: 1, state: 'OPEN', merged: false, closedAt: null, mergedAt: null },
          pr2: {
            number: 2,
            state: 'CLOSED',
            merged: false,
            closedAt: '2026-11-01T10:00:00Z',
            mergedAt: null,
          },
          pr3: {
            number: 3,
            state: 'MERGED',
            merged: true,
            closedAt: '2026-11-02T10:00:00Z',
            mergedAt: '2026-11-02T10:00:00Z',
          },
          pr9: null,
        },
      },
      errors: [
        {
          type: 'NOT_FOUND',
          path: ['repository', 'pr9'],
          message: 'Could not resolve to a PullRequest with the number of 9.',
        },
      ],
    });
    expect(gh.stateQueries()).toHaveLength(1);
  });

  it('answers FORBIDDEN per field without pull-requests read, NOT_FOUND for a hidden repository, and 403 by fault', async () => {
    gh.addToken('ghs_none', { ...GITHUB_ACTIONS_BOT, permissions: { 'pull-requests': 'none' } });
    const forbidden = await ask('ghs_none');
    expect(forbidden.status).toBe(200);
    const refused = forbidden.body as { data: unknown; errors: unknown[] };
    expect(refused.data).toEqual({ repository: { pr1: null, pr2: null, pr3: null, pr9: null } });
    expect(refused.errors).toHaveLength(4);
    expect(refused.errors[0]).toEqual({
      type: 'FORBIDDEN',
      path: ['repository', 'pr1'],
      message: 'Resource not accessible by integration',
    });

    gh.addToken('ghs_other', { ...GITHUB_ACTIONS_BOT, repositories: ['acme/other'] });
    expect((await ask('ghs_other')).body).toMatchObject({
      data: { repository: null },
      errors: [{ type: 'NOT_FOUND', path: ['repository'] }],
    });

    gh.inject({ method: 'POST', path: '/graphql', status: 403 });
    expect(await ask()).toMatchObject({
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    });
    expect(gh.stateQueries()).toHaveLength(3);
    expect(gh.writes()).toEqual([]);
  });

  it("rejects a number beyond GraphQL's Int as GitHub does: 200, no data, one error per field", async () => {
    gh.seedPullRequest('acme/agent', 1);
    const wide = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { pr1: pullRequest(number: 1) { number } pr2147483648: pullRequest(number: 2147483648) { number } } }`;

    const answer = await api('POST', '/graphql', {
      query: wide,
      variables: { owner: 'acme', name: 'agent' },
    });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      errors: [
        {
          path: ['query', 'repository', 'pr2147483648', 'number'],
          extensions: {
            code: 'argumentLiteralsIncompatible',
            typeName: 'Field',
            argumentName: 'number',
          },
          locations: [{ line: 1, column: wide.indexOf('pr2147483648:') + 1 }],
          message:
            "Argument 'number' on Field 'pr2147483648' has an invalid value (2147483648). Expected type 'Int!'.",
        },
      ],
    });
    const edge = wide.replaceAll('2147483648', '2147483647');
    const answered = await api('POST', '/graphql', {
      query: edge,
      variables: { owner: 'acme', name: 'agent' },
    });
    expect(answered.body).toMatchObject({ data: { repository: { pr2147483647: null } } });
  });

  it('passes the real answer through a rewrite fault, then answers as seeded again', async () => {
    gh.seedPullRequest('acme/agent', 1);
    gh.inject({
      method: 'POST',
      path: '/graphql',
      rewrite: (body) => {
        const { data } = body as { data: { repository: Record<string, unknown> } };
        data.repository.pr1 = { number: 6, state: 'CLOSED' };
        return body;
      },
    });

    expect((await ask()).body).toMatchObject({
      data: { repository: { pr1: { number: 6, state: 'CLOSED' } } },
    });
    expect((await ask()).body).toMatchObject({
      data: { repository: { pr1: { number: 1, state: 'OPEN' } } },
    });
  });
});

describe("a pull request's changed files", () => {
  const FILES = '/repos/acme/agent/pulls/7/files';
  type Listed = { filename: string; previous_filename?: string }[];
  const names = (body: unknown) => (body as Listed).map((file) => file.filename);

  it('lists them in order, 30 a page by default, with a Link header as GitHub writes it', async () => {
    const files = Array.from({ length: 65 }, (_, i) => `src/f${i + 1}.ts`);
    gh.setPullRequestFiles('acme/agent', 7, files);
    const first = await api('GET', FILES);
    expect(names(first.body)).toEqual(files.slice(0, 30));
    const link = first.headers.get('link') ?? '';
    expect(link).toContain(`<${gh.url}${FILES}?per_page=30&page=2>; rel="next"`);
    expect(link).toContain('page=3>; rel="last"');
    expect(link).not.toContain('rel="prev"');
    const second = await api('GET', `${FILES}?page=2`);
    expect(second.headers.get('link')).toMatch(
      /page=1>; rel="prev".*page=3>; rel="next".*page=3>; rel="last".*page=1>; rel="first"/,
    );
    const third = await api('GET', `${FILES}?page=3`);
    expect(names(third.body)).toEqual(files.slice(60));
    expect(third.headers.get('link')).not.toContain('rel="next"');
    expect((await api('GET', `${FILES}?per_page=500`)).body).toHaveLength(65);
    expect(gh.pullRequests[0]).toMatchObject({ number: 7, state: 'open', changedFiles: 65 });
  });

  it('gives each file its sha, status and counts, and a rename its previous name', async () => {
    gh.setPullRequestFiles('acme/agent', 7, [
      pullRequestFile('docs/new.md', { status: 'added' }),
      pullRequestFile('apps/b/main.py', { previous: 'apps/a/main.py' }),
    ]);
    const listed = (await api('GET', FILES)).body as Record<string, unknown>[];
    expect(listed[0]).toEqual({
      sha: expect.stringMatching(/^[0-9a-f]{40}$/) as string,
      filename: 'docs/new.md',
      status: 'added',
      additions: 1,
      deletions: 0,
      changes: 1,
    });
    expect(listed[1]).toMatchObject({
      filename: 'apps/b/main.py',
      status: 'renamed',
      previous_filename: 'apps/a/main.py',
    });
  });

  it('stops the listing at 3,000 files, as GitHub does, whatever the pull request changes', async () => {
    const files = Array.from({ length: 3050 }, (_, i) => `f${i + 1}`);
    gh.setPullRequestFiles('acme/agent', 7, files, 4000);
    const thirtieth = await api('GET', `${FILES}?per_page=100&page=30`);
    expect(names(thirtieth.body).at(-1)).toBe('f3000');
    expect(thirtieth.headers.get('link')).not.toContain('rel="next"');
    expect((await api('GET', `${FILES}?per_page=100&page=31`)).body).toEqual([]);
    expect(gh.pullRequests[0]?.changedFiles).toBe(4000);
  });

  it('answers 404 for a pull request not seeded, 403 without pull-requests: read, and a fault', async () => {
    expect((await api('GET', '/repos/acme/agent/pulls/8/files')).status).toBe(404);
    gh.setPullRequestFiles('acme/agent', 7, ['a']);
    gh.addToken('ghs_none', { ...GITHUB_ACTIONS_BOT, permissions: { 'pull-requests': 'none' } });
    expect(await api('GET', FILES, undefined, 'ghs_none')).toMatchObject({
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    });
    gh.inject({ method: 'GET', path: FILES, status: 500 });
    expect((await api('GET', FILES)).status).toBe(500);
    expect(names((await api('GET', FILES)).body)).toEqual(['a']);
    gh.seedPullRequest('acme/agent', 7, 'closed');
    expect(names((await api('GET', FILES)).body)).toEqual(['a']);
  });
});
