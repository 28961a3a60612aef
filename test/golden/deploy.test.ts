/**
 * Golden files of the deploy step (dist/index.js) on one deployment: what a run writes
 * (log, outputs, summary) and asks of the service, recorded under test/golden/deploy/.
 */
import { describe, it } from 'vitest';
import { AGENT_REPO_URL, INTEGRATION } from '../support/fixtures.ts';
import { MAIN_HEAD } from '../support/manifests.ts';
import { deployStep, expectRun, pushWorld } from './action-world.ts';

const world = pushWorld();
const step = (extra: Record<string, string> = {}) => deployStep(world(), extra);

/** `my-agent` as an earlier run left it: live on MAIN_HEAD, at agent.json, with its own secret. */
function existing() {
  return world().seedDeployment({
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
    expectRun('deploy/create.txt', first, world());
    world().requests.length = 0;
    const second = await step();
    expectRun('deploy/reuse.txt', second, world());
  });

  it('reuses a deployment that differs: a warning for each difference, green (on-drift default)', async () => {
    existing();
    const run = await step({ 'agent-config-path': 'agent.json', config: MORE_REPLICAS });
    expectRun('deploy/drift-warn.txt', run, world());
  });

  it('fails after reporting a deployment that differs, with on-drift: fail', async () => {
    existing();
    const run = await step({
      'agent-config-path': 'agent.json',
      config: MORE_REPLICAS,
      'on-drift': 'fail',
    });
    expectRun('deploy/drift-fail.txt', run, world());
  });

  it('fails at once on a revision the deployment will never take, even with on-drift: warn', async () => {
    existing();
    const run = await step({ 'agent-config-path': 'new.json' });
    expectRun('deploy/drift-never.txt', run, world());
  });
});
