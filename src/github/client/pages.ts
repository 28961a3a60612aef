/** A GitHub list read page by page, up to a limit, until the reader is done or it ends. */
import type { Result } from './calls.js';

/** A walk of a pull request's comments reads at most this many pages of `PER_PAGE`. */
export const MAX_COMMENT_PAGES = 10;
export const PER_PAGE = 100;
/** A retire reads at most this many pages of an environment's deployments, newest first. */
export const MAX_DEPLOYMENT_PAGES = 10;
/** GitHub lists at most 3,000 of a pull request's files: 30 pages of `PER_PAGE`. */
export const MAX_FILE_PAGES = 30;

export interface Page<T> {
  items: T[];
  link: string;
}

/**
 * Page numbers are counted here, never taken from the `Link` header: no page
 * is read twice and the token goes to no other address. `visit` sees each
 * item once by `key` (a list that moves while read repeats one), and a page
 * with nothing new ends the list (a paginator repeating its last page).
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

function hasNextPage(link: string): boolean {
  return link.split(',').some((part) => /^\s*<[^>]*>\s*;\s*rel="next"/.test(part));
}
