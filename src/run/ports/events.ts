/**
 * What the core says happened during a run: one channel of typed events, and
 * the only way the core tells its runner anything. The runner gives views
 * (`EventView`), and each decides how an event looks: the action's log, log
 * groups, outputs, GitHub deployment statuses and comments (src/github/), the
 * command's human log, outputs and `--events` stream (src/cli/). A new view
 * is one more function, and no change to the core. A port: it imports
 * nothing from the steps and flows that emit it.
 *
 * Secrets are redacted once, where events are made (`RunEvents.emit`): the
 * free text of an event (a log line, a heading, what a wait waits for) goes
 * through the runner's `redact`; reports carry text already redacted and
 * secret values as `***`; outputs are data, redacted by structure.
 */
import { formatDuration, type Logger } from '../../common/runtime.js';
import type { PlanNotMade, PlanReport, RunReport } from './progress.js';
import type { DeploymentEntry } from './findings.js';
import type { AgentPlanPart, DeploymentSummary } from './summaries.js';

export type Phase = 'resolve' | 'find' | 'create' | 'wait' | 'plan';

export type LogLevel = 'info' | 'notice' | 'warning' | 'debug';

/**
 * What happened, and, in a step of several agents, which agent it happened
 * to (its key): every event of one agent's run carries it; the manifest's
 * own events (its outputs, its shared checks' lines) do not.
 */
export type RunEvent = RunEventBody & { readonly agent?: string };

export type RunEventBody =
  | { kind: 'log'; level: LogLevel; message: string }
  /**
   * A phase starts; `message` is its heading. Its lines are a log group
   * until its `step_over`, unless `grouped` is false (the plan, whose phases
   * are groups of their own: GitHub does not nest them).
   */
  | { kind: 'phase'; phase: Phase; message: string; grouped: boolean }
  /** The phase ends, however (its group closes). */
  | { kind: 'phase_over'; phase: Phase; grouped: boolean }
  /**
   * The wait's state, at each change and at least every heartbeat while
   * nothing changes: what it waits for, for how long so far and, when the
   * next check comes later than usual or one is unanswered, why.
   */
  | {
      kind: 'waiting';
      waitingFor: string;
      /** `waitingFor` in a word or two, where a row of several agents has room for little. */
      briefly?: string;
      elapsedMs: number;
      note?: string;
    }
  /** A wait saw the deployment's status, revisions or commit change (its first sight included). */
  | {
      kind: 'status_change';
      status: string;
      latestRevisionId: string | null;
      activeRevisionId: string | null;
      waitingFor: string;
    }
  /**
   * The health check's answer changed (its first included): the address without its
   * query (null: none could be made), the HTTP status (null: none came), whether it
   * answers as asked, and why not.
   */
  | { kind: 'health'; url: string | null; httpStatus: number | null; ok: boolean; error?: string }
  /** A wait ended: live, past its deadline, or failed (will not be live, too many failed checks). */
  | { kind: 'wait_over'; outcome: 'live' | 'timed_out' | 'failed' }
  /**
   * Outputs known so far (only those that changed need be new); data, redacted by structure.
   * A deploy's carry the deployment's result as far as it is known (`deployment`), a
   * manifest's each deployment's entry (`entries`, by agent), a manifest's plan each agent's
   * plan (`plans`): views render those values, never the outputs' text.
   */
  | {
      kind: 'outputs';
      outputs: Readonly<Partial<Record<string, string>>>;
      deployment?: DeploymentSummary;
      entries?: ReadonlyMap<string, DeploymentEntry>;
      plans?: readonly AgentPlanPart[];
    }
  /** The deployment was found or created (never on a dry run): the run goes on. */
  | { kind: 'deployed'; report: RunReport }
  /** How a run that was `deployed` ended: after it, nothing. */
  | { kind: 'finished'; report: RunReport }
  /** A plan's verdict, or that it could not be made. */
  | { kind: 'planned'; report: PlanReport | PlanNotMade }
  /**
   * One agent's run of a manifest is over, however it ended (its failure,
   * if any): sent with the agent's key after its own events, even when it
   * failed before its deployment was found or created.
   */
  | { kind: 'agent_over'; failure?: string }
  /** Every agent of a manifest is over: the manifest's last event. */
  | { kind: 'agents_over' };

