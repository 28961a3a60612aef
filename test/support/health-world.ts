/**
 * What the end-to-end tests of the health check share: the service emulator serving
 * each deployment's address, `my-agent` as an earlier run left it, and the deploy step
 * on a push of its head, waiting and checking `/ok`, at the quick pace.
 */
import { startEmulator, type Emulator, type EmulatorOptions } from '../emulator/emulator.ts';
import { QUICK } from './quick.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from './fixtures.ts';
import { runAction, type ActionRun, type RunOptions, KILL_AFTER_MS } from './run-action.ts';

export const API_KEY = 'health-service-key-0123456789';
export const HEAD = 'abcdabcdabcdabcdabcdabcdabcdabcdabcdabcd';
export const PUSH = { name: 'push', ref: 'refs/heads/main', sha: HEAD };

/** The emulator, its addresses served, `main`'s head at HEAD. */
export async function startHealthEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const emu = await startEmulator({
    apiKey: API_KEY,
    addresses: true,
    readyAfterPolls: 1,
    ...options,
  });
  seedAgentRepository(emu);
  emu.setHead(AGENT_REPO_URL, 'main', HEAD);
  return emu;
}

/** `my-agent` as an earlier run left it: live on HEAD, at `customUrl` when given. */
export function existing(emu: Emulator, customUrl?: string) {
  return emu.seedDeployment({
    name: 'my-agent',
    source_config: {
      integration_id: INTEGRATION,
      repo_url: AGENT_REPO_URL,
      build_on_push: true,
      ...(customUrl === undefined ? {} : { custom_url: customUrl }),
    },
    source_revision_config: { repo_ref: 'main', repo_commit_sha: HEAD },
  });
}

/** The deploy step of `my-agent` on a push of HEAD, waiting, checking `/ok`; `env` over QUICK. */
export function healthStep(
  emu: Emulator,
  extra: Record<string, string> = {},
  options: RunOptions = {},
): Promise<ActionRun> {
  return runAction(
    {
      'api-url': emu.url,
      'api-key': API_KEY,
      'integration-id': INTEGRATION,
      name: 'my-agent',
      'wait-for-ready': 'true',
      'wait-timeout': '30',
      'health-check': '/ok',
      ...extra,
    },
    { event: PUSH, killAfterMs: KILL_AFTER_MS, ...options, env: { ...QUICK, ...options.env } },
  );
}
