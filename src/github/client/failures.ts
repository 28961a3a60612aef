/** The text of a failed GitHub call: what failed, and what a person does about it. */
import { formatDuration, untrusted } from '../../common/runtime.js';
import { header, type Attempt } from './attempt.js';
import type { Permission } from './routes.js';

export interface CallFailure {
  call: string;
  /** Absent when GitHub did not answer (network error, timeout, budget spent). */
  status?: number;
  problem: string;
  /** GitHub rejected the request itself as invalid: `problem` is its message alone. */
  invalid?: boolean;
}

/** What went wrong with a call that got no answer it could use: not sent, no answer, or an error status. */
export function callFailure(
  call: string,
  last: Attempt | undefined,
  attempts: number,
  cancel: AbortSignal | undefined,
  budgetMs: number,
): CallFailure {
  if (last === undefined) {
    return {
      call,
      problem: `not sent: the ${formatDuration(budgetMs)} the GitHub work of a run may take are spent`,
    };
  }
  const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
  if (last.invalid === true) {
    return { call, status: last.status, problem: githubMessage(last.data), invalid: true };
  }
  if (last.status === undefined) {
    const why = cancel?.aborted ? 'the run was cancelled' : (last.error ?? 'no answer');
    return { call, problem: `no answer: ${why}${tries}` };
  }
  const problem = `${last.status} ${githubMessage(last.data)}${tries}`;
  return { call, status: last.status, problem };
}

export function failureLine(
  failure: CallFailure,
  purpose: string,
  permission: Permission | undefined,
  last: Attempt | undefined,
  fork: boolean,
): string {
  const what = remedy(failure.status, permission, last, fork);
  return `GitHub: could not ${purpose}: ${failure.call}: ${failure.problem}.${what} The deploy itself is not affected.`;
}

/** `message` of GitHub's JSON error body, on one line and short. */
function githubMessage(data: unknown): string {
  const field =
    typeof data === 'object' && data !== null ? (data as { message?: unknown }).message : data;
  const message = typeof field === 'string' ? field : '';
  const text = untrusted(message.trim()).slice(0, 300);
  return text === '' ? '(no message)' : text;
}

function isRateLimit(status: number | undefined, last: Attempt | undefined): boolean {
  if (status === 429) return true;
  if (status !== 403 || last === undefined) return false;
  return (
    header(last.headers, 'x-ratelimit-remaining') === '0' ||
    header(last.headers, 'retry-after') !== undefined ||
    /rate limit/i.test(githubMessage(last.data))
  );
}

function remedy(
  status: number | undefined,
  permission: Permission | undefined,
  last: Attempt | undefined,
  fork: boolean,
): string {
  if (status === undefined) return '';
  if (status === 401) {
    return ' Check the github-token input: GitHub does not accept this token (the default, ${{ github.token }}, always works).';
  }
  if (isRateLimit(status, last))
    return ' GitHub rate-limits this token: a later run will write it.';
  if ((status === 403 || status === 404) && fork && permission !== 'contents: read') {
    return ' This run is for a pull request from a fork: GitHub gives it a read-only token, so no permissions: line can allow this (see docs/github.md, "Forks").';
  }
  if (status === 403 && permission !== undefined) {
    return ` Add \`${permission}\` to the job's \`permissions:\` (a permissions: block grants only what it lists).`;
  }
  if (status === 404 && permission !== undefined) {
    return ` The token cannot see this repository, or lacks \`${permission}\` (a personal token needs the repo scope).`;
  }
  return '';
}

/** A failed call the run cannot go without names its permission, whatever the cause. */
export function requiredFailureLine(
  failure: CallFailure,
  purpose: string,
  permission: Permission,
): string {
  const token =
    failure.status === 401
      ? ' Check the github-token input: GitHub does not accept this token, which needs'
      : " The job's token needs";
  return `GitHub: could not ${purpose}: ${failure.call}: ${failure.problem}.${token} \`${permission}\` (a \`permissions:\` block grants only what it lists), and GitHub must answer within the run's GitHub budget. Without the states no preview is known to be an orphan: nothing was changed.`;
}

/** The query is the action's own: no token or permission would change the answer. */
export function invalidQueryLine(failure: CallFailure, query: string): string {
  const problem = failure.problem.trimEnd();
  const message = problem.endsWith('.') ? problem.slice(0, -1) : problem;
  return `GitHub rejected ${query} as invalid: ${failure.call}: ${message}. The query is the action's own: no token or permission changes this answer; please report it with this line. Without the states no preview is known to be an orphan: nothing was changed.`;
}
