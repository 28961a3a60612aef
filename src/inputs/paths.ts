/**
 * A manifest entry's `paths`: glob patterns relative to the repository's root, read as
 * picomatch reads them with dot files included (`*` within a folder, `**` across folders, `?`
 * one character, `[…]` a class, `{a,b}` alternatives); a leading `!` excludes, and the last
 * pattern that matches a file decides. Checked on every event, every problem named by its path
 * (`agents.support.paths` for the list, `agents.support.paths[1]` for a pattern).
 */
import path from 'node:path';
import picomatch from 'picomatch';
import type { InputProblem } from './errors.js';
import { formatIssuePath } from '../service/issues.js';

/** How a pattern is read, here and where it decides: dot files included, every bracket closed. */
export const PATTERN_OPTIONS = { dot: true, strictBrackets: true } as const;

/** A pattern as written: whether it excludes (a leading `!`), and the glob after that `!`. */
export function patternParts(pattern: string): { exclude: boolean; glob: string } {
  const exclude = pattern.startsWith('!');
  return { exclude, glob: exclude ? pattern.slice(1) : pattern };
}

/** Before ` - use "\\]" to match…`: a backslash is no pattern's here, so that advice would mislead. */
function compileProblem(glob: string): string | undefined {
  try {
    picomatch(glob, PATTERN_OPTIONS);
    return undefined;
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split(' - ')[0];
    return `cannot be read as a glob pattern (${reason}): close every [, ( and {`;
  }
}

/** What is wrong with one pattern, or undefined. */
export function patternProblem(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return 'must be a text: a glob pattern like apps/support/**';
  const { glob } = patternParts(pattern);
  const shown = JSON.stringify(pattern);
  if (glob === '') return 'is empty: a pattern names the files it matches, like apps/support/**';
  if (glob.includes('\\')) {
    return `${shown} has a backslash: folders are separated by / (on every runner), and no character is escaped`;
  }
  if (glob.startsWith('/')) {
    return `${shown} is absolute: a pattern is relative to the repository's root (${JSON.stringify(glob.replace(/^\/+/, ''))})`;
  }
  if (glob.split('/').includes('..')) {
    return `${shown} has a .. segment: a pattern is relative to the repository's root and stays inside it`;
  }
  return compileProblem(glob);
}

/** The entry's `paths` when every pattern is good, and every problem of it. */
export function readPaths(
  key: string,
  raw: unknown,
): { paths?: string[]; problems: InputProblem[] } {
  const list = formatIssuePath(['agents', key, 'paths']);
  if (!Array.isArray(raw)) {
    const problem = 'must be a list of glob patterns, like [apps/support/**, libs/shared/**]';
    return { problems: [{ input: list, problem }] };
  }
  if (raw.length === 0) {
    const problem =
      'is empty: list the patterns of the files that change this agent (an entry without paths is always deployed)';
    return { problems: [{ input: list, problem }] };
  }
  const problems: InputProblem[] = [];
  raw.forEach((pattern: unknown, index) => {
    const problem = patternProblem(pattern);
    if (problem !== undefined) {
      problems.push({ input: formatIssuePath(['agents', key, 'paths', index]), problem });
    }
  });
  return problems.length > 0 ? { problems } : { paths: raw as string[], problems };
}

/**
 * A file of the workspace as a changed file names it: relative to the workspace's root, with
 * `/` (`./deploy/agents.yaml` → `deploy/agents.yaml`); undefined outside it. The workspace is
 * the checkout's root where the run checks the repository out there (GitHub's default).
 */
export function workspacePath(raw: string, workspace: string): string | undefined {
  const root = path.resolve(workspace);
  const relative = path.relative(root, path.resolve(root, raw));
  const outside = relative === '..' || relative.startsWith(`..${path.sep}`);
  if (relative === '' || outside || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/** A path of the repository as the service reads it (`./apps/x.json` → `apps/x.json`). */
export function repositoryPath(raw: string): string | undefined {
  const normal = path.posix.normalize(raw.replaceAll('\\', '/')).replace(/^\/+/, '');
  const outside = normal === '..' || normal.startsWith('../');
  // posix.normalize leaves at most one trailing slash (a regex for many would be quadratic).
  const trimmed = normal.endsWith('/') ? normal.slice(0, -1) : normal;
  return trimmed === '.' || trimmed === '' || outside ? undefined : trimmed;
}
