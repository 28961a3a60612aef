/**
 * Golden files of the deploy step (dist/index.js) with a manifest of three agents on a push,
 * one of them failing: what a run writes (log, outputs, summary) and asks of the service,
 * recorded under test/golden/agents/.
 */
import { describe, it } from 'vitest';
import { AGENT_REPO_URL, INTEGRATION } from '../support/fixtures.ts';
import { QUICK } from '../support/quick.ts';
import {
  MAIN_HEAD,
  MAIN_PUSH,
  MANIFEST_PATH,
  THREE_AGENTS,
  manifestStep,
} from '../support/manifests.ts';
import { runAction } from '../support/run-action.ts';
import { OPENAI, WAITING, expectRun, pushWorld } from './action-world.ts';

const world = pushWorld();

/** The deployment `name` of the manifest's agent at `configPath`, deployed from MAIN_HEAD. */
function deployed(name: string, configPath: string) {
  return world().seedDeployment({
    name,
    source: 'codehost',
    source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
    source_revision_config: {
      repo_ref: 'main',
      agent_config_path: configPath,
      repo_commit_sha: MAIN_HEAD,
    },
    secrets: [{ name: 'OPENAI_API_KEY', value: OPENAI }],
  } as never);
}

describe('deploy, a manifest of three agents', () => {
  it('on a push, one agent refused its create: the others deployed, the run fails naming it', async () => {
    // Only triage is created (support and research exist), so the one refusal is triage's.
    deployed('support', 'apps/support/langgraph.json');
    deployed('research-assistant', 'apps/research/langgraph.json');
    world().inject({
      method: 'POST',
      path: '/v2/deployments',
      status: 422,
      body: { detail: 'quota exceeded: 3 deployments on this plan' },
    });

    const run = await runAction(manifestStep(world(), WAITING), {
      env: QUICK,
      event: MAIN_PUSH,
      files: { [MANIFEST_PATH]: THREE_AGENTS },
    });

    expectRun('agents/push-one-fails.txt', run, world());
  });
});
