/**
 * The `image-uri` input (and a manifest entry's): an image reference,
 * `[host[:port]/]name[:tag][@algorithm:hex]`, checked before any request
 * against the grammar registries use. The patterns are those of
 * distribution/reference's regexp.go (github.com/distribution/reference,
 * v0.6.0: `alphanumeric`, `separator`, `domainNameComponent`, `ipv6address`,
 * `optionalPort`, `tag`, `digestPat`, composed as its `referencePat`), not a
 * parser of our own; they only pick which part to name when one is wrong.
 */
import { UNSAFE_IN_AN_INPUT } from '../common/characters.js';
import { fail } from './errors.js';

/** regexp.go's `NameTotalLengthMax`: a longer name is refused by registries. */
const NAME_MAX = 255;
/** Far above a name, a tag and a sha512 digest; a longer text is not tried against the patterns. */
const REFERENCE_MAX = 1024;

const alphanumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const domainNameComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const ipv6address = '\\[(?:[a-fA-F0-9:]+)\\]';
const optionalPort = '(?::[0-9]+)?';
const tag = '[\\w][\\w.-]{0,127}';
// `[[:xdigit:]]` in Go's syntax.
const digestPat = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}';

const domainName = `${domainNameComponent}(?:\\.${domainNameComponent})*`;
const domainAndPort = `(?:${domainName}|${ipv6address})${optionalPort}`;
const pathComponent = `${alphanumeric}(?:${separator}${alphanumeric})*`;
const remoteName = `${pathComponent}(?:/${pathComponent})*`;
const namePat = `(?:${domainAndPort}/)?${remoteName}`;

const REFERENCE = new RegExp(`^(${namePat})(?::(${tag}))?(?:@(${digestPat}))?$`);
/** A valid name, then `:` and anything: what is wrong is the tag. */
const NAME_THEN_TAG = new RegExp(`^${namePat}:([^@]*)(?:@.*)?$`);
/** A valid name (and tag), then `@` and anything: what is wrong is the digest. */
const NAME_THEN_DIGEST = new RegExp(`^${namePat}(?::${tag})?@(.*)$`);

const TAG_RULE = 'letters, digits, _, . and -, at most 128, not starting with . or -';
const DIGEST_RULE = 'algorithm:hex, such as sha256: and 64 hexadecimal digits';
const NAME_RULE =
  'lower-case letters and digits, parts separated by ., _, __, - or /, after an optional registry host[:port]';

/** What is wrong with a reference the grammar refuses: its tag, its digest or its name. */
function fault(raw: string): string {
  const digest = NAME_THEN_DIGEST.exec(raw);
  if (digest !== null) return `its digest '${digest[1] ?? ''}' is not ${DIGEST_RULE}`;
  const tagged = NAME_THEN_TAG.exec(raw);
  if (tagged !== null) return `its tag '${tagged[1] ?? ''}' is not a tag (${TAG_RULE})`;
  if (/\s/.test(raw)) return 'it holds a space';
  return `its name is not a repository name (${NAME_RULE})`;
}

/** The reference as given, once registries would take it; else what is wrong with it. */
export function parseImageReference(raw: string): string {
  if (UNSAFE_IN_AN_INPUT.test(raw)) fail('must not contain control characters or line breaks');
  const shown = `'${raw}' is not an image reference ([host[:port]/]name[:tag][@digest])`;
  if (raw.length > REFERENCE_MAX) fail(`is not an image reference: longer than ${REFERENCE_MAX}`);
  const match = REFERENCE.exec(raw);
  if (match === null) fail(`${shown}: ${fault(raw)}`);
  if ((match[1] ?? '').length > NAME_MAX) {
    fail(`${shown}: its name is longer than ${NAME_MAX} characters`);
  }
  return raw;
}
