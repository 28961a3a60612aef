/**
 * The one rule for a value written to `--dotenv`. GitLab reads the file as its
 * dotenv report and stores each variable as expandable: a `$` in a value the
 * service sent (`custom_url`) would be expanded in every later job that uses
 * it, `environment:url` included, and could hand `$CI_JOB_TOKEN` to another
 * host. So a value is written only when GitLab reads it back exactly and
 * expands nothing; any other is left out, and `--json` still has it.
 */
import { hasControlCharacter, hasLineBreak } from '../common/characters.js';

/** GitLab refuses a dotenv report of 5 KB or more (`dotenv_size`, 5120 bytes by default). */
export const DOTENV_LIMIT_BYTES = 5 * 1024;
/** GitLab refuses more variables than this (`dotenv_variables`, 20 by default on GitLab Self-Managed). */
export const DOTENV_LIMIT_VARIABLES = 20;

/**
 * Why GitLab would not read `value` back exactly as it is, in plain words,
 * or undefined when it would. Never includes the value: it is untrusted text.
 */
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
