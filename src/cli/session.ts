/**
 * What every command sets up: the redactor, the log and `--events` through
 * it, and the signals: the first stops the run, a second quits at once (130).
 */
import { Redactor } from '../common/redact.js';
import { EventStream, heartbeatMsFrom } from './events.js';
import { commandLog } from './log.js';
import { EXIT, type CliWorld } from './world.js';

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
  const warn = (message: string) => {
    log.warning(message);
    events?.warn(message);
  };
  return {
    redactor,
    redact,
    log,
    events,
    signal: controller.signal,
    warn,
    /** On a second signal, `quitting` writes what must still be said (the result line). */
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
