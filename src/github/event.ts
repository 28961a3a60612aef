/**
 * The run as GitHub describes it, as the core's `RunDescription`. On a pull
 * request the head is its head, never GITHUB_SHA, the merge commit
 * (docs/how-it-works.md, "Which commit must be live").
 */
import { z } from 'zod';
import { isFromFork, type RunDescription, type RunHead } from '../inputs/run-description.js';
import { FULL_SHA, withoutTrailingSlashes } from '../common/text.js';
import type { GitHubRunContext } from './features/context.js';

export interface RunEvent {
  name: string;
  /** `context.ref` (GITHUB_REF): `refs/heads/main`, `refs/tags/v1`, `refs/pull/7/merge`. */
  ref: string;
  /** `context.sha` (GITHUB_SHA). On a pull request this is a merge commit, not the head. */
  sha: string;
  payload: unknown;
}

const BRANCH_REF = 'refs/heads/';
/** Events whose GITHUB_SHA is a merge commit the service never builds. */
const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target'];

/** The part of a pull request event's payload that is read; the rest may be anything. */
const PullRequestPayloadSchema = z.lazy(() =>
  z.looseObject({
    pull_request: z.looseObject({
      head: z.looseObject({
        ref: z.string().min(1),
        sha: z.string().regex(FULL_SHA),
        // null when the fork the pull request comes from was deleted
        repo: z.looseObject({ full_name: z.string() }).nullish(),
      }),
    }),
  }),
);

function none(reason: string): RunHead {
  return { kind: 'none', reason };
}

function pullRequestHead(event: RunEvent): RunHead {
  const parsed = PullRequestPayloadSchema.safeParse(event.payload);
  if (!parsed.success) {
    return none(`the ${event.name} event has no pull_request.head.ref and .sha in its payload`);
  }
  const { ref, sha, repo } = parsed.data.pull_request.head;
  return {
    kind: 'branch',
    branch: ref,
    sha: sha.toLowerCase(),
    repository: repo === null ? null : repo?.full_name,
    pullRequest: true,
  };
}

/** The branch of `refs/heads/B` and GITHUB_SHA, for every other event. */
function branchHead(event: RunEvent, workflowRepository: string | undefined): RunHead {
  if (!event.ref.startsWith(BRANCH_REF) || event.ref === BRANCH_REF) {
    if (event.ref.startsWith('refs/tags/')) return none(`the run is for tag ${event.ref}`);
    if (event.ref === '') {
      return none(`the ${event.name === '' ? "run's" : event.name} event has no ref`);
    }
    return none(`the run is for ${event.ref}, not a branch`);
  }
  if (!FULL_SHA.test(event.sha)) return none(`GITHUB_SHA '${event.sha}' is not a full commit sha`);
  return {
    kind: 'branch',
    branch: event.ref.slice(BRANCH_REF.length),
    sha: event.sha.toLowerCase(),
    repository: workflowRepository,
    pullRequest: false,
  };
}

export function runHead(event: RunEvent, workflowRepository: string | undefined): RunHead {
  return PULL_REQUEST_EVENTS.includes(event.name)
    ? pullRequestHead(event)
    : branchHead(event, workflowRepository);
}

/** The step or job condition that skips a fork's pull request runs (docs/github.md, "Forks"). */
export const SKIP_FORKS = 'github.event.pull_request.head.repo.full_name == github.repository';

interface RunnerVariables {
  GITHUB_WORKSPACE?: string;
  GITHUB_REPOSITORY?: string;
  GITHUB_SERVER_URL?: string;
  GITHUB_RUN_ID?: string;
  GITHUB_API_URL?: string;
}

export function describeRun(
  event: RunEvent,
  variables: RunnerVariables,
  cwd: string,
): RunDescription {
  return {
    workspace: variables.GITHUB_WORKSPACE ?? cwd,
    repository: variables.GITHUB_REPOSITORY,
    head: runHead(event, variables.GITHUB_REPOSITORY),
    commit: event.sha,
    skipForks: `if: ${SKIP_FORKS}`,
  };
}

const PullRequestNumberSchema = z.lazy(() =>
  z.looseObject({
    pull_request: z.looseObject({
      number: z.number().int().positive(),
      state: z.string().optional().catch(undefined),
      merged: z.boolean().nullish().catch(undefined),
      changed_files: z.number().int().nonnegative().optional().catch(undefined),
    }),
  }),
);

function pullRequestState(pull: {
  state?: string | undefined;
  merged?: boolean | null | undefined;
}) {
  if (pull.merged === true) return 'merged';
  if (pull.state === 'closed') return 'closed';
  return pull.state === 'open' ? 'open' : undefined;
}

/** Where the run stands on GitHub; undefined without GITHUB_REPOSITORY. */
export function gitHubRunContext(
  event: RunEvent,
  variables: RunnerVariables,
  run: RunDescription,
): GitHubRunContext | undefined {
  const [owner, repo, ...rest] = (variables.GITHUB_REPOSITORY ?? '').split('/');
  if (!owner || !repo || rest.length > 0) return undefined;
  const pull = PULL_REQUEST_EVENTS.includes(event.name)
    ? PullRequestNumberSchema.safeParse(event.payload)
    : undefined;
  const pullRequest = pull?.success === true ? pull.data.pull_request.number : undefined;
  const state = pull?.success === true ? pullRequestState(pull.data.pull_request) : undefined;
  const changedFiles = pull?.success === true ? pull.data.pull_request.changed_files : undefined;
  const head = run.head?.kind === 'branch' && run.head.pullRequest ? run.head.sha : undefined;
  const server = withoutTrailingSlashes(variables.GITHUB_SERVER_URL || 'https://github.com');
  const runId = variables.GITHUB_RUN_ID;
  return {
    repository: { owner, repo },
    sha: head ?? event.sha,
    ...(pullRequest === undefined ? {} : { pullRequest }),
    ...(state === undefined ? {} : { pullRequestState: state }),
    ...(changedFiles === undefined ? {} : { changedFiles }),
    fork: isFromFork(run),
    ...(runId ? { runUrl: `${server}/${owner}/${repo}/actions/runs/${runId}` } : {}),
    ...(variables.GITHUB_API_URL ? { apiUrl: variables.GITHUB_API_URL } : {}),
  };
}
