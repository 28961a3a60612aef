/**
 * A dotenv report read as GitLab reads it (`artifacts:reports:dotenv`), to
 * check what `--dotenv` hands to GitLab. No npm package reads dotenv as
 * GitLab does: dotenv and python-dotenv strip quotes, skip blank and comment
 * lines and expand nothing at all. GitLab's documented rules, followed
 * strictly here: the file is under 5 KB; no empty line and no comment line;
 * each line `KEY=value`, split at the first `=`, key and value stripped of
 * surrounding whitespace; a key of ASCII letters, digits and `_` only; quotes
 * kept as part of the value, no escapes; a value never spans lines; at most
 * 20 variables (Self-Managed's default); a repeated key keeps its last value.
 * Every variable is stored as expandable: a `$` in it is expanded later.
 */

/** GitLab's default `dotenv_size`: the file must be smaller. */
export const GITLAB_DOTENV_BYTES = 5 * 1024;
/** GitLab's default `dotenv_variables` on GitLab Self-Managed (GitLab.com allows 50 or more). */
export const GITLAB_DOTENV_VARIABLES = 20;

export class GitLabDotenvError extends Error {}

/** Ruby's String#strip: ASCII whitespace and NUL at both ends. */
function rubyStrip(text: string): string {
  return text.replace(/^[\0\t\n\v\f\r ]+|[\0\t\n\v\f\r ]+$/g, '');
}

/** The variables GitLab stores from `text`, or a GitLabDotenvError where GitLab refuses it. */
export function readGitLabDotenv(
  text: string,
  limits: { bytes?: number; variables?: number } = {},
): Record<string, string> {
  const bytes = limits.bytes ?? GITLAB_DOTENV_BYTES;
  const most = limits.variables ?? GITLAB_DOTENV_VARIABLES;
  if (Buffer.byteLength(text) >= bytes) {
    throw new GitLabDotenvError(`the file is not under ${bytes} bytes`);
  }
  const variables = new Map<string, string>();
  // As Ruby's each_line: lines end after each \n; a last line may lack one.
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  for (const [index, raw] of lines.entries()) {
    const line = raw.replace(/\n$/, '');
    const at = `line ${index + 1}`;
    if (rubyStrip(line) === '') throw new GitLabDotenvError(`${at}: an empty line`);
    if (line.startsWith('#')) throw new GitLabDotenvError(`${at}: a comment`);
    const equals = line.indexOf('=');
    if (equals < 0) throw new GitLabDotenvError(`${at}: no '='`);
    const key = rubyStrip(line.slice(0, equals));
    const value = rubyStrip(line.slice(equals + 1));
    if (!/^[A-Za-z0-9_]{1,255}$/.test(key)) throw new GitLabDotenvError(`${at}: a bad name`);
    variables.set(key, value);
  }
  if (variables.size > most) {
    throw new GitLabDotenvError(`more than ${most} variables`);
  }
  return Object.fromEntries(variables);
}

/** Whether GitLab would expand the stored value in a later job (a `$` anywhere in it). */
export function expandsInGitLab(value: string): boolean {
  return value.includes('$');
}
