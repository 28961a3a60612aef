/**
 * What a runner gives the core and what it gets back: the adapter (src/github/,
 * src/cli/) builds a `RunnerIO` from its world, and reports the `RunOutcome`.
 */
import type { EventView } from './events.js';
import type { Clock } from '../../common/runtime.js';
import type { RunDescription } from '../../inputs/run-description.js';
import type { ProxySettings } from '../../service/proxy.js';
import type { Pace } from './pace.js';
import type { AskCommitOrder, AskPullRequestStates, ReportRetired } from './progress.js';
import type { RunSummary } from './summaries.js';

/**
 * What the pipeline needs from where it runs, passed in by the adapter. The
 * core tells the runner everything through one channel of events, which
 * the `views` show (the log, log groups, outputs, GitHub's records and
 * comments, the `--events` stream); it asks through the questions below.
 */
export interface RunnerIO {
  /** The run the inputs were read for: workspace, repository, the head it is for. */
  run: RunDescription;
  /** The proxy the requests go through, if any. */
  proxy: ProxySettings;
  clock: Clock;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
  /** Masks a value for the runner and for the action's own redaction. */
  mask: (value: string) => void;
  redact: (text: string) => string;
  /** Each sees every event of the run, in order, its free text redacted. */
  views: readonly EventView[];
  /** Retires previews where the adapter showed them (their records and their comment). */
  retired?: ReportRetired;
  /** Asked how pull requests stand (the sweep); throws when GitHub cannot say. */
  pullRequestStates?: AskPullRequestStates;
  /** Asked which of two commits is newer, when the deployment's is not the target. */
  commitOrder?: AskCommitOrder;
  /** The back-off between attempts and the wait's schedule; the defaults when absent. */
  pace?: Pace;
}

/** How a run ended: all the adapter reports, and what its summary shows. */
export interface RunOutcome {
  /** Why the run failed, already redacted; undefined when it succeeded. */
  failure?: string;
  /** The stack of an unexpected error, for the debug log. */
  stack?: string;
  /**
   * What the run did, for the adapter to render (src/views/) and write where
   * its summary goes; undefined when there is nothing to show.
   */
  summary?: RunSummary;
}
