/**
 * What the action says about an exchange that failed, and what the user can do about it.
 * Service text is untrusted: secret values are redacted before anything is shortened, and
 * every value is kept to one line.
 */
import { untrusted } from '../common/runtime.js';
import { ErrorBodySchema } from './schemas.js';

const EXCERPT_LENGTH = 200;
/** Enough for 200 characters once a page's tags are dropped, never a whole 32 MiB answer. */
const EXCERPT_SCAN = 8 * 1024;
const TITLE_SCAN = 64 * 1024;
const ISSUES_SHOWN = 20;

/**
 * Without `<script>` and `<style>` elements, in one pass: each search starts where the last
 * ended (a lazy `[\s\S]*?` would read the rest again for every unclosed opening).
 */
function withoutScripts(html: string): string {
  const opening = /<(?:script|style)\b[^<>]*>/gi;
  const closing = /<\/(?:script|style)\s*>/gi;
  let out = '';
  let from = 0;
  for (let open = opening.exec(html); open !== null; open = opening.exec(html)) {
    out += `${html.slice(from, open.index)} `;
    closing.lastIndex = opening.lastIndex;
    if (closing.exec(html) === null) return out;
    from = closing.lastIndex;
    opening.lastIndex = from;
  }
  return out + html.slice(from);
}

/**
 * A short one-line excerpt of a body (a page's tags dropped), from its first kilobytes. Every
 * pattern here stops at the next `<`, so the work grows with the length, not its square.
 */
export function excerpt(text: string): string {
  const head = text.slice(0, EXCERPT_SCAN);
  const plain = /<[a-z!/][^<>]*>/i.test(head)
    ? withoutScripts(head).replace(/<[^<>]*>/g, ' ')
    : head;
  const line = plain.replace(/\s+/g, ' ').trim();
  const cut = line.length > EXCERPT_LENGTH || text.length > head.length;
  return untrusted(cut ? `${line.slice(0, EXCERPT_LENGTH)}…` : line);
}

/**
 * The service's own message: `detail` (a string, or the first 20 field errors one a line),
 * `message` or `error`, else the text's start. `redact` runs first, on the text and each value.
 */
export function serviceMessageOf(
  raw: string,
  redact: (text: string) => string = (text) => text,
): string | undefined {
  const text = redact(raw);
  if (text.trim() === '') return undefined;
  let parsed;
  try {
    parsed = ErrorBodySchema.safeParse(JSON.parse(text));
  } catch {
    return excerpt(text);
  }
  if (!parsed.success) return excerpt(text);
  const { detail, message, error } = parsed.data;
  if (Array.isArray(detail)) {
    const lines = detail.slice(0, ISSUES_SHOWN).map((entry) => {
      const location = untrusted(redact(entry.loc.map(String).join('.')));
      const said = excerpt(untrusted(redact(entry.msg)));
      return location === '' ? said : `  ${location}: ${said}`;
    });
    if (detail.length > ISSUES_SHOWN) lines.push(`  and ${detail.length - ISSUES_SHOWN} more`);
    return lines.join('\n');
  }
  for (const candidate of [detail, message, error])
    if (typeof candidate === 'string' && candidate !== '') return excerpt(redact(candidate));
  return excerpt(text);
}

