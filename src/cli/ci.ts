/**
 * Which run this is, outside GitHub: env-ci recognises some thirty CI
 * systems. Its commit is "the commit the CI built", on some pull request
 * builds a merge commit the service never builds; the corrections below keep
 * the branch head instead: the commit that must be live is the one pushed.
 */
import envCi, { type EnvCiAnswer } from 'env-ci';
import { FULL_SHA, shortSha } from '../common/text.js';
import type { RunDescription, RunHead } from '../inputs/run-description.js';
import type { RemedyWords } from '../service/answers.js';
import { originRepository } from './git.js';
import type { Environment } from './option-values.js';

export interface CiRun {
  /** For the log (`GitLab CI/CD`); `a terminal` outside CI. */
  where: string;
  /** `owner/name` (`group/sub/name` on GitLab), `--repository`'s default; outside CI, the `origin` remote's. */
  slug?: string;
  /** `slug`'s code host, when known (the origin remote's): the integration's entry must be on it. */
  host?: string;
  head: RunHead;
  /** The commit checked out (maybe a merge commit), for the summary. */
  commit?: string;
  /** Set on another CI's merge or pull request pipeline (never GitHub's: the action reads its event). */
  pullRequest?: { target?: string };
}

function none(reason: string): RunHead {
  return { kind: 'none', reason };
}

