/**
 * The plan's summary (src/views/plan-summary.ts), read back as GitHub renders it (cmark-gfm,
 * then parse5): service text stays text, secrets stay names.
 */
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/run/ports/findings.ts';
import { planSummaryHtml } from '../../src/views/plan-summary.ts';
import { aDeployment } from '../support/fixtures.ts';
import { whatAReaderSees } from '../support/github-render.ts';

const ID = '0b7e1c5a-3f2d-4e6a-9b8c-1d2e3f4a5b6c';
const HOSTILE = '<script>alert(1)</script> @octocat #12 [x](https://evil.example)';

const reuse: Verdict = {
  action: 'reuse',
  deployment: aDeployment({ id: ID, status: 'READY' }),
  changes: [
    { field: 'source_revision_config.agent_config_path', wanted: 'agent-v2.json', live: HOSTILE },
    { field: 'secrets.OPENAI_API_KEY', wanted: '***', live: '***' },
  ],
  tracks: { branch: 'main', buildsOnPush: true },
};

describe('planSummaryHtml, as GitHub shows it', () => {
  it('shows the verdict, the branch, each change and its remedy, service text as text', () => {
    const seen = whatAReaderSees(planSummaryHtml({ name: 'my-agent', verdict: reuse }, (t) => t));

    expect(seen.text).toContain(
      'Plan: the deploy would reuse my-agent, and not apply 2 differences',
    );
    expect(seen.text).toContain('Tracks\tmain');
    expect(seen.text).toContain('A push there\tbuilds a new revision');
    expect(seen.text).toContain('source_revision_config.agent_config_path\tagent-v2.json');
    // As text, with the zero-width spaces that keep GitHub from linking a mention or a reference.
    expect(seen.text.replace(/\u200b/g, '')).toContain(HOSTILE);
    expect(seen.text).toContain(
      'The deploy would not apply them: the service cannot update a deployment. Change them in the service, or deploy under a new name.',
    );
    expect(seen.links).toEqual([]);
    expect(seen.mentions).toEqual([]);
    expect(seen.issueReferences).toEqual([]);
    expect(seen.rawHtmlTags).not.toContain('script');
  });

  it('counts one difference in the singular: "1 difference", "change it"', () => {
    const one: Verdict = { ...reuse, changes: reuse.changes.slice(0, 1) };
    const seen = whatAReaderSees(planSummaryHtml({ name: 'my-agent', verdict: one }, (t) => t));

    expect(seen.text).toContain(
      'Plan: the deploy would reuse my-agent, and not apply 1 difference\n',
    );
    expect(seen.text).toContain(
      'The deploy would not apply it: the service cannot update a deployment. Change it in the service, or deploy under a new name.',
    );
  });

  it('shows what a create would send, and why a plan fails', () => {
    const created = whatAReaderSees(
      planSummaryHtml(
        {
          name: 'my-agent',
          verdict: {
            action: 'create',
            changes: [],
            request: {
              name: 'my-agent',
              secrets: [{ name: 'OPENAI_API_KEY', value: '***' }],
            } as never,
          },
        },
        (t) => t,
      ),
    );
    expect(created.text).toContain('Plan: the deploy would create my-agent');
    expect(created.text).toContain('"name": "OPENAI_API_KEY"');

    const failed = whatAReaderSees(
      planSummaryHtml(
        {
          name: 'my-agent',
          verdict: {
            action: 'fail',
            changes: [],
            reason: `Deployment is AWAITING_DELETE ${HOSTILE}`,
          },
        },
        (t) => t,
      ),
    );
    expect(failed.text).toContain('Plan: the deploy would fail for my-agent');
    expect(failed.text.replace(/\u200b/g, '')).toContain(
      `Deployment is AWAITING_DELETE ${HOSTILE}`,
    );
    expect(failed.links).toEqual([]);
  });

  it("cuts the request a create would send under GitHub's limit, counting the lines left out", () => {
    const secrets = Array.from({ length: 1_500 }, (_, i) => ({
      name: `${'S'.repeat(1_000)}_${i}`,
      value: '***',
    }));
    const html = planSummaryHtml(
      {
        name: 'my-agent',
        verdict: { action: 'create', changes: [], request: { name: 'my-agent', secrets } as never },
      },
      (t) => t,
    );

    expect(Buffer.byteLength(html, 'utf8')).toBeLessThanOrEqual(1_000_000);
    const left = /… and (\d+) more lines of the request, left out/.exec(html);
    const shown = /<pre>([\s\S]*)<\/pre>/.exec(html)?.[1]?.split('\n') ?? [];
    // Every line of the request is shown or counted.
    const lines = JSON.stringify({ name: 'my-agent', secrets }, null, 2).split('\n').length;
    expect(shown.length + Number(left?.[1])).toBe(lines);
    const seen = whatAReaderSees(html);
    expect(seen.text).toContain('The request the deploy would send');
    expect(seen.text).toContain("left out to keep this summary under GitHub's limit");
  });
});
