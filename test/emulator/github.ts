/**
 * In-memory emulator of the part of GitHub's REST API the action uses (deployments and their
 * statuses, pull request comments and changed files, compare, the token's identity, and GraphQL's
 * `viewer` and pull requests' states): a real HTTP server on 127.0.0.1
 * that the bundle reaches through GITHUB_API_URL, as on any runner and on GitHub Enterprise. Fault
 * injection per method, path and count. Test-only; Node built-ins and erasable TypeScript only, so
 * it also runs under Node 24 type stripping. Described in test/emulator/GITHUB.md.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DOCS = 'https://docs.github.com/rest';

export type Permission = 'none' | 'read' | 'write';
/** The GITHUB_TOKEN permission scopes the emulator checks (`permissions:` in a workflow). */
export type Scope = 'deployments' | 'pull-requests' | 'contents';

export interface Identity {
  /** The REST login, as comments show it: `github-actions[bot]` for GITHUB_TOKEN. */
  login: string;
  type: 'User' | 'Bot';
  /** A GITHUB_TOKEN or a GitHub App installation token: `GET /user` answers 403. */
  integration?: boolean;
  /**
   * What GraphQL's `viewer { login }` answers. Default: `login`, `[bot]` suffix included (a GitHub
   * App's installation token answers `name[bot]`); set it to try a suffix-less answer.
   */
  viewerLogin?: string;
  /** Missing scopes are `write`. A fork's GITHUB_TOKEN has `read` everywhere. */
  permissions?: Partial<Record<Scope, Permission>>;
  /** `owner/repo` (any case) the token can read; others answer 404. Default: every repository. */
  repositories?: string[];
}

/** GITHUB_TOKEN in a workflow: the bot identity, `GET /user` forbidden. */
export const GITHUB_ACTIONS_BOT: Identity = {
  login: 'github-actions[bot]',
  type: 'Bot',
  integration: true,
};

export interface GitHubFault {
  method?: string;
  /** Exact pathname, or a RegExp tested against the pathname. */
  path?: string | RegExp;
  /** Requests it lasts. Default 1; Infinity allowed. */
  times?: number;
  /** Answer this status with `body` (default GitHub's error body for the status) and `headers`. */
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (ended by close()). */
  hang?: boolean;
  /** Wait this long, then answer (the fault's status, or the real handler). */
  delayMs?: number;
  /**
   * On a list: pages after the first are served as if `shift` items had been added at the head
   * once page 1 was read (a concurrent deploy), so each starts with the previous page's last items.
   */
  shift?: number;
  /** On a list: every page past the last repeats the last one, and every page says `rel="next"`. */
  repeatLast?: boolean;
  /**
   * On the real answer (no `status`): its body passed through this first, to script an answer the
   * emulator's data cannot give (a pull request field whose node is about another number).
   */
  rewrite?: (body: unknown) => unknown;
}

export interface GitHubRequest {
  method: string;
  /** URL pathname, not decoded. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON, else the raw text; undefined without a body. */
  body: unknown;
  /** The Authorization header as sent, or undefined. */
  auth: string | undefined;
  headers: Record<string, string>;
  /** performance.now() at arrival, and when answered (undefined: not answered). */
  arrivedAt: number;
  answeredAt?: number;
  /** The status answered. */
  status?: number;
}

export interface Comment {
  id: number;
  owner: string;
  repo: string;
  issue: number;
  body: string;
  user: { login: string; type: 'User' | 'Bot' };
  created_at: string;
  updated_at: string;
}

export interface DeploymentStatus {
  id: number;
  state: string;
  description: string;
  environment: string;
  environment_url: string;
  log_url: string;
  auto_inactive: boolean | undefined;
  created_at: string;
}

/** A pull request, as the GraphQL `pullRequest(number:)` field reads it (seeded). */
export interface PullRequest {
  owner: string;
  repo: string;
  number: number;
  state: 'open' | 'closed' | 'merged';
  /** ISO 8601; set for closed and merged ones (a merge closes too). */
  closedAt: string | null;
  mergedAt: string | null;
  /** Its changed files in GitHub's order (`GET …/pulls/{n}/files`); none unless set. */
  files: PullRequestFile[];
  /** The event's `pull_request.changed_files`: the files' number unless set otherwise. */
  changedFiles: number;
}

/** One changed file as `GET …/pulls/{n}/files` lists it. */
export interface PullRequestFile {
  sha: string;
  filename: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  additions: number;
  deletions: number;
  changes: number;
  /** A renamed file's name before. */
  previous_filename?: string;
}

/** GitHub lists at most this many of a pull request's files, whatever it changes. */
export const PULL_REQUEST_FILES_LIMIT = 3000;

