/**
 * A runner for in-process flow tests: a `RunnerIO` that redacts and masks
 * nothing and records what the core tells it (the outputs it sets, every
 * event in order, the log lines). What a test asks or answers (the commit
 * order, pull request states, a retired preview) it passes in `extra`.
 */
import type { RunDescription } from '../../src/inputs/run-description.ts';
import { logView, type RunEvent } from '../../src/run/ports/events.ts';
import type { RunnerIO } from '../../src/run/ports/runner.ts';
import type {
  AgentRetireReport,
  ReportRetired,
  RetireReport,
  Retirement,
} from '../../src/run/ports/progress.ts';
import type { Outputs } from '../../src/run/decisions/report.ts';
import { FakeClock, MemoryLogger } from './clock.ts';

export interface RecordingRunner {
  io: RunnerIO;
  /** Every output set so far, the last value of each. */
  outputs: Outputs & Record<string, string>;
  /** Every event of the run, in order. */
  events: RunEvent[];
  /** The run's log lines. */
  logger: MemoryLogger;
}

/** A runner for `run`: a fake clock and a signal never aborted, unless `extra` gives its own. */
export function recordingRunner(
  run: RunDescription,
  extra: Partial<Omit<RunnerIO, 'run' | 'views'>> = {},
): RecordingRunner {
  const outputs: Record<string, string> = {};
  const events: RunEvent[] = [];
  const logger = new MemoryLogger();
  const io: RunnerIO = {
    ...extra,
    run,
    proxy: extra.proxy ?? {},
    clock: extra.clock ?? new FakeClock(),
    signal: extra.signal ?? new AbortController().signal,
    mask: extra.mask ?? (() => undefined),
    redact: extra.redact ?? ((text) => text),
    views: [
      logView(logger),
      (event) => {
        // An agent's own outputs are gathered by the manifest's run into its own.
        if (event.kind === 'outputs' && event.agent === undefined) {
          Object.assign(outputs, event.outputs);
        }
        events.push(event);
      },
    ],
  };
  return { io, outputs, events, logger };
}

/**
 * A `retired` answer made of one function a flat preview and one for keyed
 * ones (a manifest's); without the one, they get an empty answer.
 */
export function retiredBy(
  flat: ((report: RetireReport) => Promise<Retirement>) | undefined,
  keyed?: (reports: readonly AgentRetireReport[]) => Promise<ReadonlyMap<string, Retirement>>,
): ReportRetired {
  return async ({ layout, reports }) => {
    if (layout === 'keyed') return keyed === undefined ? new Map() : keyed(reports);
    const each = new Map<string, Retirement>();
    for (const { key, report } of reports) if (flat) each.set(key, await flat(report));
    return each;
  };
}

/** One preview retired through a `retired` hook, flat: its retirement. */
export async function retireOne(
  hook: ReportRetired | undefined,
  report: RetireReport,
): Promise<Retirement | undefined> {
  return (await hook?.({ layout: 'flat', reports: [{ key: report.name, report }] }))?.get(
    report.name,
  );
}
