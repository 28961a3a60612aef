/**
 * What the action shows of an answer it did not expect: the service's own
 * message from an error body, or a description of a body it could not read.
 * Text from the service is untrusted: secret values are redacted before
 * anything is shortened, and every value is kept to one line.
 */
import { untrusted } from './runtime.js';
import { ErrorBodySchema } from './schemas.js';

const EXCERPT_LENGTH = 200;
/** Entries of a validation list shown; the rest are counted. */
const ISSUES_SHOWN = 20;

/** A short, single-line excerpt of a text body (tags of an HTML page dropped). */
export function excerpt(text: string): string {
  const plain = /<[a-z!/][^>]*>/i.test(text)
    ? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ')
    : text;
  const line = plain.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT_LENGTH ? `${line.slice(0, EXCERPT_LENGTH)}…` : line;
}

/**
 * The service's own message: `detail` (a string, or a list of field errors
 * shown one a line, the first 20 of them), `message` or `error`, else the
 * start of the text. `redact` runs first, on the raw text and on each value.
 */
export function serviceMessageOf(
  raw: string,
  redact: (text: string) => string = (text) => text,
): string | undefined {
  const text = redact(raw);
  if (text.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return excerpt(text);
  }
  const parsed = ErrorBodySchema.safeParse(json);
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
  for (const candidate of [detail, message, error]) {
    if (typeof candidate === 'string' && candidate !== '') return excerpt(redact(candidate));
  }
  return excerpt(text);
}

/**
 * A body that is not JSON, described without echoing it: its content type,
 * its size, where parsing failed, and an HTML page's title.
 */
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
  const first = /\S/.exec(body.toString('utf8'))?.[0] ?? '';
  if (/end of (JSON )?input|Unterminated/i.test(message)) parts.push('it ends early');
  else if (position !== undefined) parts.push(`parsing failed at character ${position}`);
  else if (!/[{["\-0-9tfn]/.test(first)) parts.push('it does not start like JSON');
  else parts.push('malformed JSON');
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body.toString('utf8'))?.[1];
  if (title !== undefined && title.trim() !== '')
    parts.push(`page titled '${excerpt(untrusted(title))}'`);
  return parts.join(', ');
}
