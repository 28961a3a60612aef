/**
 * What the step asks of the deployment `deploy` found or created (assess):
 * the revisions it saw, the drift, and a target the deployment will not build.
 */
import { describe, expect, it } from 'vitest';
import type { DeploySpec } from '../../../src/inputs/deploy-spec.ts';
import { buildCreateRequest, type DeployResult } from '../../../src/run/decisions/deploy.ts';
import { CommitOrders } from '../../../src/run/decisions/live.ts';
import { assess, unbuiltIn } from '../../../src/run/decisions/goal.ts';
import type { CommitOrder } from '../../../src/run/ports/progress.ts';
import type { Deployment } from '../../../src/service/schemas.ts';
import { MemoryLogger } from '../../support/clock.ts';
import {
  INTEGRATION,
  OLD_SHA,
  REVISION_A,
  REVISION_B,
  aDeployment,
} from '../../support/fixtures.ts';
import { planReader } from '../../support/plan-inputs.ts';

const NEW_SHA = 'b'.repeat(40);
const { plan: planOf } = planReader({
  workspace: process.cwd(),
  head: { kind: 'branch', branch: 'main', sha: NEW_SHA, pullRequest: false },
});

const spec: DeploySpec = planOf({
  name: 'app',
  'integration-id': INTEGRATION,
  repository: 'acme/agent',
});
const request = buildCreateRequest(spec, {
  host_integration_id: INTEGRATION,
  id: 1,
  owner: 'acme',
  name: 'agent',
  url: 'https://github.com/acme/agent',
  default_branch: 'main',
});

/** A reused deployment that builds each push to main, revisions A (latest) and B (active). */
const reused = (fields: Partial<Deployment> = {}): DeployResult => ({
  deployment: aDeployment({
    source_config: { integration_id: INTEGRATION, build_on_push: true },
    latest_revision_id: REVISION_A,
    active_revision_id: REVISION_B,
    ...fields,
  }),
  created: false,
  request,
});

describe('assess', () => {
  it('on a create: the revisions the create answered are seen, as on a reuse; no drift, the run head targeted', async () => {
    const created = { ...reused(), created: true };
    expect(await assess(spec, created, new MemoryLogger())).toEqual({
      target: { sha: NEW_SHA, branch: 'main' },
      seenRevisions: new Set([REVISION_A, REVISION_B]),
      drift: [],
      orders: expect.any(CommitOrders) as unknown,
      asker: 'the step',
    });
  });

  it('on a reuse: the revisions it saw are not a newer push', async () => {
    const goal = await assess(spec, reused(), new MemoryLogger());
    expect(goal.seenRevisions).toEqual(new Set([REVISION_A, REVISION_B]));
    expect(goal.target).toEqual({ sha: NEW_SHA, branch: 'main' });
    expect(unbuiltIn(goal.drift)).toBeUndefined();
  });

  it('with build_on_push off and another commit live: the commit is drift, not a target', async () => {
    const goal = await assess(
      spec,
      reused({ source_config: { integration_id: INTEGRATION, build_on_push: false } }),
      new MemoryLogger(),
    );
    const unbuilt = {
      field: 'source_revision_config.repo_commit_sha',
      wanted: NEW_SHA,
      live: OLD_SHA,
      kind: 'unbuilt',
      blocks: true,
    };
    expect(goal.target).toBeUndefined();
    expect(unbuiltIn(goal.drift)).toEqual(unbuilt);
    expect(goal.drift.at(-1)).toEqual(unbuilt);
  });

  describe('with a commit-order question', () => {
    const offBuild = () =>
      reused({ source_config: { integration_id: INTEGRATION, build_on_push: false } });
    const asker = (answer: CommitOrder) => {
      const asked: string[][] = [];
      const ask = (repository: string, target: string, latest: string) => {
        asked.push([repository, target, latest]);
        return Promise.resolve(answer);
      };
      return { asked, ask };
    };

    it('asks once, on the deployed repository, about the live commit against the target', async () => {
      const { asked, ask } = asker(undefined);
      const goal = await assess(spec, reused(), new MemoryLogger(), ask);
      expect(asked).toEqual([['acme/agent', NEW_SHA, OLD_SHA]]);
      await goal.orders.learn(reused().deployment as Deployment);
      expect(asked).toHaveLength(1);
    });

    it('a live commit newer than the target supersedes it: not drift, the target is kept', async () => {
      const goal = await assess(spec, offBuild(), new MemoryLogger(), asker('newer').ask);
      expect(goal.target).toEqual({ sha: NEW_SHA, branch: 'main' });
      expect(unbuiltIn(goal.drift)).toBeUndefined();
      expect(goal.orders.of(OLD_SHA)).toBe('newer');
    });

    it('an older live commit stays drift when the deployment will not build the target', async () => {
      const goal = await assess(spec, offBuild(), new MemoryLogger(), asker('older').ask);
      expect(goal.target).toBeUndefined();
      expect(unbuiltIn(goal.drift)?.wanted).toBe(NEW_SHA);
    });

    it('asks nothing on a create: there is no other commit yet', async () => {
      const { asked, ask } = asker('newer');
      await assess(spec, { ...reused(), created: true }, new MemoryLogger(), ask);
      expect(asked).toEqual([]);
    });
  });
});
