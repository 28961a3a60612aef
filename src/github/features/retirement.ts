/**
 * A preview retired on GitHub, for the retire step and for each orphan of a
 * sweep: every deployment of its environment marked `inactive` (those
 * already inactive skipped, without a write), and its comment rewritten
 * when there is one and it does not already say so, side by side within
 * the run's budget. Advisory: it warns, it never throws.
 */
import type { GitHubApi } from '../client/api.js';
import type { Repo } from '../client/requests.js';
import type { Logger } from '../../common/runtime.js';
import type { RetireReport, Retirement } from '../../run/ports/progress.js';
import { description } from './deployment-record.js';
import type { PullRequestComment } from './pr-comment.js';
import { retiredCommentBody, sameRetiredBody } from './retire-comment.js';
import { markInactive, type RecordsRetired } from './retire-records.js';

/** Which preview is retired on GitHub, and what it says of its pull request. */
export interface RetireTarget {
  /** The environment whose deployments are marked inactive; none when empty. */
  environment: string;
  /** The preview's comment on its pull request; undefined: none is asked for. */
  comment: PullRequestComment | undefined;
  /** How its pull request stands, for the comment's words. */
  pullRequestState?: 'merged' | 'closed' | 'open' | undefined;
}

export interface RetireParts {
  repository: Repo;
  runUrl?: string | undefined;
  logger: Logger;
  redact: (text: string) => string;
}

/** Retires `report`'s preview where `target` says: its records and its comment. */
export async function retirePreview(
  api: GitHubApi,
  report: RetireReport,
  target: RetireTarget,
  parts: RetireParts,
): Promise<Retirement> {
  const [records, comment] = await Promise.all([
    target.environment === '' ? undefined : markRecords(api, report, target.environment, parts),
    target.comment === undefined
      ? ('skipped' as const)
      : rewriteComment(target.comment, report, target.pullRequestState, parts),
  ]);
  return {
    ...(records === undefined
      ? { found: 0, inactive: 0, more: false }
      : {
          environment: target.environment,
          found: records.found,
          inactive: records.inactive,
          more: records.more,
          alreadyInactive: records.already,
        }),
    comment,
  };
}

/** Its environment's deployments, each given an `inactive` status that says what is left. */
function markRecords(
  api: GitHubApi,
  report: RetireReport,
  environment: string,
  { repository, runUrl, logger, redact }: RetireParts,
): Promise<RecordsRetired> {
  const count = report.deployments.length;
  const still =
    count === 1 ? 'its deployment still exists' : `its ${count} deployments still exist`;
  const what = count === 0 ? '' : `; ${still} in the service`;
  return markInactive(
    api,
    repository,
    environment,
    {
      description: description(redact(`${report.name}: preview retired${what}`)),
      ...(runUrl === undefined ? {} : { log_url: runUrl }),
    },
    logger,
  );
}

/** Its comment rewritten to say it is retired, unless it already says so. */
function rewriteComment(
  comment: PullRequestComment,
  report: RetireReport,
  pullRequestState: RetireTarget['pullRequestState'],
  { runUrl, redact }: RetireParts,
): Promise<Retirement['comment']> {
  const body = () =>
    retiredCommentBody(
      {
        ...report,
        ...(pullRequestState === undefined ? {} : { pullRequestState }),
        ...(runUrl === undefined ? {} : { runUrl }),
      },
      redact,
    );
  return comment.rewrite(report.name, body, {}, sameRetiredBody);
}
