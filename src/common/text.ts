/** Either case; the service records full shas only. */
export const FULL_SHA = /^[0-9a-fA-F]{40}$/;

export function shortSha(sha: string): string;
export function shortSha(sha: string | null | undefined): string | undefined;
export function shortSha(sha: string | null | undefined): string | undefined {
  return sha?.slice(0, 12);
}

/** An address without its trailing slashes (a loop: `/\/+$/` reads the rest again from every slash). */
export function withoutTrailingSlashes(address: string): string {
  let end = address.length;
  while (end > 0 && address[end - 1] === '/') end--;
  return address.slice(0, end);
}

/** `${n} ${plural(n, 'difference')}`, `plural(n, 'it', 'them')`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

export const AGENT_PLACEHOLDER = '{agent}';

/** As text: `$&` or `$1` in `value` stay as they are (`String.prototype.replace` reads them). */
export function fillPlaceholder(template: string, placeholder: string, value: string): string {
  return template.split(placeholder).join(value);
}

export function placeholderCount(text: string, placeholder: string): number {
  return text.split(placeholder).length - 1;
}
