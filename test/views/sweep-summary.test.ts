/**
 * The sweep's summary (src/views/sweep-summary.ts), read back as GitHub shows it: the orphans
 * with where to delete each, the counts, what changed on GitHub, service text as text, and
 * never a claim that anything was deleted or stopped.
 */
import { describe, expect, it } from 'vitest';
import type { Orphan, Retired, SweepSummary } from '../../src/run/ports/summaries.ts';
import { sweepSummaryHtml } from '../../src/views/sweep-summary.ts';
import { aDeployment } from '../support/fixtures.ts';
import { whatAReaderSees } from '../support/github-render.ts';

const HOSTILE = '<script>alert(1)</script> @octocat #12 [x](https://evil.example)';
const CLAIM = /\b(?:was|were|been|is|are|now)\s+(?:deleted|removed|stopped|destroyed)\b/i;
const NOTHING: Retired = {
  inactive: 0,
  comments: 0,
  byThisRun: 0,
  already: 0,
  failed: 0,
  nothing: 0,
};

function orphan(number: number, fields: Partial<Orphan> = {}): Orphan {
  return {
    deployment: aDeployment({ name: `my-agent-pr-${number}` }),
    digits: String(number),
    number,
    state: 'closed',
    closedAt: '2026-11-02T10:00:00Z',
    ...fields,
  };
}

function sweep(fields: Partial<SweepSummary> = {}): SweepSummary {
  return {
    kind: 'sweep',
    pattern: 'my-agent-pr-{number}',
    dryRun: false,
    orphans: [],
    open: 0,
    unknown: [],
    retired: NOTHING,
    ...fields,
  };
}

describe('sweepSummaryHtml, as GitHub shows it', () => {
  it('lists each orphan with where to delete it, and what was retired on GitHub', () => {
    const linked = orphan(2, { state: 'merged', dashboardUrl: 'https://console.example/d/2' });
    const seen = whatAReaderSees(
      sweepSummaryHtml(
        sweep({
          orphans: [linked, orphan(1)],
          open: 1,
          unknown: [
            { deployment: aDeployment(), digits: '12', why: 'x' },
            { deployment: aDeployment(), digits: '4', why: 'y' },
            { deployment: aDeployment(), digits: '12', why: 'z' },
          ],
          retired: { ...NOTHING, inactive: 2, comments: 1, byThisRun: 1, already: 1 },
        }),
        (text) => text,
      ),
    );
    expect(seen.text).toContain('2 orphaned previews: my-agent-pr-{number}');
    expect(seen.text).toContain('#2 (merged)');
    expect(seen.links).toEqual([
      { text: 'open it in the dashboard', href: 'https://console.example/d/2' },
    ]);
    expect(seen.text).toContain(`by its id ${orphan(1).deployment.id}`);
    expect(seen.text).toContain('Open pull requests\t1 preview left alone');
    // Zero-width spaces keep GitHub from linking a number the names spell.
    expect(seen.text.replace(/\u200b/g, '')).toContain(
      'Unknown pull requests\t#4, #12: left alone',
    );
    expect(seen.text).toContain(
      'Changed on GitHub\t2 orphans: 1 retired by this run (2 GitHub deployments marked inactive, 1 comment rewritten); 1 already retired by an earlier run, left as it was',
    );
    expect(seen.text).not.toMatch(CLAIM);
  });

  it('says a dry run changed nothing, and when no preview is an orphan', () => {
    const dry = whatAReaderSees(
      sweepSummaryHtml(sweep({ orphans: [orphan(1)], dryRun: true }), (t) => t),
    );
    expect(dry.text).toContain('Changed on GitHub\tnothing (a dry run)');
    expect(dry.text).not.toMatch(CLAIM);
    const none = whatAReaderSees(sweepSummaryHtml(sweep(), (t) => t));
    expect(none.text).toContain('No orphaned preview: my-agent-pr-{number}');
    expect(none.text).toContain('Unknown pull requests\tnone');
    expect(none.text).toContain('Changed on GitHub\tnothing (no orphan)');
  });

  it('shows service text as text, and hides a secret value it carries', () => {
    const html = sweepSummaryHtml(
      sweep({
        orphans: [
          orphan(1, {
            deployment: aDeployment({ name: 'my-agent-pr-1', status: `${HOSTILE} s3cr3t` }),
          }),
        ],
      }),
      (text) => text.replaceAll('s3cr3t', '***'),
    );
    const seen = whatAReaderSees(html);
    expect(html).not.toContain('s3cr3t');
    expect(seen.text.replace(/\u200b/g, '')).toContain(`${HOSTILE} ***`);
    expect(seen.mentions).toEqual([]);
    // The orphan's own pull request is referenced; nothing in the service's text is.
    expect(seen.issueReferences).toEqual(['#1']);
    expect(seen.rawHtmlTags).not.toContain('script');
  });

  it("cuts the orphans under GitHub's limit, counting those left out", () => {
    const many = Array.from({ length: 6_000 }, (_, i) =>
      orphan(i + 1, {
        deployment: aDeployment({ name: `my-agent-pr-${i + 1}-${'x'.repeat(200)}` }),
      }),
    );
    const html = sweepSummaryHtml(sweep({ orphans: many }), (t) => t);
    expect(Buffer.byteLength(html, 'utf8')).toBeLessThanOrEqual(1_000_000);
    const left = /… and (\d+) more orphans, left out/.exec(html);
    const rows = (html.match(/<tr><td>/g) ?? []).length;
    expect(rows + Number(left?.[1])).toBe(many.length);
  });
});
