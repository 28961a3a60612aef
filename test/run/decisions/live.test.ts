/**
 * What live means (docs/how-it-works.md, "What green means"), as a pure verdict on one
 * deployment, and which commit a run targets.
 */
import { describe, expect, it } from 'vitest';
import { chooseTarget, liveness, type Target } from '../../../src/run/decisions/live.ts';
import type { Deployment } from '../../../src/service/schemas.ts';
import { MemoryLogger } from '../../support/clock.ts';
import { OLD_SHA as OLD, REVISION_A, REVISION_B, aDeployment } from '../../support/fixtures.ts';

const NEW = 'b'.repeat(40);

/** A deployment whose latest revision, for `commit`, is active; `fields` over it. */
function deployment(fields: Partial<Deployment>, commit: string | null = OLD): Deployment {
  return aDeployment({
    source_revision_config: { repo_ref: 'main', repo_commit_sha: commit },
    latest_revision_id: REVISION_A,
    active_revision_id: REVISION_A,
    ...fields,
  });
}

const nothingSeen = new Set<string>();
const target: Target = { sha: NEW, branch: 'main' };

describe('liveness', () => {
  it('is live when READY with its latest revision active, and no commit targeted', () => {
    expect(liveness(deployment({}), undefined, nothingSeen)).toEqual({ live: true });
  });

  it('counts a READY deployment with no revision as live only without a target', () => {
    const bare = deployment({ latest_revision_id: null, active_revision_id: null }, null);

    expect(liveness(bare, undefined, nothingSeen).live).toBe(true);
    expect(liveness(bare, target, nothingSeen)).toMatchObject({ live: false });
  });

  it('is not live before READY, and says the status', () => {
    expect(liveness(deployment({ status: 'AWAITING_DATABASE' }), undefined, nothingSeen)).toEqual({
      live: false,
      missing: 'status is AWAITING_DATABASE, not READY',
      briefly: 'AWAITING_DATABASE',
    });
  });

  it('ends the wait on AWAITING_DELETE', () => {
    expect(
      liveness(deployment({ status: 'AWAITING_DELETE' }), undefined, nothingSeen),
    ).toMatchObject({ live: false, final: true });
  });

  it('names the revision not active yet and the one that still is', () => {
    const building = deployment({ latest_revision_id: REVISION_B });

    expect(liveness(building, undefined, nothingSeen)).toEqual({
      live: false,
      missing: `the latest revision ${REVISION_B} is not active yet (revision ${REVISION_A} still is; if it stays so, its build may have failed)`,
    });
  });

  it('with a target, is live only on that commit (any case)', () => {
    expect(liveness(deployment({}, NEW.toUpperCase()), target, nothingSeen)).toEqual({
      live: true,
    });
    expect(liveness(deployment({}, OLD), target, new Set([REVISION_A]))).toEqual({
      live: false,
      missing: `the latest revision is for commit ${OLD.slice(0, 12)}, not the target ${NEW.slice(0, 12)} of branch main; which of the two is newer is not known here`,
      remedy: `A longer wait does not build commit ${NEW.slice(0, 12)} unless it is pushed to branch main: push it there, or target commit ${OLD.slice(0, 12)} if that is the newer one.`,
    });
  });

  it('takes a revision the step did not see, for another commit, as a newer push', () => {
    const newer = 'c'.repeat(40);

    expect(liveness(deployment({}, newer), target, new Set([REVISION_B]))).toEqual({
      live: true,
      supersededBy: newer,
    });
  });

  it('takes a commit said to be newer as superseding the target, even a revision it saw', () => {
    const newer = 'c'.repeat(40);
    const order = (commit: string) => (commit === newer ? 'newer' : undefined);
    expect(liveness(deployment({}, newer), target, new Set([REVISION_A]), order)).toEqual({
      live: true,
      supersededBy: newer,
    });
  });

  it('never takes a commit said to be older as a newer push, and says it is older', () => {
    const order = (commit: string) => (commit === OLD ? 'older' : undefined);
    expect(liveness(deployment({}, OLD), target, nothingSeen, order)).toEqual({
      live: false,
      missing: `the latest revision is for commit ${OLD.slice(0, 12)}, older than the target ${NEW.slice(0, 12)} of branch main`,
    });
  });
});

describe('chooseTarget', () => {
  it('targets an explicit sha always', () => {
    expect(chooseTarget({ kind: 'sha', sha: NEW }, 'other', new MemoryLogger())).toEqual({
      sha: NEW,
    });
  });

  it("targets the run's commit only when its branch is the tracked one, else says why", () => {
    const logger = new MemoryLogger();
    const auto = { kind: 'auto', branch: 'feature', sha: NEW } as const;

    expect(chooseTarget(auto, 'feature', logger)).toEqual({ sha: NEW, branch: 'feature' });
    expect(chooseTarget(auto, 'main', logger)).toBeUndefined();
    expect(logger.lines).toEqual([
      'info: no commit is targeted: the run is for branch feature, and the deployment tracks main',
    ]);
  });

  it('says why when nothing can be targeted', () => {
    const logger = new MemoryLogger();

    expect(chooseTarget({ kind: 'none', reason: 'commit: none' }, 'main', logger)).toBeUndefined();
    expect(logger.lines).toEqual(['info: no commit is targeted: commit: none']);
  });
});
