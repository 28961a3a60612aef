/**
 * What a runner gives the core and what it gets back: the adapter (src/github/,
 * src/cli/) builds a `RunnerIO` from its world, and reports the `RunOutcome`.
 */
import type { EventSink } from './events.js';
import type { Clock, Logger } from '../../common/runtime.js';
import type { RunDescription } from '../../inputs/run-description.js';
import type { RemedyWords } from '../../service/answers.js';
import type { ProxySettings } from '../../service/proxy.js';
import type { Group } from './dependencies.js';
import type { Pace } from './pace.js';
import type { AskCommitOrder, ReportPlan, ReportRetired, RunProgress } from './progress.js';

/** What the pipeline needs from where it runs, passed in by the adapter (src/github/). */
export interface RunnerIO {
  /** The run the inputs were read for: workspace, repository, the head it is for. */
  run: RunDescription;
  /** The proxy the requests go through, if any. */
  proxy: ProxySettings;
  logger: Logger;
  clock: Clock;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
  group: Group;
  /** Masks a value for the runner and for the action's own redaction. */
  mask: (value: string) => void;
  redact: (text: string) => string;
  /** Sets outputs: the deploy's (`Outputs`), or another entry's. */
  setOutputs: (outputs: Readonly<Partial<Record<string, string>>>) => void;
  /** Told when the deployment is found or created, and when the run ends. */
  progress?: RunProgress;
  /** Shown the plan (the plan comment), when the adapter has somewhere to show it. */
  planned?: ReportPlan;
  /** Retires a preview where the adapter showed it (its records and its comment). */
  retired?: ReportRetired;
  /** Asked which of two commits is newer, when the deployment's is not the target. */
  commitOrder?: AskCommitOrder;
  /** The back-off between attempts and the wait's schedule; the defaults when absent. */
  pace?: Pace;
  /** How a remedy names the key, the headers and the integration id; the action's inputs when absent. */
  words?: RemedyWords;
  /** Told what happens, as the core's events (the command's `--events`); nothing when absent. */
  events?: EventSink;
}

/** How a run ended: all the adapter reports, and all the summary shows. */
export interface RunOutcome {
  /** Why the run failed, already redacted; undefined when it succeeded. */
  failure?: string;
  /** The stack of an unexpected error, for the debug log. */
  stack?: string;
  /** The job summary as HTML, secret values redacted; undefined when there is nothing to show. */
  summary?: string;
}
