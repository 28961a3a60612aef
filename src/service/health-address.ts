/** The health check's address (docs/how-it-works.md, "Live means answering"), filled for one deployment. */
import { fillPlaceholder, withoutTrailingSlashes } from '../common/text.js';

export const URL_PLACEHOLDER = '{url}';

/** The `health-check` input, parsed (off: `undefined`). */
export type HealthCheck = { kind: 'path'; path: string } | { kind: 'address'; template: string };

type FilledCheck = { kind: 'address'; address: string } | { kind: 'no-url' };

export function needsUrl(check: HealthCheck): boolean {
  return check.kind === 'path' || check.template.includes(URL_PLACEHOLDER);
}

/** A trailing `/` of `url` is dropped, so `{url}/ok` and the path `/ok` have one `/`. */
export function fillHealthCheck(check: HealthCheck, url: string | null | undefined): FilledCheck {
  const base = url === null || url === undefined ? '' : withoutTrailingSlashes(url.trim());
  if (needsUrl(check) && base === '') return { kind: 'no-url' };
  if (check.kind === 'path') return { kind: 'address', address: `${base}${check.path}` };
  return { kind: 'address', address: fillPlaceholder(check.template, URL_PLACEHOLDER, base) };
}

/**
 * An address's query values, as written and decoded: secrets (`?token=…`) hidden before the
 * first request. One holding `{url}` is the deployment's address, not a secret.
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
