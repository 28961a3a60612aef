/**
 * The rule for a `--dotenv` value. GitLab stores each variable as expandable:
 * a `$` in a value the service sent (`custom_url`) would be expanded in later
 * jobs and could hand `$CI_JOB_TOKEN` to another host. So a value is written
 * only when GitLab reads it back exactly; any other is left out (`--json` has it).
 */
import { hasControlCharacter, hasLineBreak } from '../common/characters.js';

/** GitLab refuses a dotenv report of 5 KB or more (`dotenv_size`, 5120 bytes by default). */
const DOTENV_LIMIT_BYTES = 5 * 1024;
/** GitLab refuses more variables than this (`dotenv_variables`, 20 by default on GitLab Self-Managed). */
export const DOTENV_LIMIT_VARIABLES = 20;

/** Why GitLab would not read `value` back exactly; never the value: it is untrusted text. */
export function dotenvRefusal(value: string): string | undefined {
  if (value.includes('$')) return "GitLab would expand its '$'";
  if (hasLineBreak(value)) return 'it has a line break';
  if (hasControlCharacter(value)) return 'it has a control character';
  if (/\s/u.test(value)) return 'it has whitespace, which GitLab trims or a shell splits';
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]) {
    return 'it is wholly quoted, which GitLab keeps and other dotenv readers strip';
  }
  return undefined;
}

export interface DotenvLeftOut {
  variable: string;
  reason: string;
}

/**
 * `variables`, most important first, as GitLab reads them back: no empty
 * value (unset reads the same); past `maxKeys` the last go; past 5 KB the
 * longest line first, so one huge value does not push out the short ones.
 */
export function dotenvReport(
  variables: readonly (readonly [string, string])[],
  maxKeys: number,
): { text: string; skipped: DotenvLeftOut[] } {
  const skipped: DotenvLeftOut[] = [];
  const lines: [string, string][] = [];
  for (const [variable, value] of variables) {
    if (value === '') continue;
    const refusal = dotenvRefusal(value);
    if (refusal === undefined) lines.push([variable, `${variable}=${value}\n`]);
    else skipped.push({ variable, reason: refusal });
  }
  const pastTheCount =
    maxKeys === DOTENV_LIMIT_VARIABLES
      ? `GitLab takes at most ${DOTENV_LIMIT_VARIABLES} variables (--dotenv-max-keys N raises the limit where GitLab's is higher)`
      : `at most ${maxKeys} variables are written (--dotenv-max-keys ${maxKeys})`;
  for (const [variable] of lines.splice(maxKeys)) skipped.push({ variable, reason: pastTheCount });
  const joined = () => lines.map(([, line]) => line).join('');
  let text = joined();
  while (Buffer.byteLength(text) >= DOTENV_LIMIT_BYTES && lines.length > 0) {
    const longest = lines.reduce(
      (best, [, line], index) =>
        Buffer.byteLength(line) >= Buffer.byteLength(lines[best]?.[1] ?? '') ? index : best,
      0,
    );
    const [variable = ''] = lines.splice(longest, 1)[0] ?? [];
    skipped.push({ variable, reason: 'the file would reach the 5 KB GitLab accepts' });
    text = joined();
  }
  return { text, skipped };
}
