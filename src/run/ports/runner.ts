/** What a runner (src/github/, src/cli/) gives the core, and what it gets back. */
import type { EventView } from './events.js';
import type { Clock } from '../../common/runtime.js';
import type { RunDescription } from '../../inputs/run-description.js';
import type { ProxySettings } from '../../service/proxy.js';
import type { Pace } from './pace.js';
import type { AskChangedFiles } from './changes.js';
import type { AskCommitOrder, AskPullRequestStates, ReportRetired } from './progress.js';
import type { RunSummary } from './summaries.js';

/** The core tells the runner everything through events the `views` show; it asks through the questions below. */
export interface RunnerIO {
  run: RunDescription;
  proxy: ProxySettings;
  clock: Clock;
  signal: AbortSignal;
  /** For the runner and for the action's own redaction. */
  mask: (value: string) => void;
  redact: (text: string) => string;
  views: readonly EventView[];
  retired?: ReportRetired;
  pullRequestStates?: AskPullRequestStates;
  /** Asked when the deployment's commit is not the target. */
  commitOrder?: AskCommitOrder;
  pace?: Pace;
  /** On a pull request (or with `--changed-since`), when `paths` apply; absent, every agent is deployed. */
  changedFiles?: AskChangedFiles;
}

export interface RunOutcome {
  /** Already redacted; undefined when the run succeeded. */
  failure?: string;
  /** An unexpected error's, for the debug log. */
  stack?: string;
  /** Undefined when there is nothing to show. */
  summary?: RunSummary;
}
