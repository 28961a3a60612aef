/**
 * Golden files of the deploy step (dist/index.js) on one deployment: what a run writes
 * (log, outputs, summary) and asks of the service, recorded under test/golden/deploy/.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  AGENT_REPO_URL,
  INTEGRATION,
  codehostStep,
  seedAgentRepository,
} from '../support/fixtures.ts';
import { actionParts, expectGolden, serviceChanges } from '../support/golden.ts';
import { QUICK } from '../support/quick.ts';
import { MAIN_HEAD, MAIN_PUSH } from '../support/manifests.ts';
import { runAction } from '../support/run-action.ts';

const API_KEY = 'golden-key-0123456789abcdef';
const OPENAI = 'sk-golden-openai-0123456789';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: API_KEY, readyAfterPolls: 1 });
  seedAgentRepository(emu);
  emu.setHead(AGENT_REPO_URL, 'main', MAIN_HEAD);
});

afterEach(async () => {
  await emu.close();
});

function step(extra: Record<string, string> = {}) {
  return runAction(
    codehostStep(emu, {
      'api-key': API_KEY,
      secrets: `OPENAI_API_KEY=${OPENAI}`,
      'wait-for-ready': 'true',
      'wait-timeout': '60',
      ...extra,
    }),
    { env: QUICK, event: MAIN_PUSH },
  );
}

/** `my-agent` as an earlier run left it: live on MAIN_HEAD, at agent.json, with its own secret. */
function existing() {
  return emu.seedDeployment({
    name: 'my-agent',
    source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
    source_revision_config: {
      repo_ref: 'main',
      agent_config_path: 'agent.json',
      repo_commit_sha: MAIN_HEAD,
    },
    secrets: [{ name: 'OLD_ONLY', value: 'old-secret-value-123' }],
  });
}

/** A resource_spec the deployment does not have: drift the service cannot apply. */
const MORE_REPLICAS = 'source_config:\n  resource_spec:\n    min_scale: 3\n';

describe('deploy, one deployment', () => {
  it('creates it and waits until it is live, then reuses it on a second push', async () => {
    const first = await step();
    expectGolden('deploy/create.txt', actionParts(first) + serviceChanges(emu));
    emu.requests.length = 0;
    const second = await step();
    expectGolden('deploy/reuse.txt', actionParts(second) + serviceChanges(emu));
  });

  it('reuses a deployment that differs: a warning for each difference, green (on-drift default)', async () => {
    existing();
    const run = await step({ 'agent-config-path': 'agent.json', config: MORE_REPLICAS });
    expectGolden('deploy/drift-warn.txt', actionParts(run) + serviceChanges(emu));
  });

  it('fails after reporting a deployment that differs, with on-drift: fail', async () => {
    existing();
    const run = await step({
      'agent-config-path': 'agent.json',
      config: MORE_REPLICAS,
      'on-drift': 'fail',
    });
    expectGolden('deploy/drift-fail.txt', actionParts(run) + serviceChanges(emu));
  });

  it('fails at once on a revision the deployment will never take, even with on-drift: warn', async () => {
    existing();
    const run = await step({ 'agent-config-path': 'new.json' });
    expectGolden('deploy/drift-never.txt', actionParts(run) + serviceChanges(emu));
  });
});
