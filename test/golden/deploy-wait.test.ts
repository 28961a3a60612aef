/**
 * Golden files of the deploy step's wait (dist/index.js) on one deployment: a push whose new
 * revision comes live over the old one, and a wait that ends at wait-timeout, recorded under
 * test/golden/deploy/.
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
import { API_KEY } from './action-world.ts';

/** The commit `my-agent` runs before the push of MAIN_HEAD. */
const OLD = '1111111111111111111111111111111111111111';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: API_KEY });
  seedAgentRepository(emu);
});

afterEach(async () => {
  await emu.close();
});

/** The deploy step of `my-agent` on a push of MAIN_HEAD to main, waiting; `extra` over it. */
function step(extra: Record<string, string> = {}) {
  return runAction(
    codehostStep(emu, {
      'api-key': API_KEY,
      'wait-for-ready': 'true',
      'wait-timeout': '30',
      ...extra,
    }),
    { env: QUICK, event: MAIN_PUSH },
  );
}

describe('deploy, one deployment, waiting', () => {
  it('waits over two revisions: the pushed commit is built and comes live over the old one', async () => {
    emu.seedDeployment({
      name: 'my-agent',
      source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
      source_revision_config: { repo_ref: 'main', repo_commit_sha: OLD },
    });
    emu.setOptions({ buildPolls: 2 });
    emu.push(AGENT_REPO_URL, 'main', MAIN_HEAD);

    const run = await step();

    expectGolden('deploy/wait-new-revision.txt', actionParts(run) + serviceChanges(emu));
  });

  it('fails at wait-timeout when the deployment never becomes READY', async () => {
    // Far more polls than a one-second wait can make: it never turns READY.
    emu.setOptions({ readyAfterPolls: 1_000_000 });
    emu.setHead(AGENT_REPO_URL, 'main', MAIN_HEAD);

    const run = await step({ 'wait-timeout': '1' });

    // How many checks fit in the second depends on the machine's speed: the count is normalised
    // (in the log's parenthesis and the summary's escaped one).
    expectGolden('deploy/wait-timeout.txt', actionParts(run) + serviceChanges(emu), {
      replace: [[/(\(|&#40;)\d+ checks\b/g, '$1<n> checks']],
    });
  });
});
