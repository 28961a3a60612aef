/**
 * Which files a merge or pull request changes, from the checkout's git (no
 * shell, never the network): `git diff --name-status -z BASE...HEAD`, from the
 * merge base, a renamed file under both names. BASE is `--changed-since REF`
 * when given, else on another CI's merge or pull request pipeline GitLab's
 * CI_MERGE_REQUEST_DIFF_BASE_SHA or the target branch the CI names.
 */
import { execFile } from 'node:child_process';
import { FULL_SHA } from '../common/text.js';
import type { AskChangedFiles, ChangedFiles } from '../run/ports/changes.js';
import type { CiRun } from './ci.js';
import { GIT_TIMEOUT_MS } from './git.js';
import type { Environment } from './option-values.js';

/** More files than this is not known: GitHub's own cap on a pull request's files, which the action meets. */
export const CHANGED_FILES_CAP = 3_000;

/** 3,000 records of paths up to 4,096 bytes, and then some. */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/** What a shallow clone lacks, and how each CI fetches it. */
const FETCH_HISTORY =
  'fetch the history (GIT_DEPTH: 0 on GitLab, fetch-depth: 0 in a checkout step, or git fetch --unshallow first)';

/** Where the checkout is, and the environment git runs in. */
export interface Checkout {
  cwd: string;
  env: Environment;
}

/** The commit to compare with: the refs to try in order (the first git knows), and how a message names where it came from. */
export interface ChangeBase {
  refs: readonly string[];
  named: string;
}

type GitAnswer = { ok: true; stdout: string } | { ok: false; code?: number; why?: string };

/** Runs git; a failure to run it (no git, a timeout, too long an answer) is said in `why`, an exit status is `code`. */
function git({ cwd, env }: Checkout, args: readonly string[]): Promise<GitAnswer> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...args],
      {
        cwd,
        env: { ...env },
        encoding: 'utf8',
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: MAX_OUTPUT_BYTES,
        windowsHide: true,
      },
      (error, stdout) => {
        if (error === null) return resolve({ ok: true, stdout });
        const { code, signal } = error as { code?: unknown; signal?: unknown };
        if (code === 'ENOENT')
          return resolve({ ok: false, why: 'git is not installed (no git on PATH)' });
        if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
          return resolve({
            ok: false,
            why: `git's list of changed files is over ${MAX_OUTPUT_BYTES / 1024 / 1024} MiB`,
          });
        }
        if (typeof code === 'number' && signal == null) return resolve({ ok: false, code });
        resolve({
          ok: false,
          why:
            signal == null
              ? `git could not run (${String(code)})`
              : `git did not answer within ${GIT_TIMEOUT_MS / 1000} s`,
        });
      },
    );
  });
}

