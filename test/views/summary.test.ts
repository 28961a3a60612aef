/**
 * The one renderer of a run's summary (src/views/summary.ts): each kind of `RunSummary` to its
 * view, with the adapter's redaction, the same HTML as that view writes.
 */
import { describe, expect, it } from 'vitest';
import { flatSummary, type RunSummary } from '../../src/run/ports/summaries.ts';
import { summaryHtml } from '../../src/views/deploy-summary.ts';
import { planSummaryHtml } from '../../src/views/plan-summary.ts';
import { retireSummaryHtml } from '../../src/views/retire-summary.ts';
import { renderSummary } from '../../src/views/summary.ts';
import { sweepSummaryHtml } from '../../src/views/sweep-summary.ts';
import { aDeployment } from '../support/fixtures.ts';

const SECRET = 's3cr3t-value';
const redact = (text: string) => text.replaceAll(SECRET, '***');
const deployment = aDeployment({ name: `agent-${SECRET}`, status: `READY ${SECRET}` });

describe('renderSummary', () => {
  it('renders each kind with its view, secret values removed by the given redact', () => {
    const plan = { name: `agent-${SECRET}`, source: 'codehost' as const, dryRun: false };
    const summaries: [RunSummary, string][] = [
      [
        flatSummary({ spec: plan, deployment, failure: `failed: ${SECRET}` }),
        summaryHtml({ spec: plan, deployment, failure: `failed: ${SECRET}`, redact }),
      ],
      [
        {
          kind: 'plan',
          layout: 'flat',
          agents: [
            {
              key: plan.name,
              name: plan.name,
              summary: { name: plan.name, verdict: { action: 'reuse', deployment, changes: [] } },
            },
          ],
        },
        planSummaryHtml(
          { name: plan.name, verdict: { action: 'reuse', deployment, changes: [] } },
          redact,
        ),
      ],
      [
        {
          kind: 'retire',
          previews: [{ report: { name: plan.name, deployments: [{ deployment }] } }],
        },
        retireSummaryHtml({ name: plan.name, deployments: [{ deployment }] }, undefined, redact),
      ],
    ];
    const sweep: RunSummary = {
      kind: 'sweep',
      pattern: `agent-{number}-${SECRET}`,
      dryRun: true,
      orphans: [{ deployment, digits: '1', number: 1, state: 'closed' }],
      open: 0,
      unknown: [],
      retired: { inactive: 0, comments: 0, byThisRun: 0, already: 0, failed: 0, nothing: 0 },
    };
    summaries.push([sweep, sweepSummaryHtml(sweep, redact)]);
    for (const [summary, html] of summaries) {
      const rendered = renderSummary(summary, redact);
      expect(rendered, summary.kind).toBe(html);
      expect(rendered, summary.kind).not.toContain(SECRET);
      expect(rendered, summary.kind).toContain('***');
    }
  });

  it('is data until rendered: the value carries no markup and survives JSON', () => {
    const summary: RunSummary = {
      kind: 'retire',
      previews: [{ report: { name: '<b>agent</b>', deployments: [] } }],
    };
    const copy = JSON.parse(JSON.stringify(summary)) as RunSummary;
    expect(copy).toEqual(summary);
    expect(renderSummary(copy, (text) => text)).toContain('&lt;b&gt;agent&lt;/b&gt;');
  });
});
