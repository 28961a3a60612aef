import { fillPlaceholder } from '../common/text.js';
import { fail } from './errors.js';
import { parseWebAddress } from './parsers.js';
import { URL_PLACEHOLDER, type HealthCheck } from '../service/health-address.js';

const EXAMPLES = "'/ok', '{url}/ok?check_db=1' or 'https://agent.example.com/ok'";

export function parseHealthCheck(raw: string): HealthCheck | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  const placeholder = /\{[^{}]*\}|[{}]/.exec(fillPlaceholder(text, URL_PLACEHOLDER, ''));
  if (placeholder !== null) {
    fail(`may hold only the placeholder {url}, got '${placeholder[0]}' (e.g. ${EXAMPLES})`);
  }
  if (/\s/.test(text)) fail(`must not contain white space (e.g. ${EXAMPLES})`);
  if (text.startsWith('/')) {
    if (text.startsWith('//')) fail(`must be a path ('/ok') or a full address (e.g. ${EXAMPLES})`);
    return { kind: 'path', path: text };
  }
  if (text.startsWith(URL_PLACEHOLDER)) {
    const rest = text.slice(URL_PLACEHOLDER.length);
    if (rest !== '' && !/^[/?#]/.test(rest)) {
      fail(`must have '/', '?' or '#' right after {url} (e.g. ${EXAMPLES})`);
    }
    return { kind: 'address', template: text };
  }
  // An address holding {url} elsewhere (in its query) is checked with a stand-in for it.
  parseWebAddress(fillPlaceholder(text, URL_PLACEHOLDER, 'url'), {
    example: EXAMPLES,
    credentials: "pass them in the health check's headers instead",
  });
  return { kind: 'address', template: text };
}
