/**
 * A retired preview's comment (src/github/features/retire-comment.ts), read back as GitHub renders it:
 * the preview's own marker, service text as text, where to delete the deployment, and never a
 * claim that it was deleted or stopped.
 */
import { describe, expect, it } from 'vitest';
import { carriesMarker } from '../../src/github/features/comment-marker.ts';
import { carriesPlanMarker } from '../../src/github/features/plan-comment.ts';
import {
  retiredCommentBody,
  type RetiredComment,
} from '../../src/github/features/retire-comment.ts';
import { aDeployment } from '../support/fixtures.ts';
import { whatAReaderSees } from '../support/github-render.ts';

const ID = '0b7e1c5a-3f2d-4e6a-9b8c-1d2e3f4a5b6c';
const HOSTILE = '<img src=x> @octocat #12 | [x](https://evil.example)';
const DASHBOARD = `https://console.example/deployments/${ID}`;
const RUN = 'https://github.com/acme/agent/actions/runs/1';
const CLAIM = /\b(?:was|were|been|is|are|now)\s+(?:deleted|removed|stopped|destroyed)\b/i;

function retired(overrides: Partial<RetiredComment> = {}): RetiredComment {
  return {
    name: 'my-agent-pr-7',
    deployments: [
      { deployment: aDeployment({ id: ID, status: 'DEPLOYED' }), dashboardUrl: DASHBOARD },
    ],
    pullRequestState: 'merged',
    runUrl: RUN,
    ...overrides,
  };
}

describe('the retired comment', () => {
  it("keeps the preview's marker, so a reopened pull request's deploy finds it again", () => {
    const body = retiredCommentBody(retired());
    expect(carriesMarker(body, 'my-agent-pr-7')).toBe(true);
    expect(carriesPlanMarker(body, 'my-agent-pr-7')).toBe(false);
    expect(carriesMarker(body, 'my-agent-pr-70')).toBe(false);
  });

  it('says the preview is retired and where to delete the deployment, which still exists', () => {
    const seen = whatAReaderSees(retiredCommentBody(retired()));
    expect(seen.text).toContain('This pull request was merged, so its preview is retired');
    expect(seen.text).toContain('Its deployment still exists in the service');
    expect(seen.text).toContain(ID);
    expect(seen.text).toContain('DEPLOYED');
    expect(seen.links).toEqual([
      { text: 'in the dashboard', href: DASHBOARD },
      { text: 'Workflow run', href: RUN },
    ]);
    expect(seen.text).not.toMatch(CLAIM);
    expect(seen.text.split('\n')[0]).toBe('⚫ my-agent-pr-7: preview retired');
    expect(seen.text).not.toContain('🟢');
  });

  it('names the id to delete by without a dashboard, and a closed pull request as closed', () => {
    const withoutDashboard = retired({
      pullRequestState: 'closed',
      deployments: [{ deployment: aDeployment({ id: ID, status: 'DEPLOYED' }) }],
    });
    const seen = whatAReaderSees(retiredCommentBody(withoutDashboard));
    expect(seen.text).toContain('This pull request was closed, so its preview is retired');
    expect(seen.text).toContain(`in the service, by its id ${ID}`);
    expect(seen.links.map((link) => link.text)).toEqual(['Workflow run']);
  });

  it('says nothing is left to delete when no deployment has the name', () => {
    const missing = retired({ deployments: [] });
    const seen = whatAReaderSees(retiredCommentBody(missing));
    expect(seen.text).toContain('nothing is left to delete there');
    expect(seen.tables).toEqual([]);
  });

  it('says a deletion was asked for when the service is deleting it, and claims none', () => {
    const seen = whatAReaderSees(
      retiredCommentBody(
        retired({
          deployments: [{ deployment: aDeployment({ id: ID, status: 'AWAITING_DELETE' }) }],
        }),
      ),
    );
    expect(seen.text).toContain('a deletion of its deployment was asked for');
    expect(seen.text).not.toMatch(CLAIM);
  });

  it('shows service text as text: no link, mention, reference or tag it did not build', () => {
    const seen = whatAReaderSees(
      retiredCommentBody(
        retired({
          name: `x --> ${HOSTILE}`,
          deployments: [
            { deployment: aDeployment({ id: ID, status: HOSTILE }), dashboardUrl: DASHBOARD },
          ],
        }),
      ),
    );
    expect(seen.text.replace(/\u200b/g, '')).toContain(HOSTILE);
    expect(seen.links.map((link) => link.href)).toEqual([DASHBOARD, RUN]);
    expect(seen.mentions).toEqual([]);
    expect(seen.issueReferences).toEqual([]);
    expect(seen.images).toEqual([]);
    expect(seen.tables[0]?.map((row) => row.length)).toEqual([2, 2, 2, 2]);
  });

  it('keeps the body of one deployment as it was, so comments already retired are not rewritten', () => {
    expect(retiredCommentBody(retired())).toBe(
      [
        '<!-- deploy-agent:my%2Dagent%2Dpr%2D7 -->',
        '### ⚫ `my-agent-pr-7`: preview retired',
        '',
        'This pull request was merged, so its preview is retired: this comment no longer says it is live.',
        '',
        "**Its deployment still exists in the service**, and keeps running (and costing) until someone deletes it there. This action cannot delete it: the service's interface has no delete.",
        '',
        '| | |',
        '| --- | --- |',
        `| Deployment | \`${ID}\` |`,
        '| Status | `DEPLOYED` |',
        `| Delete it | [in the dashboard](${DASHBOARD}) |`,
        '',
        `[Workflow run](${RUN})`,
        '',
      ].join('\n'),
    );
  });

  it('names each of several deployments of the name, a row each in id order, with where to delete it', () => {
    const second = 'ffffffff-3f2d-4e6a-9b8c-1d2e3f4a5b6c';
    const deployments = [
      { deployment: aDeployment({ id: second, status: 'AWAITING_DELETE' }) },
      { deployment: aDeployment({ id: ID, status: HOSTILE }), dashboardUrl: DASHBOARD },
    ];
    const body = retiredCommentBody(retired({ deployments }));
    const seen = whatAReaderSees(body);

    expect(carriesMarker(body, 'my-agent-pr-7')).toBe(true);
    expect(seen.text).toContain(
      'The service holds 2 deployments of this name, and they still exist there',
    );
    expect(seen.text).not.toMatch(CLAIM);
    expect(seen.tables).toHaveLength(1);
    const rows = seen.tables[0]?.map((row) => row.map((cell) => cell.replace(/\u200b/g, '')));
    expect(rows).toEqual([
      ['Deployment', 'Status', 'Delete it'],
      [ID, HOSTILE, 'in the dashboard'],
      [second, 'AWAITING_DELETE', `in the service, by its id ${second}`],
    ]);
    expect(seen.links.map((link) => link.href)).toEqual([DASHBOARD, RUN]);
    expect(seen.mentions).toEqual([]);
    expect(seen.issueReferences).toEqual([]);
    // The same deployments listed the other way round: the same body.
    expect(retiredCommentBody(retired({ deployments: [...deployments].reverse() }))).toBe(body);

    const deleting = whatAReaderSees(
      retiredCommentBody(
        retired({
          deployments: deployments.map(({ deployment }) => ({
            deployment: { ...deployment, status: 'AWAITING_DELETE' },
          })),
        }),
      ),
    );
    expect(deleting.text).toContain('For each, a deletion was asked for');
    expect(deleting.text).not.toMatch(CLAIM);
  });
});
