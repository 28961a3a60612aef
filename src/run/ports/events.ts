/**
 * The one channel by which the core tells its runner anything; each view (`EventView`)
 * decides how an event looks (log, outputs, GitHub records, `--events`).
 *
 * Secrets are redacted once, in `RunEvents.emit`: an event's free text goes through the
 * runner's `redact`; reports carry text already redacted and secret values as `***`; outputs
 * are data, redacted by structure.
 */
import { formatDuration, type Logger } from '../../common/runtime.js';
import type { PlanNotMade, PlanReport, RunReport } from './progress.js';
import type { DeploymentEntry } from './findings.js';
import type { AgentPlanPart, DeploymentSummary } from './summaries.js';

export type Phase = 'resolve' | 'find' | 'create' | 'wait' | 'plan';

export type LogLevel = 'info' | 'notice' | 'warning' | 'debug';

/** In a step of several agents, every event of one agent's run carries its key; the manifest's own do not. */
export type RunEvent = RunEventBody & { readonly agent?: string };

type RunEventBody =
  | { kind: 'log'; level: LogLevel; message: string }
  /** Its lines are a log group unless `grouped` is false (the plan's: GitHub does not nest groups). */
  | { kind: 'phase'; phase: Phase; message: string; grouped: boolean }
  | { kind: 'phase_over'; phase: Phase; grouped: boolean }
  /** At each change and every heartbeat; `note`: why the next check is late, or one unanswered. */
  | {
      kind: 'waiting';
      waitingFor: string;
      /** `waitingFor` in a word or two, for a row of several agents. */
      briefly?: string;
      elapsedMs: number;
      note?: string;
    }
  /** Its first sight included. */
  | {
      kind: 'status_change';
      status: string;
      latestRevisionId: string | null;
      activeRevisionId: string | null;
      waitingFor: string;
    }
  /** The health check's answer changed (its first included); `url` without its query, null: none made. */
  | { kind: 'health'; url: string | null; httpStatus: number | null; ok: boolean; error?: string }
  | { kind: 'wait_over'; outcome: 'live' | 'timed_out' | 'failed' }
  /**
   * Outputs known so far (only those that changed need be new). Views render the values
   * (`deployment`, a manifest's `entries` by agent, its `plans`), never the outputs' text.
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
  /** After it, nothing. */
  | { kind: 'finished'; report: RunReport }
  | { kind: 'planned'; report: PlanReport | PlanNotMade }
  /** The agent is not deployed: the pull request does not change it (its `paths`). */
  | { kind: 'skipped'; reason: 'unchanged' }
  /** Sent after the agent's own events, even when it failed before any deployment. */
  | { kind: 'agent_over'; failure?: string }
  /** The manifest's last event. */
  | { kind: 'agents_over' };

/** Must not throw; work the run's end should wait for (a GitHub call) is returned, bounded by the view. */
export type EventView = (event: RunEvent) => void | Promise<void>;

export type EventSink = (event: RunEvent) => void;

/** The free text of each kind of event (a `null` or absent one stays so). */
const FREE_TEXT: Partial<Record<RunEvent['kind'], readonly string[]>> = {
  log: ['message'],
  phase: ['message'],
  waiting: ['waitingFor', 'briefly', 'note'],
  status_change: ['status', 'waitingFor'],
  health: ['url', 'error'],
};

function redacted(event: RunEvent, redact: (text: string) => string): RunEvent {
  const made: Record<string, unknown> = { ...event };
  for (const field of FREE_TEXT[event.kind] ?? []) {
    const text = made[field];
    if (typeof text === 'string') made[field] = redact(text);
  }
  return made as RunEvent;
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

/** `log` events and the wait's state as lines of a `Logger`; the rest is left to other views. */
export function logView(logger: Logger): EventSink {
  return (event) => {
    if (event.kind === 'log') logger[event.level](event.message);
    else if (event.kind === 'waiting') logger.info(waitingLine(event));
  };
}

/** Each of `views`, told every event with the agent's key. */
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
