/**
 * Which commit must be live (README "What green means"): the `commit` input,
 * with `auto` derived from the run's event. Whether an `auto` commit is
 * targeted depends on the branch the deployment tracks, which only the
 * deploy step knows; this module says which branch and sha the run is for.
 */
import { z } from 'zod';
import { FULL_SHA } from '../common/text.js';
import type { CommitInput } from './parsers.js';
import type {
  CommitRequest,
  RepositoryName,
  RunEnvironment,
  RunEvent,
  SourceFields,
} from './plan.js';

const BRANCH_REF = 'refs/heads/';
/** Events whose GITHUB_SHA is a merge commit the service never builds. */
const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target'];

/** The part of a pull request event's payload that is read; the rest may be anything. */
const PullRequestPayloadSchema = z.looseObject({
  pull_request: z.looseObject({
    head: z.looseObject({
      ref: z.string().min(1),
      sha: z.string().regex(FULL_SHA),
      // null when the fork the pull request comes from was deleted
      repo: z.looseObject({ full_name: z.string() }).nullish(),
    }),
  }),
});

function none(reason: string): CommitRequest {
  return { kind: 'none', reason };
}

function sameRepository(fullName: string, repository: RepositoryName): boolean {
  return fullName.toLowerCase() === `${repository.owner}/${repository.name}`.toLowerCase();
}

/** The head of the pull request: its branch and sha (never GITHUB_SHA, the merge commit). */
function pullRequestHead(event: RunEvent, repository: RepositoryName): CommitRequest {
  const parsed = PullRequestPayloadSchema.safeParse(event.payload);
  if (!parsed.success) {
    return none(`the ${event.name} event has no pull_request.head.ref and .sha in its payload`);
  }
  const { ref, sha, repo } = parsed.data.pull_request.head;
  // A head in another repository (a fork) is a commit the deployment's repository does not have.
  if (repo === null || (repo !== undefined && !sameRepository(repo.full_name, repository))) {
    const where = repo === null ? 'a deleted repository' : repo.full_name;
    return none(
      `the pull request's head is in ${where}, not ${repository.owner}/${repository.name}`,
    );
  }
  return { kind: 'auto', branch: ref, sha: sha.toLowerCase() };
}

/** The branch of `refs/heads/B` and GITHUB_SHA, for every other event. */
function branchHead(
  event: RunEvent,
  workflowRepository: string | undefined,
  repository: RepositoryName,
): CommitRequest {
  if (!event.ref.startsWith(BRANCH_REF) || event.ref === BRANCH_REF) {
    if (event.ref.startsWith('refs/tags/')) return none(`the run is for tag ${event.ref}`);
    if (event.ref === '') return none(`the ${event.name} event has no ref`);
    return none(`the run is for ${event.ref}, not a branch`);
  }
  if (workflowRepository !== undefined && !sameRepository(workflowRepository, repository)) {
    return none(`the run is for ${workflowRepository}, not ${repository.owner}/${repository.name}`);
  }
  if (!FULL_SHA.test(event.sha)) return none(`GITHUB_SHA '${event.sha}' is not a full commit sha`);
  return { kind: 'auto', branch: event.ref.slice(BRANCH_REF.length), sha: event.sha.toLowerCase() };
}

/**
 * The commit the plan asks for, once the plan's source fields are known (a
 * sha with a source other than codehost is refused before this).
 */
export function commitRequest(
  commit: CommitInput,
  fields: SourceFields,
  environment: RunEnvironment,
): CommitRequest {
  if (commit.kind === 'none') return none('the commit input is none');
  if (commit.kind === 'sha') return commit;
  if (fields.source !== 'codehost') return none(`source ${fields.source} has no commits`);
  const { event } = environment;
  if (event === undefined) return none("the run's event is not known");
  if (PULL_REQUEST_EVENTS.includes(event.name)) return pullRequestHead(event, fields.repository);
  return branchHead(event, environment.repository, fields.repository);
}
