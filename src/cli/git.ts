/**
 * What the checkout in the working folder says, from a local `git` (no shell,
 * never the network): the `origin` remote that `--repository` defaults to
 * outside CI (as `gh` finds its repository), and which of two commits is newer.
 */
import { execFile, execFileSync } from 'node:child_process';
import type { AskCommitOrder, CommitOrder } from '../run/ports/progress.js';
import type { Environment } from './option-values.js';

/** The longest one question may take: a local git answers in milliseconds. */
export const GIT_TIMEOUT_MS = 5_000;

/** A full sha: anything else (a name, an option) is never passed to git. */
const SHA = /^[0-9a-f]{40}$/i;

/** Where a remote is: its host (lower-cased) and its path (`owner/name`). */
interface RemoteRepository {
  host: string;
  slug: string;
}

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

/** `git@github.com:acme/agent.git`, `https://…`, `ssh://…` → `github.com`, `acme/agent`; a user or token dropped. */
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

/** Whether `ancestor` is an ancestor of `descendant`; undefined when git cannot say (a commit it lacks, no git, a killed run). */
function isAncestor(
  { cwd, env }: { cwd: string; env: Environment },
  ancestor: string,
  descendant: string,
): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['merge-base', '--is-ancestor', ancestor, descendant],
      { cwd, env: { ...env }, timeout: GIT_TIMEOUT_MS, windowsHide: true },
      (error) => {
        // A spawn failure (ENOENT) has a string code; a killed run, a signal.
        const { code, signal } = (error ?? { code: 0 }) as { code?: unknown; signal?: unknown };
        resolve(signal == null && (code === 0 || code === 1) ? code === 0 : undefined);
      },
    );
  });
}

/**
 * `newer` when the target is an ancestor of the latest, `older` the reverse; a
 * CI checkout most often holds both. Diverged, identical or unknown commits
 * are not known. The repository is not checked: a sha names one commit.
 */
export function checkoutCommitOrder(where: { cwd: string; env: Environment }): AskCommitOrder {
  return async (_repository, target, latest): Promise<CommitOrder> => {
    if (!SHA.test(target) || !SHA.test(latest) || target.toLowerCase() === latest.toLowerCase()) {
      return undefined;
    }
    const targetFirst = await isAncestor(where, target, latest);
    if (targetFirst !== false) return targetFirst === true ? 'newer' : undefined;
    const latestFirst = await isAncestor(where, latest, target);
    return latestFirst === true ? 'older' : undefined;
  };
}
