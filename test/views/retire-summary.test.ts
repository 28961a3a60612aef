/**
 * The retire's summary (src/views/retire-summary.ts), read back as GitHub shows it: where to
 * delete the deployment, what was done on GitHub, service text as text, and never a claim
 * that anything was deleted or stopped.
 */
import { describe, expect, it } from 'vitest';
import type { Retirement } from '../../src/run/ports/progress.ts';
import { retireSummaryHtml } from '../../src/views/retire-summary.ts';
import { aDeployment } from '../support/fixtures.ts';
import { whatAReaderSees } from '../support/github-render.ts';

const ID = '0b7e1c5a-3f2d-4e6a-9b8c-1d2e3f4a5b6c';
const HOSTILE = '<script>alert(1)</script> @octocat #12 [x](https://evil.example)';
const DASHBOARD = `https://console.example/deployments/${ID}`;
const CLAIM = /\b(?:was|were|been|is|are|now)\s+(?:deleted|removed|stopped|destroyed)\b/i;
const DONE: Retirement = {
  environment: 'preview-pr-7',
  found: 3,
  inactive: 2,
  more: false,
  comment: 'rewritten',
};

describe('retireSummaryHtml, as GitHub shows it', () => {
  it('says the deployment still exists, links where to delete it, and what GitHub got', () => {
    const seen = whatAReaderSees(
      retireSummaryHtml(
        {
          name: 'my-agent-pr-7',
          deployments: [
            { deployment: aDeployment({ id: ID, status: HOSTILE }), dashboardUrl: DASHBOARD },
          ],
        },
        DONE,
        (text) => text,
      ),
    );
    expect(seen.text).toContain('Preview retired: my-agent-pr-7');
    expect(seen.text).toContain('Its deployment still exists in the service');
    expect(seen.text).toContain(`Deployment\t${ID}`);
    expect(seen.text.replace(/\u200b/g, '')).toContain(HOSTILE);
    expect(seen.links).toEqual([{ text: 'open it in the dashboard', href: DASHBOARD }]);
    expect(seen.text).toContain('GitHub deployments of preview-pr-7\t2 of 3 marked inactive');
    expect(seen.text).toContain('Pull request comment\trewritten');
    expect(seen.mentions).toEqual([]);
    expect(seen.issueReferences).toEqual([]);
    expect(seen.rawHtmlTags).not.toContain('script');
    expect(seen.text).not.toMatch(CLAIM);
  });

  it('says nothing is left to delete when none has the name, and more past the page cap', () => {
    const seen = whatAReaderSees(
      retireSummaryHtml(
        { name: 'my-agent-pr-7', deployments: [] },
        { ...DONE, found: 1000, inactive: 1000, more: true, comment: 'none' },
        (text) => text,
      ),
    );
    expect(seen.text).toContain('nothing is left to delete there');
    expect(seen.text).toContain('1000 of 1000+ marked inactive');
    expect(seen.text).toContain('Pull request comment\tnone to rewrite');
  });

  it('says what a second retire found already done, and changed nothing', () => {
    const seen = whatAReaderSees(
      retireSummaryHtml(
        { name: 'my-agent-pr-7', deployments: [] },
        { ...DONE, inactive: 0, alreadyInactive: 3, comment: 'unchanged' },
        (text) => text,
      ),
    );
    expect(seen.text).toContain('0 of 3 marked inactive (3 already were)');
    expect(seen.text).toContain('Pull request comment\talready says the preview is retired');
  });

  it('hides a secret value the name or status carries', () => {
    const html = retireSummaryHtml(
      {
        name: 'agent-s3cr3t-value',
        deployments: [{ deployment: aDeployment({ id: ID, status: 's3cr3t-value' }) }],
      },
      undefined,
      (text) => text.replaceAll('s3cr3t-value', '***'),
    );
    expect(html).not.toContain('s3cr3t-value');
    expect(whatAReaderSees(html).text).toContain('nothing was changed');
  });
});
