import type { CommitInput } from './parsers.js';
import type { CommitRequest, RepositoryName, SourceFields } from './deploy-spec.js';
import { wordsOf, type RunDescription } from './run-description.js';

function none(reason: string): CommitRequest {
  return { kind: 'none', reason };
}

function sameRepository(fullName: string, repository: RepositoryName): boolean {
  return fullName.toLowerCase() === `${repository.owner}/${repository.name}`.toLowerCase();
}

/**
 * Whether `auto` is targeted depends on the branch the deployment tracks, which only the deploy
 * step knows. A head in another repository (a fork) is a commit the deployment's does not have.
 */
export function commitRequest(
  commit: CommitInput,
  fields: SourceFields,
  run: RunDescription,
): CommitRequest {
  if (commit.kind === 'none') return none(`${wordsOf(run).commit} is none`);
  if (commit.kind === 'sha') return commit;
  if (fields.source !== 'codehost') return none(`source ${fields.source} has no commits`);
  const { head } = run;
  if (head === undefined) return none("the run's event is not known");
  if (head.kind === 'none') return head;
  const { repository } = fields;
  if (
    head.repository === null ||
    (head.repository !== undefined && !sameRepository(head.repository, repository))
  ) {
    const where = head.repository ?? 'a deleted repository';
    const wanted = `${repository.owner}/${repository.name}`;
    return none(
      head.pullRequest
        ? `the pull request's head is in ${where}, not ${wanted}`
        : `the run is for ${where}, not ${wanted}`,
    );
  }
  return { kind: 'auto', branch: head.branch, sha: head.sha };
}
