/**
 * Which of two commits is newer, answered from the git checkout the command
 * runs in, where GitHub's compare call is not at hand (GitLab, CircleCI,
 * Jenkins, a terminal): a CI job's checkout holds the pipeline's commit and,
 * most often, the newer ones. `git merge-base --is-ancestor` answers without
 * a network; an absent git, a shallow clone that lacks a commit, or a folder
 * that is no checkout answers "not known", as no answer did before.
 */
import { execFile } from 'node:child_process';
import type { AskCommitOrder, CommitOrder } from '../run/ports/progress.js';
import type { Environment } from './sources.js';

/** A full sha: anything else (a name, an option) is never passed to git. */
const SHA = /^[0-9a-f]{40}$/i;

/** The longest one question may take: a local git answers in milliseconds. */
const GIT_TIMEOUT_MS = 5_000;

/** The folder git runs in, and the environment it gets (the command's own). */
interface Checkout {
  cwd: string;
  env: Environment;
}

/**
 * Whether `ancestor` is an ancestor of `descendant` (`git merge-base --is-ancestor`, no shell);
 * undefined when git cannot say (128: a commit it lacks; a spawn failure; a killed run).
 */
function isAncestor(
  where: Checkout,
  ancestor: string,
  descendant: string,
): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['merge-base', '--is-ancestor', ancestor, descendant],
      { cwd: where.cwd, env: { ...where.env }, timeout: GIT_TIMEOUT_MS, windowsHide: true },
      (error) => {
        // A spawn failure (ENOENT) has a string code; a killed run, a signal.
        const { code, signal } = (error ?? { code: 0 }) as { code?: unknown; signal?: unknown };
        resolve(signal == null && (code === 0 || code === 1) ? code === 0 : undefined);
      },
    );
  });
}

/**
 * The question as the checkout answers it: `newer` when the target
 * is an ancestor of the latest commit, `older` when the latest is an
 * ancestor of the target; diverged, identical or unknown commits are not
 * known. The repository is not checked: a sha names one commit.
 */
export function checkoutCommitOrder(where: Checkout): AskCommitOrder {
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
