/**
 * The plan comment's body (src/github/features/plan-comment.ts), read back as GitHub renders it:
 * its own marker, service text as text, a long list folded and cut under GitHub's limit.
 */
import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, carriesMarker } from '../../src/github/features/comment-marker.ts';
import {
  carriesPlanMarker,
  planCommentBody,
  planMarker,
  planNotMadeBody,
} from '../../src/github/features/plan-comment.ts';
import type { PlanReport } from '../../src/run/ports/progress.ts';
import { aDeployment } from '../support/fixtures.ts';
import { whatAReaderSees } from '../support/github-render.ts';

const ID = '0b7e1c5a-3f2d-4e6a-9b8c-1d2e3f4a5b6c';
const HOSTILE = '<img src=x> @octocat #12 | [x](https://evil.example)';

function reuse(changes: number, live: unknown = 'agent.json'): PlanReport {
  return {
    name: 'my-agent',
    verdict: {
      action: 'reuse',
      deployment: aDeployment({ id: ID, status: 'READY' }),
      changes: Array.from({ length: changes }, (_, i) => ({
        field: `source_config.labels.key${i}`,
        wanted: 'x'.repeat(100),
        live,
      })),
      tracks: { branch: 'main', buildsOnPush: true },
    },
  };
}

describe('the plan comment', () => {
  it("has a marker of its own: never a preview's, nor the other way round", () => {
    const body = planCommentBody(reuse(1));
    expect(body.startsWith(planMarker('my-agent'))).toBe(true);
    expect(carriesPlanMarker(body, 'my-agent')).toBe(true);
    expect(carriesMarker(body, 'my-agent')).toBe(false);
    expect(carriesPlanMarker('<!-- deploy-agent:my%2Dagent -->', 'my-agent')).toBe(false);
    expect(carriesPlanMarker(body, 'my-agent-b')).toBe(false);
  });

  it('shows service text as text: no link, mention, reference or tag', () => {
    const seen = whatAReaderSees(planCommentBody(reuse(2, HOSTILE)));
    expect(seen.text.replace(/\u200b/g, '')).toContain(HOSTILE);
    expect(seen.links).toEqual([]);
    expect(seen.mentions).toEqual([]);
    expect(seen.issueReferences).toEqual([]);
    expect(seen.images).toEqual([]);
    expect(seen.tables[0]?.slice(1).map((row) => row.length)).toEqual([3, 3]);
  });

  it('folds a long list into <details>, and cuts it with a count to stay under the limit', () => {
    const body = planCommentBody(reuse(2_000));
    expect(body.length).toBeLessThan(COMMENT_LIMIT);
    const seen = whatAReaderSees(body);
    expect(seen.rawHtmlTags).toContain('details');
    const shown = (seen.tables[0]?.length ?? 0) - 1;
    expect(shown).toBeGreaterThan(100);
    expect(seen.text).toContain(`… and ${2_000 - shown} more, left out`);
  });

  it('says when the deploy on merge would fail, service text still as text', () => {
    const wouldFail = `the deploy on merge would fail: source_revision_config.image_uri is ${HOSTILE} and the step asks for reg/agent:2`;
    const seen = whatAReaderSees(
      planCommentBody({ ...reuse(1), verdict: { ...reuse(1).verdict, wouldFail } }),
    );

    expect(seen.text.replace(/\u200b/g, '')).toContain(wouldFail);
    expect(seen.links).toEqual([]);
    expect(seen.mentions).toEqual([]);
  });

  it('counts its differences with nouns and pronouns that agree: 1 difference, change it; 2 differences, change them', () => {
    const one = whatAReaderSees(planCommentBody(reuse(1))).text;
    expect(one).toContain('the deploy would reuse it, and not apply 1 difference\n');
    expect(one).toContain(
      'The deploy would not apply this: the service cannot update a deployment. Change it in the service, or deploy under a new name.',
    );

    const two = whatAReaderSees(planCommentBody(reuse(2))).text;
    expect(two).toContain('the deploy would reuse it, and not apply 2 differences\n');
    expect(two).toContain(
      'The deploy would not apply these: the service cannot update a deployment. Change them in the service, or deploy under a new name.',
    );
  });

  it('says so when nothing differs, and why a plan fails', () => {
    expect(whatAReaderSees(planCommentBody(reuse(0))).text).toContain('nothing differs');
    const failed = whatAReaderSees(
      planCommentBody({
        name: 'my-agent',
        verdict: { action: 'fail', changes: [], reason: 'Deployment is AWAITING_DELETE' },
      }),
    );
    expect(failed.text).toContain('the deploy would fail');
    expect(failed.text).toContain('Deployment is AWAITING_DELETE');
  });

  it('says when the plan could not be made: which head, why, service text as text, and no verdict', () => {
    const failure = `GET /v2/deployments failed: 401 Unauthorized (service said: ${HOSTILE} s3cret)\ncheck the api-key input`;
    const body = planNotMadeBody(
      { name: 'my-agent', failure, head: 'abcdef0123456789abcdef0123456789abcdef01' },
      (text) => text.replaceAll('s3cret', '***'),
    );
    expect(carriesPlanMarker(body, 'my-agent')).toBe(true);
    const seen = whatAReaderSees(body);

    expect(seen.text).toContain('the plan for abcdef0 could not be made');
    expect(seen.text.replace(/\u200b/g, '')).toContain(`service said: ${HOSTILE} ***`);
    expect(seen.text).toContain('check the api-key input');
    expect(body).not.toContain('s3cret');
    expect(seen.text).not.toMatch(/would (reuse|create|fail)|differs/);
    expect(seen.links).toEqual([]);
    expect(seen.mentions).toEqual([]);
    expect(seen.issueReferences).toEqual([]);
    expect(seen.images).toEqual([]);
  });
});