/** The commit `ref` names, or undefined when the checkout has none of that name. */
async function commitOf(checkout: Checkout, ref: string): Promise<string | undefined> {
  if (ref === '' || ref.startsWith('-')) return undefined;
  const answer = await git(checkout, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  return answer.ok ? answer.stdout.trim() : undefined;
}

/** The first of `refs` the checkout knows. */
async function firstCommit(
  checkout: Checkout,
  refs: readonly string[],
): Promise<string | undefined> {
  for (const ref of refs) {
    const sha = await commitOf(checkout, ref);
    if (sha !== undefined) return sha;
  }
  return undefined;
}

/** The paths of `git diff --name-status -z`: one after M, A, D, T (and U, X), two after R and C; undefined when it cannot be read. */
export function parseNameStatus(output: string): { files: string[]; records: number } | undefined {
  const fields = output.split('\0');
  if (fields.at(-1) === '') fields.pop();
  const files = new Set<string>();
  let records = 0;
  let index = 0;
  while (index < fields.length) {
    const status = fields[index] ?? '';
    const count = /^[RC][0-9]*$/.test(status) ? 2 : /^[ADMTUX]$/.test(status) ? 1 : 0;
    const paths = fields.slice(index + 1, index + 1 + count);
    if (count === 0 || paths.length < count || paths.includes('')) return undefined;
    for (const path of paths) files.add(path);
    records++;
    index += 1 + count;
  }
  return { files: [...files], records };
}

function unknown(why: string): ChangedFiles {
  return { known: false, why };
}

/** Why the checkout cannot say, before any diff: not a checkout, no such base, no merge base. */
async function commitsOf(
  checkout: Checkout,
  base: ChangeBase,
  heads: readonly string[],
): Promise<{ base: string; head: string } | { why: string }> {
  const shallowAnswer = await git(checkout, ['rev-parse', '--is-shallow-repository']);
  if (!shallowAnswer.ok) {
    return { why: shallowAnswer.why ?? `${checkout.cwd} is not in a git checkout` };
  }
  const shallow = shallowAnswer.stdout.trim() === 'true';
  const baseSha = await firstCommit(checkout, base.refs);
  if (baseSha === undefined) {
    const tried = base.refs.length > 1 ? ` (tried ${base.refs.join(', ')})` : '';
    const remedy = shallow ? `it is a shallow clone: ${FETCH_HISTORY}` : 'fetch it first';
    return { why: `the checkout has no such commit${tried}: ${remedy}` };
  }
  const headSha = await firstCommit(checkout, [...heads, 'HEAD']);
  if (headSha === undefined) return { why: 'the checkout has no HEAD commit' };
  const mergeBase = await git(checkout, ['merge-base', baseSha, headSha]);
  if (mergeBase.ok) return { base: baseSha, head: headSha };
  if (mergeBase.why !== undefined) return { why: mergeBase.why };
  return {
    why: shallow
      ? `the checkout is a shallow clone without the commit where HEAD's history meets it (their merge base): ${FETCH_HISTORY}`
      : "HEAD's history never meets it (no merge base)",
  };
}

/**
 * The files changed from the merge base of `base` and the head (the first of `heads` the
 * checkout has, else HEAD) to the head, in git's order, each once; or why git cannot say.
 */
export async function checkoutChangedFiles(
  checkout: Checkout,
  base: ChangeBase,
  heads: readonly string[] = [],
): Promise<ChangedFiles> {
  const commits = await commitsOf(checkout, base, heads);
  if ('why' in commits)
    return unknown(`git cannot say which files changed since ${base.named}: ${commits.why}`);
  const range = `${commits.base}...${commits.head}`;
  const diff = await git(checkout, [
    '-c',
    'diff.relative=false',
    'diff',
    '--name-status',
    '-z',
    '--no-color',
    '--no-ext-diff',
    range,
  ]);
  const parsed = diff.ok ? parseNameStatus(diff.stdout) : undefined;
  if (parsed === undefined) {
    const why = diff.ok
      ? 'its answer could not be read'
      : (diff.why ?? `git diff exited with ${diff.code}`);
    return unknown(`git cannot say which files changed since ${base.named}: ${why}`);
  }
  if (parsed.records > CHANGED_FILES_CAP) {
    return unknown(
      `the change since ${base.named} holds more than ${CHANGED_FILES_CAP.toLocaleString('en-US')} files`,
    );
  }
  return { known: true, files: parsed.files };
}

/** `--changed-since REF` as read, and where it came from (`--changed-since` or DEPLOY_CHANGED_SINCE). */
export interface ChangedSince {
  ref: string;
  origin: string;
}

/**
 * BASE: `--changed-since REF` in any run; else, on a CI's merge or pull request pipeline,
 * GitLab's CI_MERGE_REQUEST_DIFF_BASE_SHA, else the target branch (`origin/<branch>`, then
 * `<branch>`; GitHub Actions' GITHUB_BASE_REF, its checkout's HEAD the merge commit). Undefined
 * on any run that is not a pull request: `paths` is not read. `null` when the CI names no target.
 */
export function changeBase(
  changedSince: ChangedSince | undefined,
  ci: Pick<CiRun, 'pullRequest'>,
  env: Environment,
): ChangeBase | null | undefined {
  if (changedSince !== undefined) {
    return { refs: [changedSince.ref], named: `${changedSince.origin} ${changedSince.ref}` };
  }
  if (ci.pullRequest === undefined) return undefined;
  const diffBase = env.CI_MERGE_REQUEST_DIFF_BASE_SHA ?? '';
  if (env.GITLAB_CI !== undefined && FULL_SHA.test(diffBase)) {
    return { refs: [diffBase], named: `CI_MERGE_REQUEST_DIFF_BASE_SHA ${diffBase.slice(0, 12)}` };
  }
  const target = ci.pullRequest.target;
  if (target === undefined || target.startsWith('-')) return null;
  return { refs: [`origin/${target}`, target], named: `the target branch ${target}` };
}

/**
 * What `RunnerIO.changedFiles` asks of the command: the checkout's changed files since
 * `changeBase`, the head being the commit the run targets when the checkout has it (a merged
 * result's HEAD is a merge commit), else HEAD. Undefined when `paths` is not read.
 */
export function askCheckoutChanges(
  changedSince: ChangedSince | undefined,
  ci: Pick<CiRun, 'pullRequest' | 'head' | 'where'>,
  checkout: Checkout,
): AskChangedFiles | undefined {
  const base = changeBase(changedSince, ci, checkout.env);
  if (base === undefined) return undefined;
  if (base === null) {
    const why = `${ci.where} does not name the branch the merge request goes into: pass --changed-since REF`;
    return () => Promise.resolve(unknown(why));
  }
  const heads = ci.head.kind === 'branch' ? [ci.head.sha] : [];
  return () => checkoutChangedFiles(checkout, base, heads);
}
