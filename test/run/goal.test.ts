/**
 * What the step asks of the deployment `deploy` found or created (assess):
 * the revisions it saw, the drift, and a target the deployment will not build.
 */
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/inputs/plan.ts';
import { buildCreateRequest, type DeployResult } from '../../src/run/deploy.ts';
import { assess } from '../../src/run/goal.ts';
import type { Deployment } from '../../src/service/schemas.ts';
import { MemoryLogger } from '../support/clock.ts';
import { INTEGRATION, OLD_SHA, REVISION_A, REVISION_B, aDeployment } from '../support/fixtures.ts';
import { planReader } from '../support/plan-inputs.ts';

const NEW_SHA = 'b'.repeat(40);
const { plan: planOf } = planReader({
  workspace: process.cwd(),
  head: { kind: 'branch', branch: 'main', sha: NEW_SHA, pullRequest: false },
});

const plan: Plan = planOf({ name: 'app', 'integration-id': INTEGRATION, repository: 'acme/agent' });
const request = buildCreateRequest(plan, {
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
  it('on a create: no revision seen, no drift, the run head targeted', () => {
    const created = { ...reused(), created: true };
    expect(assess(plan, created, new MemoryLogger())).toEqual({
      target: { sha: NEW_SHA, branch: 'main' },
      seenRevisions: new Set(),
      drift: [],
    });
  });

  it('on a reuse: the revisions it saw are not a newer push', () => {
    const goal = assess(plan, reused(), new MemoryLogger());
    expect(goal.seenRevisions).toEqual(new Set([REVISION_A, REVISION_B]));
    expect(goal.target).toEqual({ sha: NEW_SHA, branch: 'main' });
    expect(goal.unbuilt).toBeUndefined();
  });

  it('with build_on_push off and another commit live: the commit is drift, not a target', () => {
    const goal = assess(
      plan,
      reused({ source_config: { integration_id: INTEGRATION, build_on_push: false } }),
      new MemoryLogger(),
    );
    const unbuilt = {
      field: 'source_revision_config.repo_commit_sha',
      wanted: NEW_SHA,
      live: OLD_SHA,
    };
    expect(goal.target).toBeUndefined();
    expect(goal.unbuilt).toEqual(unbuilt);
    expect(goal.drift.at(-1)).toBe(goal.unbuilt);
  });
});
