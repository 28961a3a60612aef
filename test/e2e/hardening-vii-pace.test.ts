/**
 * Hardening VII (issue 55), the health check's pace, through the bundle (dist/index.js)
 * against the emulator: agents whose checks go to one address share one check a tick
 * (ACTION-CONTRACT.md v1.6, "One address, one pace"), and each is judged from that one
 * answer by its own expected text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator/emulator.ts';
import { API_KEY, PUSH, startHealthEmulator } from '../support/health-world.ts';
import { QUICK } from '../support/quick.ts';
import { AGENT_REPO_URL, INTEGRATION } from '../support/fixtures.ts';
import { runAction, KILL_AFTER_MS } from '../support/run-action.ts';

const AGENTS = ['alpha', 'beta', 'gamma', 'delta'];

/** Four agents, each expecting its own text of the one answer `{"ok":true}` (delta: any 2xx). */
const MANIFEST = `agents:
  alpha:
    health-check-expect: '"ok"'
  beta:
    health-check-expect: 'true'
  gamma:
    health-check-expect: '{"ok":'
  delta: {}
`;

let emu: Emulator;

beforeEach(async () => {
  emu = await startHealthEmulator();
});

afterEach(async () => {
  await emu.close();
});

/** The agents as an earlier run left them, live on HEAD, all at `alpha`'s one address. */
function seedOneAddress(): void {
  const seed = (name: string, customUrl?: string) =>
    emu.seedDeployment({
      name,
      source_config: {
        integration_id: INTEGRATION,
        repo_url: AGENT_REPO_URL,
        build_on_push: true,
        ...(customUrl === undefined ? {} : { custom_url: customUrl }),
      },
      source_revision_config: { repo_ref: 'main', repo_commit_sha: PUSH.sha },
    });
  seed('alpha');
  const shared = emu.serveAddress('alpha', { slowStartRequests: 8 });
  for (const name of AGENTS.slice(1)) seed(name, shared);
}

describe('one address, one pace', () => {
  it('checks the address four agents share once a tick, and judges each agent from it', async () => {
    seedOneAddress();

    const run = await runAction(
      {
        'api-url': emu.url,
        'api-key': API_KEY,
        'integration-id': INTEGRATION,
        agents: 'deploy/agents.yaml',
        'wait-for-ready': 'true',
        'wait-timeout': '60',
        'health-check': '/ok',
      },
      {
        event: PUSH,
        env: QUICK,
        files: { 'deploy/agents.yaml': MANIFEST },
        killAfterMs: KILL_AFTER_MS,
      },
    );

    expect(run.exitCode).toBe(0);
    const deployments = JSON.parse(run.outputs.deployments ?? '{}') as Record<string, unknown>;
    for (const name of AGENTS) {
      expect(deployments[name]).toMatchObject({ healthy: true });
    }
    // The ticks: the shared status requests of the waits, and each agent's first look.
    const ticks = emu.requests.filter((request) => request.query.deployment_ids !== undefined);
    const checks = emu.addressRequests;
    // Eight 503s, then the 200 every agent is judged from.
    expect(checks.map((check) => check.status).slice(0, 9)).toEqual([
      ...Array<number>(8).fill(503),
      200,
    ]);
    expect(checks.length).toBeLessThanOrEqual(ticks.length + AGENTS.length);
    // Not one check an agent a tick: four agents each checking would have made 36 at least.
    expect(checks.length).toBeLessThan(2 * 9);
  });
});
