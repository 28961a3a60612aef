export const AGENT_PLACEHOLDER = '{agent}';

/** As text: `$&` or `$1` in `value` stay as they are (`String.prototype.replace` reads them). */
export function fillPlaceholder(template: string, placeholder: string, value: string): string {
  return template.split(placeholder).join(value);
}

export function placeholderCount(text: string, placeholder: string): number {
  return text.split(placeholder).length - 1;
}
