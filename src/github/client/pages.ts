/** A GitHub list read page by page, up to a limit, until the reader is done or it ends. */
import type { Result } from './calls.js';

/** A walk of a pull request's comments reads at most this many pages of `PER_PAGE`. */
export const MAX_COMMENT_PAGES = 10;
export const PER_PAGE = 100;
/** A retire reads at most this many pages of an environment's deployments, newest first. */
export const MAX_DEPLOYMENT_PAGES = 10;

/** One page of a list: its items, and the `Link` header GitHub sent with them. */
export interface Page<T> {
  items: T[];
  link: string;
}

/**
 * Reads pages 1 to `maxPages` with `read` until `visit` says it found what it
 * looks for or the list ends (no `rel="next"`, or an empty page). Page numbers
 * are counted here, never taken from the `Link` header, so no page is read
 * twice and the token goes to no other address.
 *
 * `visit` sees each item once, by its `key`: a list that moves while it is
 * read (a deployment created between two pages shifts the next one by one)
 * gives an item again, and a page with nothing new ends the list, so a
 * paginator that repeats its last page with a `next` link is not read to the
 * cap (nor mistaken for a longer list).
 */
export async function walkPages<T>(
  read: (page: number) => Promise<Result<Page<T>>>,
  key: (item: T) => unknown,
  visit: (items: T[]) => 'stop' | 'more',
  maxPages: number,
): Promise<Result<{ ended: boolean }>> {
  const seen = new Set<unknown>();
  for (let page = 1; page <= maxPages; page++) {
    const result = await read(page);
    if (!result.ok) return result;
    const { items, link } = result.value;
    const fresh = items.filter((item) => !seen.has(key(item)));
    for (const item of fresh) seen.add(key(item));
    const hasNext = hasNextPage(link) && fresh.length > 0;
    if (visit(fresh) === 'stop') return { ok: true, value: { ended: false } };
    if (!hasNext) return { ok: true, value: { ended: true } };
  }
  return { ok: true, value: { ended: false } };
}

/** Whether a `Link` header names a next page: one of its comma-separated links is `rel="next"`. */
function hasNextPage(link: string): boolean {
  return link.split(',').some((part) => /^\s*<[^>]*>\s*;\s*rel="next"/.test(part));
}
