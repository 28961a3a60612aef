/**
 * What the core says happened during a run, as typed events to a sink the
 * runner may give (a port: it imports nothing from the steps and flows that
 * emit it). The views decide how an event looks: the command's `--events`
 * stream writes each as one JSON line; the action gives no sink, and its log
 * is what it always was. An event carries no secret value: its text is what
 * the log already shows (names, ids, statuses, what is missing).
 */

/** The phases of a run a `step` event names. */
export type RunStep = 'resolve' | 'find' | 'create' | 'wait' | 'plan';

export type RunEvent =
  /** A phase starts; `message` is its log heading. */
  | { kind: 'step'; step: RunStep; message: string }
  /** A wait saw the deployment's status, revisions or commit change (its first sight included). */
  | {
      kind: 'status_change';
      status: string;
      latestRevisionId: string | null;
      activeRevisionId: string | null;
      waitingFor: string;
    }
  /** A wait ended: live, past its deadline, or failed (will not be live, too many failed checks). */
  | { kind: 'wait_over'; outcome: 'live' | 'timed_out' | 'failed' };

/** Where the core's events go; called synchronously, it must not throw. */
export type EventSink = (event: RunEvent) => void;
