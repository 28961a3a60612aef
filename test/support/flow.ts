/**
 * What an in-process flow test needs: the emulator, a fake clock, a logger
 * that keeps its lines, and the real HTTP client pointed at the emulator.
 */
import { ServiceClient, type RetryPolicy } from '../../src/client.ts';
import { startEmulator, type Emulator } from '../emulator.ts';
import { FakeClock, MemoryLogger } from './clock.ts';

export interface Flow {
  emu: Emulator;
  clock: FakeClock;
  logger: MemoryLogger;
  client: ServiceClient;
}

export async function startFlow(
  options: { retry?: RetryPolicy; headers?: Record<string, string> } = {},
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
  });
  return { emu, clock, logger, client };
}