interface Candidate {
  branch?: string;
  sha?: string;
  pullRequest: boolean;
  tag?: string;
  repository?: string;
  /** Why nothing can be targeted, when the service's variables cannot say. */
  unknown?: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** `git@host:owner/name.git`, `https://host/owner/name.git` → `owner/name`. */
export function slugOfGitUrl(url: string | undefined): string | undefined {
  if (url === undefined || url === '') return undefined;
  const ssh = /^[^@/]+@[^:/]+:(?:\d+\/)?(.+?)(?:\.git)?\/?$/.exec(url);
  if (ssh !== null) return ssh[1];
  try {
    const path = new URL(url).pathname.replace(/^\/+/, '').replace(/\.git\/?$|\/$/, '');
    return path === '' ? undefined : path;
  } catch {
    return undefined;
  }
}

/** env-ci's branch on a pull request is the target branch; the head is `prBranch`. */
function generic(answer: EnvCiAnswer): Candidate {
  const pullRequest = answer.isPr === true;
  return {
    branch: nonEmpty(pullRequest ? answer.prBranch : answer.branch),
    sha: nonEmpty(answer.commit),
    pullRequest,
    tag: nonEmpty(answer.tag),
  };
}

/** Per service, the documented variable that names the branch head where env-ci names none or a merge. */
const CORRECTIONS: Record<string, (answer: EnvCiAnswer, env: Environment) => Candidate> = {
  gitlab: (answer, env) => {
    const candidate = generic(answer);
    if (answer.isPr !== true) return candidate;
    // A merged-results pipeline's CI_COMMIT_SHA is the merge commit; the
    // source branch's head is CI_MERGE_REQUEST_SOURCE_BRANCH_SHA, which a
    // plain merge request pipeline leaves empty (its CI_COMMIT_SHA is the head).
    return {
      ...candidate,
      branch: nonEmpty(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME),
      sha: nonEmpty(env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA) ?? nonEmpty(env.CI_COMMIT_SHA),
      repository: nonEmpty(env.CI_MERGE_REQUEST_SOURCE_PROJECT_PATH),
    };
  },
  github: (answer, env) => {
    if (answer.isPr !== true) return generic(answer);
    // GITHUB_SHA is the merge commit there; the head is in the event payload,
    // which the action reads. The command does not guess it.
    return {
      pullRequest: true,
      unknown: `on a GitHub ${env.GITHUB_EVENT_NAME ?? 'pull_request'} event GITHUB_SHA is a merge commit: pass --commit with the head sha, or use the action`,
    };
  },
  circleci: (answer, env) => ({
    ...generic(answer),
    // Set only on a pull request from a fork.
    repository:
      nonEmpty(env.CIRCLE_PR_USERNAME) !== undefined &&
      nonEmpty(env.CIRCLE_PR_REPONAME) !== undefined
        ? `${env.CIRCLE_PR_USERNAME}/${env.CIRCLE_PR_REPONAME}`
        : undefined,
  }),
  jenkins: (answer, env) => {
    const candidate = generic(answer);
    if (answer.isPr === true) {
      if (nonEmpty(env.ghprbActualCommit) !== undefined) return candidate;
      if (nonEmpty(env.gitlabMergeRequestId) !== undefined) {
        return { ...candidate, sha: nonEmpty(env.gitlabMergeRequestLastCommit) };
      }
      // A multibranch pull request build (CHANGE_ID) may build the head
      // merged with its target, and names no head sha.
      return {
        pullRequest: true,
        branch: nonEmpty(env.CHANGE_BRANCH),
        unknown:
          'a Jenkins pull request build (CHANGE_ID) may build a merge with the target branch and names no head commit: pass --commit with the head sha',
      };
    }
    // GIT_BRANCH is the remote's branch (`origin/main`) in a freestyle job.
    const branch = candidate.branch?.replace(/^origin\//, '');
    return { ...candidate, branch };
  },
  bitbucket: (answer, env) => ({
    ...generic(answer),
    // env-ci does not read BITBUCKET_PR_ID; BITBUCKET_BRANCH and _COMMIT are the source's.
    pullRequest: nonEmpty(env.BITBUCKET_PR_ID) !== undefined,
  }),
  azurePipelines: (answer, env) => {
    const candidate = generic(answer);
    if (answer.isPr !== true) return candidate;
    // BUILD_SOURCEVERSION is the merge commit of a pull request build.
    const sha = nonEmpty(env.SYSTEM_PULLREQUEST_SOURCECOMMITID);
    return sha === undefined
      ? {
          ...candidate,
          sha: undefined,
          unknown:
            'an Azure Pipelines pull request build checks out a merge commit and SYSTEM_PULLREQUEST_SOURCECOMMITID is not set: pass --commit with the head sha',
        }
      : { ...candidate, sha };
  },
  buildkite: (answer, env) => ({
    ...generic(answer),
    repository: slugOfGitUrl(env.BUILDKITE_PULL_REQUEST_REPO),
  }),
};

/** Per service, the variable naming a pull request's target branch where env-ci's `branch` does not. */
const TARGETS: Record<string, (env: Environment) => string | undefined> = {
  github: (env) => env.GITHUB_BASE_REF,
  jenkins: (env) => env.CHANGE_TARGET,
  bitbucket: (env) => env.BITBUCKET_PR_DESTINATION_BRANCH,
};

/** The branch a merge or pull request merges into: env-ci's `branch` on a pull request. */
function pullRequestOf(
  service: string,
  answer: EnvCiAnswer,
  candidate: Candidate,
  env: Environment,
): CiRun['pullRequest'] {
  if (!candidate.pullRequest) return undefined;
  const fromEnvCi = answer.isPr === true ? nonEmpty(answer.branch) : undefined;
  return { target: nonEmpty(TARGETS[service]?.(env)) ?? fromEnvCi };
}

/** The project slug where env-ci has none. */
const SLUGS: Record<string, (env: Environment) => string | undefined> = {
  jenkins: (env) => slugOfGitUrl(env.GIT_URL),
  azurePipelines: (env) => nonEmpty(env.BUILD_REPOSITORY_NAME),
};

function headOf(candidate: Candidate, where: string): RunHead {
  if (candidate.unknown !== undefined) return none(candidate.unknown);
  if (candidate.tag !== undefined) return none(`the run is for the tag ${candidate.tag}`);
  if (candidate.branch === undefined) {
    return none(`${where} does not say which branch the run is for`);
  }
  if (candidate.sha === undefined) return none(`${where} does not say which commit the run is for`);
  if (!FULL_SHA.test(candidate.sha)) {
    return none(`${where} gives '${candidate.sha}', not a full commit sha`);
  }
  return {
    kind: 'branch',
    branch: candidate.branch,
    sha: candidate.sha.toLowerCase(),
    repository: candidate.repository,
    pullRequest: candidate.pullRequest,
  };
}

/** The run as the CI system (outside CI, the checkout in `cwd`) describes it; `git` runs only outside CI. */
export function describeCiRun(env: Environment, cwd: string): CiRun {
  const answer = envCi({ env: { ...env }, cwd });
  const service = answer.service;
  if (answer.isCi && service !== undefined) {
    const where = answer.name ?? service;
    const candidate = (CORRECTIONS[service] ?? generic)(answer, env);
    return {
      where,
      slug: nonEmpty(answer.slug) ?? SLUGS[service]?.(env),
      head: headOf(candidate, where),
      commit: nonEmpty(answer.commit),
      pullRequest: pullRequestOf(service, answer, candidate, env),
    };
  }
  if (answer.isCi) {
    // CI is set, but by a system env-ci does not know: its checkout may be a merge.
    return {
      where: 'an unknown CI system',
      head: none(
        'CI is set but the CI system is not one the command recognises: pass --commit with the sha to target',
      ),
    };
  }
  const where = 'the git checkout';
  if (answer.commit === undefined) {
    return { where: 'a terminal', head: none(`${cwd} is not in a git checkout`) };
  }
  const origin = originRepository(env, cwd);
  const checkout = { where, commit: answer.commit, ...origin };
  if (answer.branch === undefined || answer.branch === 'HEAD') {
    return { ...checkout, head: none('the git checkout is on no branch (a detached HEAD)') };
  }
  return {
    ...checkout,
    head: headOf({ branch: answer.branch, sha: answer.commit, pullRequest: false }, where),
  };
}

/** Where the run is, and the commit it targets: the one given, else the branch head when known. */
export function describeRun(ci: CiRun, given?: string): string {
  const { head } = ci;
  if (given !== undefined && (head.kind === 'none' || head.sha.toLowerCase() !== given)) {
    return `run: ${ci.where}, commit ${shortSha(given)} (the commit given)`;
  }
  if (head.kind === 'none') return `run: ${ci.where}`;
  const from =
    head.pullRequest && head.repository !== undefined && head.repository !== ci.slug
      ? ` (a pull request from ${head.repository})`
      : head.pullRequest
        ? ' (a pull request)'
        : '';
  return `run: ${ci.where}, branch ${head.branch} at ${shortSha(head.sha)}${from}`;
}

export function runDescription(run: CiRun, workspace: string, words: RemedyWords): RunDescription {
  return {
    workspace,
    words,
    repository: run.slug,
    ...(run.host === undefined ? {} : { repositoryHost: run.host }),
    head: run.head,
    commit: run.commit,
  };
}