/**
 * A view of the events. It must not throw; when it starts work the run's
 * end should wait for (a GitHub call), it returns its promise, which must
 * settle within a bound the view keeps.
 */
export type EventView = (event: RunEvent) => void | Promise<void>;

/** Where a step sends its events (`RunEvents.emit`, or nothing in a test). */
export type EventSink = (event: RunEvent) => void;

function redacted(event: RunEvent, redact: (text: string) => string): RunEvent {
  switch (event.kind) {
    case 'log':
    case 'phase':
      return { ...event, message: redact(event.message) };
    case 'waiting':
      return {
        ...event,
        waitingFor: redact(event.waitingFor),
        ...(event.briefly === undefined ? {} : { briefly: redact(event.briefly) }),
        ...(event.note === undefined ? {} : { note: redact(event.note) }),
      };
    case 'status_change':
      return { ...event, status: redact(event.status), waitingFor: redact(event.waitingFor) };
    case 'health':
      return {
        ...event,
        url: event.url === null ? null : redact(event.url),
        ...(event.error === undefined ? {} : { error: redact(event.error) }),
      };
    default:
      return event;
  }
}

/** The channel of one run: every view sees every event, in order, redacted. */
export class RunEvents {
  readonly #views: readonly EventView[];
  readonly #redact: (text: string) => string;
  #pending: Promise<void>[] = [];

  constructor(views: readonly EventView[], redact: (text: string) => string) {
    this.#views = views;
    this.#redact = redact;
  }

  readonly emit: EventSink = (event) => {
    const made = redacted(event, this.#redact);
    for (const view of this.#views) {
      const work = view(made);
      if (work !== undefined) this.#pending.push(work);
    }
  };

  /** Resolves once every view has done the work an event started (each view bounds its own). */
  async settled(): Promise<void> {
    const pending = this.#pending;
    this.#pending = [];
    await Promise.allSettled(pending);
  }

  /** The core's log, as `log` events. */
  readonly logger: Logger = {
    info: (message) => this.emit({ kind: 'log', level: 'info', message }),
    notice: (message) => this.emit({ kind: 'log', level: 'notice', message }),
    warning: (message) => this.emit({ kind: 'log', level: 'warning', message }),
    debug: (message) => this.emit({ kind: 'log', level: 'debug', message }),
  };
}

/** The wait's line in a log: `waiting until live: WHAT; 12.0 s so far[; NOTE]`. */
export function waitingLine(event: Extract<RunEvent, { kind: 'waiting' }>): string {
  const after = event.note === undefined ? '' : `; ${event.note}`;
  return `waiting until live: ${event.waitingFor}; ${formatDuration(event.elapsedMs)} so far${after}`;
}

/**
 * The events as lines of a `Logger`: `log` events at their level, the wait's
 * state as its line; the rest is left to other views.
 */
export function logView(logger: Logger): EventSink {
  return (event) => {
    if (event.kind === 'log') logger[event.level](event.message);
    else if (event.kind === 'waiting') logger.info(waitingLine(event));
  };
}

/** The views of one agent's run: each of `views`, told every event with the agent's key. */
export function agentViews(views: readonly EventView[], agent: string): EventView[] {
  return views.map((view) => (event) => view({ ...event, agent }));
}

/** Runs `flow` over a new channel to `views`; resolves once the views' work is done too. */
export async function withEvents<T>(
  io: { views: readonly EventView[]; redact: (text: string) => string },
  flow: (events: RunEvents) => Promise<T>,
): Promise<T> {
  const events = new RunEvents(io.views, io.redact);
  try {
    return await flow(events);
  } finally {
    await events.settled();
  }
}