/** A body that is not JSON, described without echoing it (only a page's title is shown). */
export function describeAnswer(
  body: Buffer,
  contentType: string | undefined,
  error: unknown,
): string {
  const parts = [contentType ?? 'no content type', `${body.length} bytes`];
  if (body.length === 0) return `${parts.join(', ')}: empty body`;
  // Only the shape of the parser's message is used: V8 quotes the body in it.
  const message = error instanceof Error ? error.message : '';
  const position = /at position (\d+)/.exec(message)?.[1];
  const head = body.subarray(0, TITLE_SCAN).toString('utf8');
  const first = /\S/.exec(head)?.[0] ?? '';
  if (/end of (JSON )?input|Unterminated/i.test(message)) parts.push('it ends early');
  else if (position !== undefined) parts.push(`parsing failed at character ${position}`);
  else if (!/[{["\-0-9tfn]/.test(first)) parts.push('it does not start like JSON');
  else parts.push('malformed JSON');
  const title = /<title[^<>]*>([^<]*)<\/title>/i.exec(head)?.[1];
  if (title?.trim()) parts.push(`page titled '${excerpt(untrusted(title))}'`);
  return parts.join(', ');
}

export const ACTION_WORDS = {
  apiKey: 'the api-key input',
  apiKeyHeader: 'api-key-header',
  headers: 'the headers input',
  integrationId: 'the integration-id input',
  apiUrl: 'api-url',
  /** Where this run's address came from (the flag, the variable), when known. */
  apiUrlFrom: 'the api-url input',
  name: 'the name input',
  repository: 'the repository input',
  waitTimeout: 'wait-timeout',
  healthCheckHeaders: 'health-check-headers',
  onDriftFail: 'on-drift: fail',
  onChangeFail: 'on-change: fail',
  /** Or GitLab's merge request. */
  changeRequest: 'pull request',
  asker: 'the step',
  secrets: 'the secrets input',
  healthCheck: 'health-check',
  commit: 'the commit input',
  noWait: 'wait-for-ready is off',
};

/** How an entry names what a remedy points to: the action's inputs, the command's options. */
export type RemedyWords = Omit<Record<keyof typeof ACTION_WORDS, string>, 'apiUrlFrom'> & {
  apiUrlFrom?: string;
};

const noSuchEndpoint = (words: RemedyWords) =>
  `Check ${words.apiUrl}: the service has no such endpoint or resource.`;

function defaultRemedies(words: RemedyWords): Partial<Record<number, string>> {
  return {
    401: `Check ${words.apiKey} (and ${words.apiKeyHeader}, if the service expects another header).`,
    403: `The api key lacks access: check its permissions and workspace, or pass the workspace/tenant header with ${words.headers}.`,
    404: noSuchEndpoint(words),
  };
}

interface RemedyContext {
  status: number;
  path: string;
  baseUrl: string;
  location?: string;
  serviceMessage?: string;
  remedies?: Partial<Record<number, string>>;
  words: RemedyWords;
}

/** What the user can do about a status that trying again will not fix. */
export function remedyFor(context: RemedyContext): string | undefined {
  const { status, location, words } = context;
  if (status >= 300 && status < 400)
    return `Check ${words.apiUrl}: the service redirected${location ? ` to ${location}` : ''}, and redirects are not followed (they would carry the api key elsewhere).`;
  const remedy = { ...defaultRemedies(words), ...context.remedies }[status];
  // The web framework's own 404 means no route at all: the base address is wrong.
  if (status === 404 && context.serviceMessage === 'Not Found') {
    const wrongPath = `Check ${words.apiUrl} first: ${context.baseUrl} has no ${context.path} (is a path prefix such as /api missing?).`;
    return remedy === noSuchEndpoint(words) || remedy === undefined
      ? wrongPath
      : `${wrongPath}\nOtherwise: ${remedy}`;
  }
  return remedy;
}

const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-correlation-id', 'x-amzn-requestid'];

/** The id the service or its gateway gave the request, for a support ticket. */
export function requestIdOf(header: (name: string) => string | undefined): string | undefined {
  return REQUEST_ID_HEADERS.map(header).find((value) => value !== undefined && value !== '');
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  UND_ERR_SOCKET: 'connection closed before an answer',
  ETIMEDOUT: 'connection timed out',
};

/** How an attempt without an answer failed, in words, and whether it may have reached the service. */
export function networkFailure(error: unknown, timedOut: boolean, timeoutMs: number) {
  if (timedOut) return { problem: `no answer within ${timeoutMs / 1000} s`, reached: true };
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code =
    typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : '';
  const text = NETWORK_WORDS[code] ?? (cause instanceof Error ? cause.message : 'network error');
  // A refused connection or a failed look-up never reached the service.
  const reached = !['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(code);
  return { problem: code !== '' ? `${text} (${code})` : text, reached };
}

/** What a connection error names: host and port (the scheme's by default), never userinfo, path or query. */
export function hostAndPort(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return 'the address';
  const url = new URL(baseUrl);
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  return `${url.hostname}:${port}`;
}

/** What to check when no answer came: the address, named where it was given. */
export function addressRemedy(
  baseUrl: string,
  words: RemedyWords,
  reached: boolean,
  viaProxy = false,
): string {
  const why = reached ? '' : ' Is it spelled right, and is the service up there?';
  // Through a proxy, a refused connection or a failed look-up may be the proxy's own.
  const proxy = viaProxy
    ? ' The request goes through the proxy that HTTPS_PROXY (or HTTP_PROXY) names, unless NO_PROXY lists that host: check the proxy too.'
    : '';
  return `Check ${words.apiUrlFrom ?? words.apiUrl}: it gives ${hostAndPort(baseUrl)}.${why}${proxy}`;
}
