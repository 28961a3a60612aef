/**
 * The listing of deployments (`GET /v2/deployments`) as the service pages
 * it: its filters, what a listing hands back, and the one walk from its
 * start that every listing and search takes (endpoints.ts).
 */
import { ActionError } from '../common/errors.js';
import type { Logger } from '../common/runtime.js';
import type { Deployment, DeploymentList } from './schemas.js';

/** The listing's path, and the create's. */
export const DEPLOYMENTS = '/v2/deployments';

/** The listing's filters (docs/how-it-works.md, "The service's interface"), each as the query names it. */
export interface DeploymentFilters {
  name_contains?: string;
  status?: string;
  remote_reconciled?: boolean;
  tag_value_ids?: string;
  image_version?: string;
  deployment_type?: string;
  deployment_ids?: string;
}

/** A listing: the deployments, and whether the list goes on past them (when it was asked). */
export interface Listing {
  deployments: Deployment[];
  more: boolean;
}

/**
 * Takes one page's deployments as they arrive (each once, vetted) and lets
 * them go; false ends the listing there (its reader has gone).
 */
export type PageSink = (deployments: readonly Deployment[]) => boolean;

/** A listing handed on page by page: how many deployments it handed on, and whether the list goes on. */
export interface PagedListing {
  count: number;
  more: boolean;
}

/** One walk: how it reads a page, how large, what it hands on, and what it says when it cannot end. */
export interface Walk {
  page: (offset: number, limit: number) => Promise<DeploymentList>;
  size: () => number;
  onPage: (fresh: readonly Deployment[]) => boolean;
  tooLong: () => string;
  unpaged?: ((offset: number) => string) | undefined;
}

/**
 * Walks the listing from its start, a page of at most `size()` at a time,
 * each following the offset the service returned, handing `onPage` the
 * deployments each page adds (one id is one item: a deployment listed
 * again on a later page, as when the list shifts under the walk, is not
 * handed on twice). The walk ends at a short or empty page, an offset
 * that does not advance, or when `onPage` returns false; it resolves to
 * the offset the service returned last (where the list would go on), and
 * throws past `maxPages`. A full page that adds no new id (a service that
 * ignores `offset`) ends the walk with a warning, or, for a walk that must
 * prove what is absent (`unpaged` given), throws what `unpaged` says:
 * the rest of the list was never seen. Every item of a page is read, even
 * past the limit asked: a larger page still holds what the walk looks for.
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
