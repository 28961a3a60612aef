/**
 * Outside any CI, the checkout names its repository: the `origin` remote's
 * URL gives the code host and `owner/name` that `--repository` defaults to,
 * as `gh` finds the repository of the folder it runs in.
 */
import { execFileSync } from 'node:child_process';
import type { Environment } from './sources.js';

/** Where a remote is: its host (lower-cased) and its path (`owner/name`). */
export interface RemoteRepository {
  host: string;
  slug: string;
}

/** The longest `git remote get-url` may take: a local read, never the network. */
const GIT_TIMEOUT_MS = 5_000;

/** `owner/name` from a remote's path: slashes around it and `.git` dropped; undefined unless two or more parts. */
function trimPath(path: string): string | undefined {
  // Loops, not regular expressions: an anchored `/+$/` is quadratic on a run of slashes.
  let start = 0;
  let end = path.length;
  while (start < end && path[start] === '/') start++;
  while (end > start && path[end - 1] === '/') end--;
  const kept = path.slice(start, end);
  const trimmed = kept.endsWith('.git') ? kept.slice(0, -'.git'.length) : kept;
  const parts = trimmed.split('/');
  return parts.length >= 2 && parts.every((part) => part !== '' && !/\s/.test(part))
    ? trimmed
    : undefined;
}

/**
 * `git@github.com:acme/agent.git`, `https://github.com/acme/agent.git` and
 * `ssh://git@github.com/acme/agent` → `github.com` and `acme/agent`; a local
 * path or anything else → undefined. A user or token in the URL is dropped.
 */
export function parseRemoteUrl(url: string): RemoteRepository | undefined {
  const trimmed = url.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    // git's scp-like syntax, [user@]host:path: a colon before any slash (not a drive letter).
    const scp = /^(?:[^@/\s]+@)?([^@/:\s]{2,}):(.+)$/.exec(trimmed);
    const slug = scp === null ? undefined : trimPath(scp[2] ?? '');
    return scp === null || slug === undefined
      ? undefined
      : { host: (scp[1] ?? '').toLowerCase(), slug };
  }
  const parsed = URL.canParse(trimmed) ? new URL(trimmed) : undefined;
  if (parsed === undefined || !['https:', 'http:', 'ssh:', 'git:'].includes(parsed.protocol)) {
    return undefined;
  }
  const slug = trimPath(parsed.pathname);
  const host = parsed.hostname.toLowerCase();
  return slug === undefined || host === '' ? undefined : { host, slug };
}

/** The `origin` remote of the checkout in `cwd`, when it has one on a code host; never throws. */
export function originRepository(env: Environment, cwd: string): RemoteRepository | undefined {
  try {
    const url = execFileSync('git', ['remote', 'get-url', 'origin'], {
      cwd,
      env: { ...env },
      encoding: 'utf8',
      timeout: GIT_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true,
    });
    return parseRemoteUrl(url);
  } catch {
    return undefined;
  }
}
