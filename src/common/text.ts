/** How commits are matched and written, the same way everywhere. */

/** A full commit sha: 40 hex digits, either case (the service records full shas only). */
export const FULL_SHA = /^[0-9a-fA-F]{40}$/;

/** How a sha is written in a message or the summary: its first 12 digits. */
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

/** A count with its noun, agreeing: `1 difference`, `2 differences`. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
