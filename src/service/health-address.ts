/**
 * The address of a deployment's health check (docs/how-it-works.md, "Live means answering"), as
 * values: the `health-check` input once parsed (inputs/health-check.ts parses it), and
 * that check filled in for one deployment from its `url` (`source_config.custom_url`).
 */
import { fillPlaceholder } from '../common/placeholders.js';
import { withoutTrailingSlashes } from '../common/text.js';

/** The one placeholder an address may hold: the deployment's `url`. */
export const URL_PLACEHOLDER = '{url}';

/**
 * The `health-check` input, parsed: a path appended to the deployment's `url`, or a
 * full address that may hold `{url}`. Off (an empty input) is `undefined`.
 */
export type HealthCheck = { kind: 'path'; path: string } | { kind: 'address'; template: string };

/** Where the check of one deployment goes, or why it cannot be made. */
export type FilledCheck =
  | { kind: 'address'; address: string }
  /** The check needs `{url}` (the path form, or an address holding it) and there is none. */
  | { kind: 'no-url' };

/** Whether the check needs the deployment's `url`. */
export function needsUrl(check: HealthCheck): boolean {
  return check.kind === 'path' || check.template.includes(URL_PLACEHOLDER);
}

/**
 * The check's address for a deployment whose `url` is `url` (empty or absent: none).
 * A trailing `/` of the url is dropped, so `{url}/ok` and the path `/ok` have one `/`.
 */
export function fillHealthCheck(check: HealthCheck, url: string | null | undefined): FilledCheck {
  const base = url === null || url === undefined ? '' : withoutTrailingSlashes(url.trim());
  if (needsUrl(check) && base === '') return { kind: 'no-url' };
  if (check.kind === 'path') return { kind: 'address', address: `${base}${check.path}` };
  return { kind: 'address', address: fillPlaceholder(check.template, URL_PLACEHOLDER, base) };
}

/**
 * The values of an address's query string, as written and decoded (a part without `=`
 * whole): secrets like the check's header values (`?token=…`), hidden before the first
 * request. A value that holds `{url}` is the deployment's address, not a secret.
 */
export function queryValues(address: string): string[] {
  const query = /\?([^#]*)/.exec(address)?.[1] ?? '';
  const values: string[] = [];
  for (const part of query.split('&')) {
    const written = part.includes('=') ? part.slice(part.indexOf('=') + 1) : part;
    if (written === '' || written.includes(URL_PLACEHOLDER)) continue;
    values.push(written);
    try {
      values.push(decodeURIComponent(written.replaceAll('+', ' ')));
    } catch {
      // A malformed escape: the value as written is what an echo shows.
    }
  }
  return [...new Set(values)];
}