export interface DeploymentRecord {
  id: number;
  owner: string;
  repo: string;
  ref: string;
  sha: string;
  environment: string;
  description: string | null;
  payload: unknown;
  transient_environment: boolean;
  production_environment: boolean;
  auto_merge: unknown;
  required_contexts: unknown;
  task: string;
  creator: { login: string; type: string };
  created_at: string;
  /** Oldest first (the API lists them newest first). */
  statuses: DeploymentStatus[];
}

export interface GitHubEmulator {
  readonly url: string;
  readonly requests: GitHubRequest[];
  readonly deployments: DeploymentRecord[];
  readonly comments: Comment[];
  readonly pullRequests: PullRequest[];
  /** Registers a token and who it is. */
  addToken(token: string, identity: Identity): void;
  /** A commit and its parents (the graph `compare` walks). Parents must be added first. */
  commit(sha: string, parents?: string[]): void;
  /** Adds commits one after another, each the parent of the next; returns them. */
  chain(...shas: string[]): string[];
  /** A comment written by someone (seeded, not through the API). */
  seedComment(
    repository: string,
    issue: number,
    body: string,
    user?: { login: string; type?: 'User' | 'Bot' },
  ): Comment;
  /**
   * `count` GitHub deployments of `environment` (seeded, not through the API), each with one
   * `success` status unless `state` says otherwise; returns them, oldest first.
   */
  seedDeployments(
    repository: string,
    environment: string,
    count: number,
    state?: string,
  ): DeploymentRecord[];
  /** The state of a deployment's latest status, or undefined when it has none. */
  stateOf(id: number): string | undefined;
  /**
   * Pull request `number` (seeded, not through the API), `open` unless said; a closed or merged one
   * closed at `at` (default now). Seeding a number again replaces it.
   */
  seedPullRequest(
    repository: string,
    number: number,
    state?: PullRequest['state'],
    at?: string,
  ): PullRequest;
  /**
   * Pull request `number`'s changed files, in order (seeding it, open, if it is not), and its
   * `changed_files` count (default: the files' number); `pullRequestFile` makes one.
   */
  setPullRequestFiles(
    repository: string,
    number: number,
    files: readonly (PullRequestFile | string)[],
    changedFiles?: number,
  ): PullRequest;
  /** GraphQL requests asking pull requests' states (`POST /graphql` with `pullRequest(number:)`). */
  stateQueries(): GitHubRequest[];
  /** Requests that write (any method but GET), GraphQL's queries aside: what a second sweep must not send. */
  writes(): GitHubRequest[];
  /** `count` filler comments by `login` (default `someone`), numbered. */
  seedComments(repository: string, issue: number, count: number, login?: string): void;
  inject(...faults: GitHubFault[]): void;
  clearFaults(): void;
  /** Requests whose `METHOD path` matches (a RegExp or an exact string). */
  calls(pattern: RegExp | string): GitHubRequest[];
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface QueuedFault {
  fault: GitHubFault;
  remaining: number;
}

const DEPLOYMENT_STATES = [
  'error',
  'failure',
  'inactive',
  'in_progress',
  'queued',
  'pending',
  'success',
];
/** GitHub's limit on a comment body, in characters. */
export const COMMENT_LIMIT = 65_536;
const DESCRIPTION_LIMIT = 140;
/** GraphQL's `Int`: 32 bits, signed. */
const INT_MAX = 2n ** 31n - 1n;

const REPO = String.raw`/repos/([^/]+)/([^/]+)`;
const ROUTES = {
  deployments: new RegExp(`^${REPO}/deployments$`),
  statuses: new RegExp(`^${REPO}/deployments/([^/]+)/statuses$`),
  issueComments: new RegExp(`^${REPO}/issues/([^/]+)/comments$`),
  comment: new RegExp(`^${REPO}/issues/comments/([^/]+)$`),
  compare: new RegExp(`^${REPO}/compare/([^/]+)$`),
  pullFiles: new RegExp(`^${REPO}/pulls/([^/]+)/files$`),
};

const GITHUB_ERROR: Record<number, string> = {
  401: 'Bad credentials',
  403: 'Resource not accessible by integration',
  404: 'Not Found',
  422: 'Validation Failed',
  429: 'API rate limit exceeded',
  500: 'Server Error',
  502: 'Server Error',
  503: 'Service Unavailable',
};

/** GitHub's error body for a status. */
export function githubError(status: number, message = GITHUB_ERROR[status] ?? 'Error'): unknown {
  return { message, documentation_url: DOCS, status: String(status) };
}

/** A primary rate limit, as GitHub answers it. */
export function rateLimited(status: 403 | 429 = 403, retryAfterSeconds?: number): GitHubFault {
  const reset = Math.ceil(Date.now() / 1000) + (retryAfterSeconds ?? 60);
  return {
    status,
    body: githubError(status, 'API rate limit exceeded for installation ID 1.'),
    headers: {
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(reset),
      ...(retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) }),
    },
  };
}

