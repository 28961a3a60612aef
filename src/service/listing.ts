/**
 * The listing of deployments (`GET /v2/deployments`) as the service pages it: its filters,
 * the one walk every listing and search takes (endpoints.ts), and a status check's answer
 * read record by record.
 */
import { z } from 'zod';
import { ActionError } from '../common/errors.js';
import type { Logger } from '../common/runtime.js';
import { ServiceError } from './errors.js';
import { schemaMismatch } from './issues.js';
import { DeploymentSchema, type Deployment, type DeploymentList } from './schemas.js';
import type { DeploymentVetting } from './vet.js';

export const DEPLOYMENTS = '/v2/deployments';

/** As the query names them (docs/how-it-works.md, "The service's interface"). */
export interface DeploymentFilters {
  name_contains?: string;
  status?: string;
  remote_reconciled?: boolean;
  tag_value_ids?: string;
  image_version?: string;
  deployment_type?: string;
  deployment_ids?: string;
}

/** `more`: whether the list goes on past them (when it was asked). */
export interface Listing {
  deployments: Deployment[];
  more: boolean;
}

/** One page's deployments (each once, vetted); false ends the listing there (its reader has gone). */
export type PageSink = (deployments: readonly Deployment[]) => boolean;

/** A listing handed on page by page: how many it handed on, and whether the list goes on. */
export interface PagedListing {
  count: number;
  more: boolean;
}

export interface Walk {
  page: (offset: number, limit: number) => Promise<DeploymentList>;
  size: () => number;
  onPage: (fresh: readonly Deployment[]) => boolean;
  tooLong: () => string;
  unpaged?: ((offset: number) => string) | undefined;
}

/**
 * Walks the listing from its start, pages of at most `size()`, each at the offset the service
 * returned, handing `onPage` what each page adds (a deployment listed again, as when the list
 * shifts under the walk, is not handed on twice). Ends at a short or empty page, an offset
 * that does not advance, or when `onPage` returns false, resolving to the last offset
 * returned; throws past `maxPages`. A full page with no new id (a service that ignores
 * `offset`) ends it with a warning, or, for a walk that must prove what is absent (`unpaged`
 * given), throws: the rest was never seen. Every item of a page is read, even past the limit
 * asked: a larger page still holds what the walk looks for.
 */
export async function walkListing(walk: Walk, logger: Logger, maxPages: number): Promise<number> {
  const seen = new Set<string>();
  let offset = 0;
  for (let pages = 1; pages <= maxPages; pages++) {
    const limit = walk.size();
    const list = await walk.page(offset, limit);
    const fresh = list.resources.filter((deployment) => !seen.has(deployment.id));
    for (const deployment of fresh) seen.add(deployment.id);
    if (!walk.onPage(fresh) || list.resources.length < limit) return list.offset;
    if (fresh.length === 0) {
      if (walk.unpaged !== undefined) throw new ActionError(walk.unpaged(offset));
      logger.warning(
        `GET ${DEPLOYMENTS} at offset ${offset} listed only deployments it had already listed: it does not page, so the list is taken to end here`,
      );
      return list.offset;
    }
    if (list.offset <= offset) {
      logger.warning(
        `GET ${DEPLOYMENTS} returned offset ${list.offset} after offset ${offset}: it does not advance, so the list is taken to end here`,
      );
      return list.offset;
    }
    offset = list.offset;
  }
  throw new ActionError(walk.tooLong());
}

export type IdAnswer = Deployment | ServiceError;

/**
 * Each id asked, as `records` list it: its record checked alone and vetted, so one record the
 * service garbled is only its own agent's problem; or why it cannot be taken (it fails the
 * schema, or is listed twice with different contents). An id nobody asked for is no answer;
 * one the answer omits has none. Every record's secrets are registered first, whatever its
 * shape. `pathOf` names the request for one id, as a failure of it alone would.
 */
export function answersByIds(
  records: readonly unknown[],
  ids: readonly string[],
  vetting: DeploymentVetting,
  pathOf: (id: string) => string,
): Map<string, IdAnswer> {
  for (const record of records) vetting.hide(record);
  const unusable = (id: string, problem: string) =>
    new ServiceError({
      method: 'GET',
      path: pathOf(id),
      problem: `the answer's record of ${id} ${problem}`,
    });
  const asked = new Set(ids);
  const listed = new Map<string, string>();
  const answers = new Map<string, IdAnswer>();
  records.forEach((record, index) => {
    const id = idOf(record);
    if (id === undefined || !asked.has(id)) return;
    const text = JSON.stringify(record);
    const earlier = listed.get(id);
    if (earlier !== undefined) {
      if (earlier !== text)
        answers.set(id, unusable(id, 'is listed twice, with different contents'));
      return;
    }
    listed.set(id, text);
    const parsed = DeploymentSchema.safeParse(record);
    if (parsed.success) answers.set(id, vetting.vet(parsed.data));
    else answers.set(id, unusable(id, schemaMismatch(atIndex(parsed.error, index))));
  });
  return answers;
}

/** The paths the problems would have in the whole answer (`resources[2].created_at`). */
function atIndex(error: z.ZodError, index: number): z.ZodError {
  return new z.ZodError(
    error.issues.map((issue) => ({ ...issue, path: ['resources', index, ...issue.path] })),
  );
}

function idOf(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null || !('id' in record)) return undefined;
  return typeof record.id === 'string' ? record.id : undefined;
}
