/** What a pull request changes, as the runner learns it (GitHub's API, the checkout's git). */

/** The pull request's whole change, base to head (a renamed file under both names), or why it cannot be known. */
export type ChangedFiles =
  { known: true; files: readonly string[] } | { known: false; why: string };

/** Asked once, before any agent runs, when some agent sets `paths`. */
export type AskChangedFiles = () => Promise<ChangedFiles>;

/**
 * Whether an agent is changed by the pull request: by a file its `paths` match (the first in
 * the change's order, and the pattern that decided), by a file it always depends on (the
 * manifest's, its `config` or `agent-config-path` file), or not at all.
 */
export type AgentChange = { changed: true; file: string; pattern?: string } | { changed: false };
