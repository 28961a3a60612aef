/**
 * What every command sets up before it runs: a redactor that knows the
 * secrets read, the log on stderr through it, the `--events` stream when
 * asked for, and SIGINT and SIGTERM. The first signal stops the run (the
 * session's signal aborts, and the command says why it ended); a second
 * ends the log's live line and quits at once with 130.
 */
import { Redactor } from '../common/redact.js';
import { EventStream, heartbeatMsFrom } from './events.js';
import { commandLog } from './log.js';
import { EXIT, type CliWorld } from './world.js';

/** The `--events` stream on stdout, when asked for. */
export function eventStream(
  wanted: boolean,
  world: CliWorld,
  redact: (text: string) => string,
): EventStream | undefined {
  if (!wanted) return undefined;
  return new EventStream({
    write: (text) => world.stdout.write(text),
    redact,
    heartbeatMs: heartbeatMsFrom(world.env),
  });
}

export type Session = ReturnType<typeof openSession>;

/** Sets a command up: the secrets it read are redacted from everything it writes. */
export function openSession(
  secretValues: readonly string[],
  world: CliWorld,
  { events: wantsEvents = false }: { events?: boolean } = {},
) {
  const redactor = new Redactor();
  for (const value of secretValues) redactor.add(value);
  const redact = (text: string) => redactor.redact(text);
  const events = eventStream(wantsEvents, world, redact);
  const log = commandLog(world.stderr, world.env, redact);
  const controller = new AbortController();
  /** A warning of the command's own: in the log, and in the stream. */
  const warn = (message: string) => {
    log.warning(message);
    events?.warn(message);
  };
  return {
    redactor,
    /** Every secret known so far replaced by `***`. */
    redact,
    log,
    /** The `--events` stream; undefined when not asked for. */
    events,
    /** Aborted by the first SIGINT or SIGTERM. */
    signal: controller.signal,
    warn,
    /**
     * Runs `work` while listening for SIGINT and SIGTERM, and closes the log
     * after. On a second signal, `quitting` says what must still be said (the
     * stream's result line) before the process ends with 130.
     */
    async interruptible<T>(work: () => Promise<T>, quitting?: (signal: string) => void) {
      const stopListening = world.onSignal((signal) => {
        if (controller.signal.aborted) {
          log.close();
          quitting?.(signal);
          world.exit(EXIT.interrupted);
          return;
        }
        warn(`received ${signal}: stopping (again to quit at once)`);
        controller.abort();
      });
      try {
        return await work();
      } finally {
        stopListening();
        log.close();
      }
    },
  };
}
