/**
 * A placeholder in a template (`{agent}` in a name or an environment, `{url}`
 * in the health check's address) filled as text: the value is written
 * character for character, so `$&`, `$'`, `` $` `` and `$1` in it stay as
 * they are (`String.prototype.replace` with a string reads them as patterns).
 */

/** What stands for an agent's name in a name template, an environment or a sweep's pattern. */
export const AGENT_PLACEHOLDER = '{agent}';

/** `template` with every `placeholder` in it replaced by `value`, as text. */
export function fillPlaceholder(template: string, placeholder: string, value: string): string {
  return template.split(placeholder).join(value);
}

/** How many times `text` holds `placeholder`. */
export function placeholderCount(text: string, placeholder: string): number {
  return text.split(placeholder).length - 1;
}
