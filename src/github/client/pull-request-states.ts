/**
 * How pull requests stand: one GraphQL query per
 * `MAX_PULL_REQUESTS_PER_QUERY` numbers. A number GitHub does not know gets a
 * null field and a `NOT_FOUND` error beside the others' data: it is
 * `unknown`, the others keep their state.
 */
import { z } from 'zod';
import { MAX_PULL_REQUEST_NUMBER, type PullRequestState } from '../../run/ports/progress.js';
import type { Attempt } from './attempt.js';

/** At most this many pull requests in one query (GitHub's node limit is far above it). */
export const MAX_PULL_REQUESTS_PER_QUERY = 100;

const PullRequestNode = z.lazy(() =>
  z.object({
    number: z.number(),
    state: z.string(),
    merged: z.boolean().nullish(),
    closedAt: z.string().nullish(),
    mergedAt: z.string().nullish(),
  }),
);
type PullRequestNode = z.infer<typeof PullRequestNode>;

export const PullRequestStatesAnswer = z.lazy(() =>
  z.object({
    repository: z.record(z.string(), PullRequestNode.nullable()),
  }),
);
export type PullRequestStatesAnswer = z.infer<typeof PullRequestStatesAnswer>;

/** A pull request number GitHub can be asked about: a positive integer within GraphQL's `Int`. */
function isPullRequestNumber(value: number): boolean {
  return Number.isInteger(value) && value > 0 && value <= MAX_PULL_REQUEST_NUMBER;
}

export function batches(numbers: readonly number[]): number[][] {
  const unique = [...new Set(numbers)];
  const batched: number[][] = [];
  for (let start = 0; start < unique.length; start += MAX_PULL_REQUESTS_PER_QUERY) {
    batched.push(unique.slice(start, start + MAX_PULL_REQUESTS_PER_QUERY));
  }
  return batched;
}

const alias = (number: number) => `pr${number}`;

/**
 * The query for one batch; owner and name are variables, the numbers are
 * validated integers written into the query (GraphQL has no list of aliases).
 */
export function pullRequestStatesQuery(numbers: readonly number[]): string {
  const fields = numbers.map((number) => {
    if (!isPullRequestNumber(number)) throw new RangeError(`not a pull request number: ${number}`);
    return `${alias(number)}: pullRequest(number: ${number}) { number state merged closedAt mergedAt }`;
  });
  return `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ${fields.join(' ')} } }`;
}

/** The states of a batch from its answer: a number without a field, or a null one, is `unknown`. */
export function statesOf(
  numbers: readonly number[],
  answer: PullRequestStatesAnswer,
): PullRequestState[] {
  return numbers.map((number) => stateOf(number, answer.repository[alias(number)]));
}

/** GitHub's words for one pull request, in the port's; an answer about another number proves nothing. */
function stateOf(number: number, node: PullRequestNode | null | undefined): PullRequestState {
  if (node === null || node === undefined) return { number, state: 'unknown' };
  if (node.number !== number) return { number, state: 'unknown', answeredFor: node.number };
  if (node.state === 'MERGED' || node.merged === true) {
    const closedAt = node.mergedAt ?? node.closedAt;
    return { number, state: 'merged', ...(closedAt ? { closedAt } : {}) };
  }
  if (node.state === 'CLOSED') {
    return { number, state: 'closed', ...(node.closedAt ? { closedAt: node.closedAt } : {}) };
  }
  if (node.state === 'OPEN') return { number, state: 'open' };
  return { number, state: 'unknown' };
}

interface GraphqlError {
  type?: unknown;
  message?: unknown;
  path?: unknown;
}

/**
 * A query GitHub rejected unrun: errors without a `type`, and no `data`. One
 * that ran has `data`, if only `null` (a timeout), and typed errors.
 */
function rejectedQuery(list: readonly GraphqlError[], data: unknown): Attempt | undefined {
  if (data !== undefined) return undefined;
  if (!list.every((entry) => entry?.type === undefined)) return undefined;
  const messages = list.map((entry) => (typeof entry?.message === 'string' ? entry.message : ''));
  const message = messages.filter((text) => text !== '').join('; ');
  return { status: 400, data: { message }, headers: {}, invalid: true };
}

/**
 * The attempt a GraphQL error stands for, else undefined: only `NOT_FOUND`
 * errors are an answer (200); `FORBIDDEN` is a refusal (403, a token without
 * `pull-requests: read`); a query not run is `invalid` (the action's own).
 */
export function graphqlAnswer(error: unknown): Attempt | undefined {
  const { errors, data } = error as { errors?: unknown; data?: unknown };
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const list = errors as GraphqlError[];
  const rejected = rejectedQuery(list, data);
  if (rejected !== undefined) return rejected;
  const forbidden = list.find((entry) => entry?.type === 'FORBIDDEN');
  if (forbidden !== undefined) return { status: 403, data: forbidden, headers: {} };
  const repository = (data as { repository?: unknown } | null | undefined)?.repository;
  const onPullRequests = list.every(
    (entry) =>
      entry?.type === 'NOT_FOUND' &&
      Array.isArray(entry.path) &&
      entry.path.length === 2 &&
      entry.path[0] === 'repository',
  );
  if (onPullRequests && typeof repository === 'object' && repository !== null) {
    return { status: 200, data, headers: {} };
  }
  // The repository itself is not found: the token cannot see it.
  const notFound = list.find((entry) => entry?.type === 'NOT_FOUND');
  if (notFound !== undefined) return { status: 404, data: notFound, headers: {} };
  return undefined;
}