export async function startGitHubEmulator(): Promise<GitHubEmulator> {
  const requests: GitHubRequest[] = [];
  const deployments: DeploymentRecord[] = [];
  const comments: Comment[] = [];
  const pullRequests: PullRequest[] = [];
  const tokens = new Map<string, Identity>();
  /** sha (lower case) → parents. */
  const graph = new Map<string, string[]>();
  const hung = new Set<ServerResponse>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let faults: QueuedFault[] = [];
  let nextId = 1000;
  let closing = false;

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  function takeFault(method: string, path: string): GitHubFault | undefined {
    const index = faults.findIndex(({ fault }) => {
      if (fault.method !== undefined && fault.method.toUpperCase() !== method) return false;
      if (fault.path === undefined) return true;
      if (typeof fault.path === 'string') return fault.path === path;
      fault.path.lastIndex = 0;
      return fault.path.test(path);
    });
    const queued = faults[index];
    if (queued === undefined) return undefined;
    queued.remaining -= 1;
    if (queued.remaining <= 0) faults.splice(index, 1);
    return queued.fault;
  }

  function wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const parsed = new URL(req.url ?? '/', url);
      const raw = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const record: GitHubRequest = {
        method: (req.method ?? 'GET').toUpperCase(),
        path: parsed.pathname,
        query: Object.fromEntries(parsed.searchParams),
        body: parseLoosely(raw),
        auth: headers.authorization,
        headers,
        arrivedAt: performance.now(),
      };
      requests.push(record);
      const fault = takeFault(record.method, record.path);
      if (fault?.hang) {
        hung.add(res);
        res.on('close', () => hung.delete(res));
        return;
      }
      if (fault?.delayMs !== undefined) await wait(fault.delayMs);
      if (closing) return void res.destroy();
      let answer: Answer;
      if (fault?.status !== undefined) {
        answer = {
          status: fault.status,
          body: fault.body ?? githubError(fault.status),
          headers: fault.headers ?? {},
        };
      } else {
        try {
          answer = route(record, parsed.searchParams, fault);
        } catch (error) {
          answer = { status: 500, body: githubError(500, `emulator error: ${String(error)}`) };
        }
        if (fault?.headers) answer.headers = { ...answer.headers, ...fault.headers };
        if (fault?.rewrite) answer.body = fault.rewrite(answer.body);
      }
      record.status = answer.status;
      send(res, answer);
      record.answeredAt = performance.now();
    } catch {
      res.destroy();
    }
  }

  function route(record: GitHubRequest, query: URLSearchParams, fault?: GitHubFault): Answer {
    const who = authenticate(record.auth);
    if (typeof who === 'string') return { status: 401, body: githubError(401, who) };
    const { method, path } = record;
    if (path === '/graphql' && method === 'POST') return graphql(who, record.body);
    if (path === '/user' && method === 'GET') {
      if (who.integration) return { status: 403, body: githubError(403) };
      return { status: 200, body: { login: who.login, type: who.type, id: 1 } };
    }
    let match: RegExpExecArray | null;
    if ((match = ROUTES.deployments.exec(path))) {
      const [owner, repo] = names(match);
      if (method === 'GET') {
        return (
          access(who, owner, repo, 'deployments', 'read') ??
          listDeployments(owner, repo, query, path, fault)
        );
      }
      if (method !== 'POST') return notFound();
      return (
        access(who, owner, repo, 'deployments', 'write') ??
        createDeployment(who, owner, repo, record.body)
      );
    }
    if ((match = ROUTES.statuses.exec(path))) {
      const [owner, repo] = names(match);
      const id = Number(match[3]);
      if (method === 'GET') {
        return (
          access(who, owner, repo, 'deployments', 'read') ??
          listStatuses(owner, repo, id, query, path)
        );
      }
      if (method !== 'POST') return notFound();
      return (
        access(who, owner, repo, 'deployments', 'write') ??
        createStatus(owner, repo, id, record.body)
      );
    }
    if ((match = ROUTES.issueComments.exec(path))) {
      const [owner, repo] = names(match);
      const issue = Number(match[3]);
      if (method === 'GET') {
        return (
          access(who, owner, repo, 'pull-requests', 'read') ??
          listComments(owner, repo, issue, query, path, fault)
        );
      }
      if (method !== 'POST') return notFound();
      return (
        access(who, owner, repo, 'pull-requests', 'write') ??
        writeComment(who, owner, repo, issue, undefined, record.body)
      );
    }
    if ((match = ROUTES.comment.exec(path))) {
      const [owner, repo] = names(match);
      if (method !== 'PATCH') return notFound();
      return (
        access(who, owner, repo, 'pull-requests', 'write') ??
        writeComment(who, owner, repo, 0, Number(match[3]), record.body)
      );
    }
    if ((match = ROUTES.pullFiles.exec(path))) {
      const [owner, repo] = names(match);
      if (method !== 'GET') return notFound();
      return (
        access(who, owner, repo, 'pull-requests', 'read') ??
        listPullRequestFiles(owner, repo, match[3] ?? '', query, path, fault)
      );
    }
    if ((match = ROUTES.compare.exec(path))) {
      const [owner, repo] = names(match);
      if (method !== 'GET') return notFound();
      return (
        access(who, owner, repo, 'contents', 'read') ?? compare(decodeURIComponent(match[3] ?? ''))
      );
    }
    return notFound();
  }

  function authenticate(header: string | undefined): Identity | string {
    if (header === undefined) return 'Requires authentication';
    const match = /^(?:token|bearer)\s+(\S+)$/i.exec(header);
    const identity = match === null ? undefined : tokens.get(match[1] ?? '');
    return identity ?? 'Bad credentials';
  }

  /** A 404 for a repository the token cannot see, a 403 for a missing permission. */
  function access(
    who: Identity,
    owner: string,
    repo: string,
    scope: Scope,
    needed: 'read' | 'write',
  ): Answer | undefined {
    const full = `${owner}/${repo}`.toLowerCase();
    if (who.repositories && !who.repositories.some((r) => r.toLowerCase() === full)) {
      return notFound();
    }
    const granted = who.permissions?.[scope] ?? 'write';
    const enough = needed === 'read' ? granted !== 'none' : granted === 'write';
    return enough ? undefined : { status: 403, body: githubError(403) };
  }

  function graphql(who: Identity, body: unknown): Answer {
    const query = isObject(body) && typeof body.query === 'string' ? body.query : '';
    const variables = isObject(body) && isObject(body.variables) ? body.variables : {};
    if (/\bviewer\s*\{\s*login\s*\}/.test(query)) {
      const login = who.viewerLogin ?? who.login;
      return { status: 200, body: { data: { viewer: { login } } } };
    }
    if (/\brepository\s*\(/.test(query) && /\bpullRequest\s*\(/.test(query)) {
      return pullRequestStates(who, query, variables);
    }
    return {
      status: 200,
      body: {
        errors: [
          {
            message:
              'the emulator answers only { viewer { login } } and repository { prN: pullRequest(number: N) }',
          },
        ],
      },
    };
  }

  /**
   * `repository(owner: $owner, name: $name) { prN: pullRequest(number: N) { … } … }`: the owner and
   * name from the variables, each alias's number from the query text. As GitHub: an unknown number is
   * a null field and a `NOT_FOUND` error beside the others' data; a repository the token cannot see,
   * a null repository and `NOT_FOUND`; a token without `pull-requests: read`, null fields and one
   * `FORBIDDEN` error per field (all with status 200).
   */
  function pullRequestStates(
    who: Identity,
    query: string,
    variables: Record<string, unknown>,
  ): Answer {
    const owner = typeof variables.owner === 'string' ? variables.owner : '';
    const repo = typeof variables.name === 'string' ? variables.name : '';
    const fields = [...query.matchAll(/(\w+)\s*:\s*pullRequest\s*\(\s*number\s*:\s*(\d+)\s*\)/g)];
    const invalid = outsideInt(query, fields);
    if (invalid !== undefined) return invalid;
    const refused = access(who, owner, repo, 'pull-requests', 'read');
    if (refused?.status === 404) {
      return {
        status: 200,
        body: {
          data: { repository: null },
          errors: [
            {
              type: 'NOT_FOUND',
              path: ['repository'],
              message: `Could not resolve to a Repository with the name '${owner}/${repo}'.`,
            },
          ],
        },
      };
    }
    const data: Record<string, unknown> = {};
    const errors: unknown[] = [];
    for (const [, alias = '', digits = ''] of fields) {
      const number = Number(digits);
      data[alias] = null;
      if (refused !== undefined) {
        errors.push({
          type: 'FORBIDDEN',
          path: ['repository', alias],
          message: 'Resource not accessible by integration',
        });
        continue;
      }
      const found = findPullRequest(owner, repo, number);
      if (found === undefined) {
        errors.push({
          type: 'NOT_FOUND',
          path: ['repository', alias],
          message: `Could not resolve to a PullRequest with the number of ${number}.`,
        });
        continue;
      }
      data[alias] = {
        number,
        state: found.state.toUpperCase(),
        merged: found.state === 'merged',
        closedAt: found.closedAt,
        mergedAt: found.mergedAt,
      };
    }
    const answer = { data: { repository: data }, ...(errors.length > 0 ? { errors } : {}) };
    return { status: 200, body: answer };
  }

  /**
   * GraphQL checks a query before running it: a `number` literal outside `Int` (32 bits) rejects the
   * whole query, with HTTP 200, one error per such field and no `data`, as GitHub answers it.
   */
  function outsideInt(query: string, fields: RegExpExecArray[]): Answer | undefined {
    const errors = fields.flatMap((field) => {
      const [, alias = '', digits = ''] = field;
      if (BigInt(digits) <= INT_MAX) return [];
      const before = query.slice(0, field.index).split('\n');
      const column = (before.at(-1)?.length ?? 0) + 1;
      return [
        {
          path: ['query', 'repository', alias, 'number'],
          extensions: {
            code: 'argumentLiteralsIncompatible',
            typeName: 'Field',
            argumentName: 'number',
          },
          locations: [{ line: before.length, column }],
          message: `Argument 'number' on Field '${alias}' has an invalid value (${digits}). Expected type 'Int!'.`,
        },
      ];
    });
    return errors.length === 0 ? undefined : { status: 200, body: { errors } };
  }

  function createDeployment(who: Identity, owner: string, repo: string, body: unknown): Answer {
    if (!isObject(body) || typeof body.ref !== 'string' || body.ref === '') {
      return invalid('ref', 'missing_field');
    }
    const environment = body.environment ?? 'production';
    if (typeof environment !== 'string') return invalid('environment', 'invalid');
    const sha = body.ref.toLowerCase();
    if (graph.size > 0 && !graph.has(sha)) {
      return { status: 422, body: githubError(422, `No ref found for: ${body.ref}`) };
    }
    const record: DeploymentRecord = {
      id: nextId++,
      owner,
      repo,
      ref: body.ref,
      sha,
      environment,
      description: typeof body.description === 'string' ? body.description : null,
      payload: body.payload ?? {},
      transient_environment: body.transient_environment === true,
      production_environment:
        typeof body.production_environment === 'boolean'
          ? body.production_environment
          : environment === 'production',
      auto_merge: body.auto_merge,
      required_contexts: body.required_contexts,
      task: typeof body.task === 'string' ? body.task : 'deploy',
      creator: { login: who.login, type: who.type },
      created_at: new Date().toISOString(),
      statuses: [],
    };
    deployments.push(record);
    return { status: 201, body: deploymentJson(record) };
  }

  function deploymentJson(record: DeploymentRecord): unknown {
    const { owner, repo, ...fields } = record;
    return {
      ...fields,
      statuses: undefined,
      url: `${url}/repos/${owner}/${repo}/deployments/${record.id}`,
      statuses_url: `${url}/repos/${owner}/${repo}/deployments/${record.id}/statuses`,
    };
  }

  function findDeployment(owner: string, repo: string, id: number): DeploymentRecord | undefined {
    return deployments.find(
      (d) =>
        d.id === id &&
        d.owner.toLowerCase() === owner.toLowerCase() &&
        d.repo.toLowerCase() === repo.toLowerCase(),
    );
  }

  function createStatus(owner: string, repo: string, id: number, body: unknown): Answer {
    const record = findDeployment(owner, repo, id);
    if (record === undefined) return notFound();
    if (
      !isObject(body) ||
      typeof body.state !== 'string' ||
      !DEPLOYMENT_STATES.includes(body.state)
    ) {
      return invalid('state', 'invalid');
    }
    const description = typeof body.description === 'string' ? body.description : '';
    if (description.length > DESCRIPTION_LIMIT) {
      return {
        status: 422,
        body: githubError(
          422,
          `description is too long (maximum is ${DESCRIPTION_LIMIT} characters)`,
        ),
      };
    }
    const status: DeploymentStatus = {
      id: nextId++,
      state: body.state,
      description,
      environment: typeof body.environment === 'string' ? body.environment : record.environment,
      environment_url: typeof body.environment_url === 'string' ? body.environment_url : '',
      log_url: typeof body.log_url === 'string' ? body.log_url : '',
      auto_inactive: typeof body.auto_inactive === 'boolean' ? body.auto_inactive : undefined,
      created_at: new Date().toISOString(),
    };
    record.statuses.push(status);
    // GitHub: a success (auto_inactive defaults to true) adds an `inactive` status to the
    // environment's earlier deployments whose last status was a success.
    if (status.state === 'success' && status.auto_inactive !== false) {
      for (const other of deployments) {
        if (other === record || other.environment !== record.environment) continue;
        if (other.owner !== record.owner || other.repo !== record.repo) continue;
        const last = other.statuses.at(-1);
        if (last?.state === 'success') {
          other.statuses.push({ ...last, id: nextId++, state: 'inactive', description: '' });
        }
      }
    }
    return {
      status: 201,
      body: {
        ...status,
        url: `${url}/repos/${owner}/${repo}/deployments/${id}/statuses/${status.id}`,
      },
    };
  }

  /** `GET …/deployments/{id}/statuses`: newest first, `per_page` (default 30, at most 100) and `page`. */
  function listStatuses(
    owner: string,
    repo: string,
    id: number,
    query: URLSearchParams,
    path: string,
  ): Answer {
    const record = findDeployment(owner, repo, id);
    if (record === undefined) return notFound();
    return paged([...record.statuses].reverse(), query, path);
  }

  /**
   * `GET /repos/{owner}/{repo}/deployments`: newest first, filtered by `environment` (exact),
   * `ref`, `sha` and `task` when given, `per_page` (default 30, at most 100) and `page`, with
   * GitHub's `Link` header.
   */
  function listDeployments(
    owner: string,
    repo: string,
    query: URLSearchParams,
    path: string,
    fault?: GitHubFault,
  ): Answer {
    const filters = ['environment', 'ref', 'sha', 'task'] as const;
    const all = deployments
      .filter(
        (d) =>
          d.owner.toLowerCase() === owner.toLowerCase() &&
          d.repo.toLowerCase() === repo.toLowerCase() &&
          filters.every((name) => !query.has(name) || d[name] === query.get(name)),
      )
      .reverse();
    return paged(all.map(deploymentJson), query, path, fault);
  }

  /**
   * One page of `all` as GitHub serves a list: `per_page`, `page` and the `Link` header; a
   * fault's `shift` or `repeatLast` bends it.
   */
  function paged(
    all: unknown[],
    query: URLSearchParams,
    path: string,
    fault?: GitHubFault,
  ): Answer {
    const perPage = clampInt(query.get('per_page'), 30, 1, 100);
    const asked = clampInt(query.get('page'), 1, 1, Number.MAX_SAFE_INTEGER);
    // The items added at the head are never served: they would be on page 1, already read.
    const shift = asked > 1 ? (fault?.shift ?? 0) : 0;
    const listed = [...Array<unknown>(shift).fill(undefined), ...all];
    const last = Math.max(1, Math.ceil(listed.length / perPage));
    const page = fault?.repeatLast ? Math.min(asked, last) : asked;
    const items = listed.slice((page - 1) * perPage, page * perPage);
    const kept = [...query].filter(([name]) => name !== 'page' && name !== 'per_page');
    const link = (n: number, rel: string) => {
      const search = new URLSearchParams([
        ...kept,
        ['per_page', String(perPage)],
        ['page', String(n)],
      ]);
      return `<${url}${path}?${search.toString()}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1) links.push(link(page - 1, 'prev'));
    if (page < last || fault?.repeatLast) links.push(link(asked + 1, 'next'), link(last, 'last'));
    if (page > 1) links.push(link(1, 'first'));
    return {
      status: 200,
      body: items,
      headers: links.length > 0 ? { link: links.join(', ') } : {},
    };
  }

  function listComments(
    owner: string,
    repo: string,
    issue: number,
    query: URLSearchParams,
    path: string,
    fault?: GitHubFault,
  ): Answer {
    const all = comments.filter(
      (c) =>
        c.owner.toLowerCase() === owner.toLowerCase() &&
        c.repo.toLowerCase() === repo.toLowerCase() &&
        c.issue === issue,
    );
    return paged(all.map(commentJson), query, path, fault);
  }

  function findPullRequest(owner: string, repo: string, number: number): PullRequest | undefined {
    return pullRequests.find(
      (pr) =>
        pr.owner.toLowerCase() === owner.toLowerCase() &&
        pr.repo.toLowerCase() === repo.toLowerCase() &&
        pr.number === number,
    );
  }

  /**
   * `GET …/pulls/{n}/files`: in order, paged as every list (`per_page` default 30, at most 100),
   * the listing cut at GitHub's 3,000 files; 404 for a pull request not seeded.
   */
  function listPullRequestFiles(
    owner: string,
    repo: string,
    number: string,
    query: URLSearchParams,
    path: string,
    fault?: GitHubFault,
  ): Answer {
    const pullRequest = /^\d+$/.test(number)
      ? findPullRequest(owner, repo, Number(number))
      : undefined;
    if (pullRequest === undefined) return notFound();
    return paged(pullRequest.files.slice(0, PULL_REQUEST_FILES_LIMIT), query, path, fault);
  }

  function commentJson(comment: Comment): unknown {
    const { owner, repo, issue, ...fields } = comment;
    return {
      ...fields,
      html_url: `https://github.com/${owner}/${repo}/pull/${issue}#issuecomment-${comment.id}`,
      issue_url: `${url}/repos/${owner}/${repo}/issues/${issue}`,
      author_association: 'NONE',
    };
  }

  function writeComment(
    who: Identity,
    owner: string,
    repo: string,
    issue: number,
    id: number | undefined,
    body: unknown,
  ): Answer {
    if (!isObject(body) || typeof body.body !== 'string') return invalid('body', 'missing_field');
    if ([...body.body].length > COMMENT_LIMIT) {
      return {
        status: 422,
        body: githubError(422, `Body is too long (maximum is ${COMMENT_LIMIT} characters)`),
      };
    }
    const time = new Date().toISOString();
    if (id === undefined) {
      const comment: Comment = {
        id: nextId++,
        owner,
        repo,
        issue,
        body: body.body,
        user: { login: who.login, type: who.type },
        created_at: time,
        updated_at: time,
      };
      comments.push(comment);
      return { status: 201, body: commentJson(comment) };
    }
    const comment = comments.find(
      (c) =>
        c.id === id &&
        c.owner.toLowerCase() === owner.toLowerCase() &&
        c.repo.toLowerCase() === repo.toLowerCase(),
    );
    if (comment === undefined) return notFound();
    comment.body = body.body;
    comment.updated_at = time;
    return { status: 200, body: commentJson(comment) };
  }

  /** Commits reachable from `sha`, itself included. */
  function ancestors(sha: string): Set<string> {
    const seen = new Set<string>();
    const stack = [sha];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(graph.get(next) ?? []));
    }
    return seen;
  }

  function compare(range: string): Answer {
    const parts = range.split('...');
    if (parts.length !== 2) return notFound();
    const [base, head] = parts.map((p) => (p ?? '').toLowerCase()) as [string, string];
    if (!graph.has(base) || !graph.has(head)) return notFound();
    const fromBase = ancestors(base);
    const fromHead = ancestors(head);
    const aheadBy = [...fromHead].filter((c) => !fromBase.has(c)).length;
    const behindBy = [...fromBase].filter((c) => !fromHead.has(c)).length;
    const status =
      aheadBy === 0 && behindBy === 0
        ? 'identical'
        : behindBy === 0
          ? 'ahead'
          : aheadBy === 0
            ? 'behind'
            : 'diverged';
    const mergeBase = [...fromHead].find((c) => fromBase.has(c)) ?? null;
    return {
      status: 200,
      body: {
        status,
        ahead_by: aheadBy,
        behind_by: behindBy,
        total_commits: aheadBy,
        base_commit: { sha: base },
        merge_base_commit: mergeBase === null ? null : { sha: mergeBase },
        commits: [],
        files: [],
      },
    };
  }

  const emulator: GitHubEmulator = {
    url,
    requests,
    deployments,
    comments,
    pullRequests,
    addToken(token, identity) {
      tokens.set(token, identity);
    },
    commit(sha, parents = []) {
      graph.set(
        sha.toLowerCase(),
        parents.map((p) => p.toLowerCase()),
      );
    },
    chain(...shas) {
      shas.forEach((sha, index) =>
        emulator.commit(sha, index === 0 ? [] : [shas[index - 1] as string]),
      );
      return shas;
    },
    seedComment(repository, issue, body, user = { login: 'someone' }) {
      const [owner = '', repo = ''] = repository.split('/');
      const time = new Date().toISOString();
      const comment: Comment = {
        id: nextId++,
        owner,
        repo,
        issue,
        body,
        user: { login: user.login, type: user.type ?? 'User' },
        created_at: time,
        updated_at: time,
      };
      comments.push(comment);
      return comment;
    },
    seedDeployments(repository, environment, count, state = 'success') {
      const [owner = '', repo = ''] = repository.split('/');
      const seeded: DeploymentRecord[] = [];
      for (let i = 0; i < count; i++) {
        const created_at = new Date().toISOString();
        const record: DeploymentRecord = {
          id: nextId++,
          owner,
          repo,
          ref: 'feature',
          sha: 'f'.repeat(40),
          environment,
          description: `seeded ${i + 1}`,
          payload: {},
          transient_environment: true,
          production_environment: false,
          auto_merge: false,
          required_contexts: [],
          task: 'deploy',
          creator: { login: 'github-actions[bot]', type: 'Bot' },
          created_at,
          statuses: [],
        };
        record.statuses.push({
          id: nextId++,
          state,
          description: '',
          environment,
          environment_url: '',
          log_url: '',
          auto_inactive: undefined,
          created_at,
        });
        deployments.push(record);
        seeded.push(record);
      }
      return seeded;
    },
    stateOf(id) {
      return deployments.find((d) => d.id === id)?.statuses.at(-1)?.state;
    },
    seedPullRequest(repository, number, state = 'open', at = new Date().toISOString()) {
      const [owner = '', repo = ''] = repository.split('/');
      const pullRequest: PullRequest = {
        owner,
        repo,
        number,
        state,
        closedAt: state === 'open' ? null : at,
        mergedAt: state === 'merged' ? at : null,
        files: [],
        changedFiles: 0,
      };
      const index = pullRequests.findIndex(
        (pr) => pr.owner === owner && pr.repo === repo && pr.number === number,
      );
      const before = pullRequests[index];
      if (before !== undefined) {
        pullRequest.files = before.files;
        pullRequest.changedFiles = before.changedFiles;
      }
      if (index >= 0) pullRequests.splice(index, 1, pullRequest);
      else pullRequests.push(pullRequest);
      return pullRequest;
    },
    setPullRequestFiles(repository, number, files, changedFiles) {
      const [owner = '', repo = ''] = repository.split('/');
      const pullRequest =
        findPullRequest(owner, repo, number) ?? emulator.seedPullRequest(repository, number);
      pullRequest.files = files.map((file) =>
        typeof file === 'string' ? pullRequestFile(file) : file,
      );
      pullRequest.changedFiles = changedFiles ?? files.length;
      return pullRequest;
    },
    stateQueries() {
      return requests.filter(
        (r) =>
          r.method === 'POST' &&
          r.path === '/graphql' &&
          isObject(r.body) &&
          typeof r.body.query === 'string' &&
          /\bpullRequest\s*\(/.test(r.body.query),
      );
    },
    writes() {
      return requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql');
    },
    seedComments(repository, issue, count, login = 'someone') {
      for (let i = 0; i < count; i++)
        emulator.seedComment(repository, issue, `comment ${i + 1}`, { login });
    },
    inject(...newFaults) {
      for (const fault of newFaults) {
        const remaining = fault.times ?? 1;
        if (remaining > 0) faults.push({ fault, remaining });
      }
    },
    clearFaults() {
      faults = [];
    },
    calls(pattern) {
      return requests.filter((r) => {
        const line = `${r.method} ${r.path}`;
        return typeof pattern === 'string' ? line === pattern : pattern.test(line);
      });
    },
    close() {
      closing = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const res of hung) res.destroy();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return emulator;
}

// ---- pure helpers -------------------------------------------------------------------------------

/** A changed file as GitHub lists it: `modified` unless said; a rename names what it was. */
export function pullRequestFile(
  filename: string,
  change: { status?: PullRequestFile['status']; previous?: string } = {},
): PullRequestFile {
  const status = change.previous !== undefined ? 'renamed' : (change.status ?? 'modified');
  const additions = status === 'removed' ? 0 : 1;
  const deletions = status === 'added' ? 0 : 1;
  return {
    sha: fakeSha(filename),
    filename,
    status,
    additions,
    deletions,
    changes: additions + deletions,
    ...(change.previous === undefined ? {} : { previous_filename: change.previous }),
  };
}

/** 40 hex digits that depend on `text` alone. */
function fakeSha(text: string): string {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0;
  return hash.toString(16).padStart(8, '0').repeat(5);
}

function names(match: RegExpExecArray): [string, string] {
  return [decodeURIComponent(match[1] ?? ''), decodeURIComponent(match[2] ?? '')];
}

function notFound(): Answer {
  return { status: 404, body: githubError(404) };
}

function invalid(field: string, code: string): Answer {
  return {
    status: 422,
    body: { ...(githubError(422) as object), errors: [{ resource: 'Request', field, code }] },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clampInt(raw: string | null, fallback: number, min: number, max: number): number {
  const value = raw === null || !/^\d+$/.test(raw) ? fallback : Number(raw);
  return Math.min(max, Math.max(min, value));
}

function send(res: ServerResponse, answer: Answer): void {
  const body = Buffer.from(answer.status === 204 ? '' : JSON.stringify(answer.body));
  res.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4999',
    ...answer.headers,
    'content-length': String(body.length),
  });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseLoosely(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
