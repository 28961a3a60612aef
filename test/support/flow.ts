/**
 * What an in-process flow test needs: the emulator, a fake clock, a logger
 * that keeps its lines, the real HTTP client pointed at the emulator, and
 * the service API over it.
 */
import { ServiceClient } from '../../src/service/client.ts';
import type { RetryPolicy } from '../../src/service/retry.ts';
import type { RunDependencies } from '../../src/run/ports/dependencies.ts';
import { logView } from '../../src/run/ports/events.ts';
import { Service } from '../../src/service/endpoints.ts';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { FakeClock, MemoryLogger } from './clock.ts';

export interface Flow {
  emu: Emulator;
  clock: FakeClock;
  logger: MemoryLogger;
  client: ServiceClient;
  service: Service;
  /** What the flow functions take; the events' log lines go to `logger` too. */
  dependencies: RunDependencies;
}

export async function startFlow(
  options: {
    retry?: RetryPolicy;
    headers?: Record<string, string>;
    maxPages?: number;
    redact?: (text: string) => string;
  } = {},
): Promise<Flow> {
  const emu = await startEmulator();
  const clock = new FakeClock();
  const logger = new MemoryLogger();
  const client = new ServiceClient({
    baseUrl: emu.url,
    headers: options.headers ?? {},
    retry: options.retry,
    clock,
    logger,
    redact: options.redact,
  });
  const service = new Service(client, logger, { maxPages: options.maxPages });
  return {
    emu,
    clock,
    logger,
    client,
    service,
    dependencies: { service, clock, logger, events: logView(logger) },
  };
}
