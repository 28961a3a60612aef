/**
 * The summary of a manifest's deploy (src/views/deploy-summary.ts), read back as GitHub shows
 * it: a health column only when some agent's check was made, and a failing answer below.
 */
import { describe, expect, it } from 'vitest';
import type { HealthSeen } from '../../src/run/ports/findings.ts';
import type { DeploymentPart, DeploymentSummary } from '../../src/run/ports/summaries.ts';
import { deployLayoutHtml } from '../../src/views/deploy-summary.ts';
import { aDeployment } from '../support/fixtures.ts';
import { whatAReaderSees } from '../support/github-render.ts';

const keep = (text: string) => text;

function part(
  key: string,
  liveness: DeploymentSummary['liveness'],
  failure?: string,
): DeploymentPart {
  const deployment = aDeployment({ name: `${key}-agent`, status: 'READY' });
  return {
    key,
    summary: {
      spec: { name: `${key}-agent`, source: 'codehost', dryRun: false },
      result: {
        deployment,
        created: false,
        request: { ...deployment, secrets: [] },
      },
      liveness,
      drift: [],
      ...(failure === undefined ? {} : { failure }),
    },
  };
}

const answering: HealthSeen = { address: 'https://a.example/ok', ok: true, status: 200 };
const failing: HealthSeen = {
  address: 'https://b.example/ok',
  ok: false,
  status: 503,
  error: '503 Service Unavailable',
  excerpt: '<b>down</b> @octocat [x](https://evil.example)',
};

describe('the health check in the summary of several agents', () => {
  it('has no health column when no agent has a check', () => {
    const html = deployLayoutHtml(
      {
        kind: 'deploy',
        layout: 'keyed',
        source: 'agents.yml',
        deployments: [part('a', { live: true })],
      },
      keep,
    );

    expect(whatAReaderSees(html).tables[0]?.[0]).not.toContain('Health');
  });

  it("says each agent's answer in its own column, and a failing answer's start below the table", () => {
    const html = deployLayoutHtml(
      {
        kind: 'deploy',
        layout: 'keyed',
        source: 'agents.yml',
        deployments: [
          part('a', { live: true, health: answering }),
          part(
            'b',
            { live: false, missing: 'does not answer', health: failing },
            'Deployment b-agent is not live after 1s',
          ),
          part('c', { live: true }),
        ],
      },
      keep,
    );
    const seen = whatAReaderSees(html);
    const [head, ...rows] = seen.tables[0] ?? [];
    const column = head?.indexOf('Health') ?? -1;

    expect(head?.[column - 1]).toBe('Live');
    expect(rows.map((row) => row[column])).toEqual([
      '✅ answers 200',
      '❌ 503 Service Unavailable',
      '—',
    ]);
    expect(seen.text).toContain(
      `Health check: ❌ https://b.example/ok: 503 Service Unavailable\nthe answer begins: ${failing.excerpt}`,
    );
    expect(seen.html).not.toContain('<b>down');
    expect(seen.mentions).toEqual([]);
    expect(seen.links.map((link) => link.href)).not.toContain('https://evil.example');
  });
});

describe('an agent the pull request does not change, in the summary', () => {
  it('has its row saying there is no preview, and is not counted among the deployed', () => {
    const unchanged: DeploymentPart = {
      key: 'b',
      summary: {
        spec: { name: 'b-pr-7', source: 'codehost', dryRun: false },
        skipped: 'unchanged',
      },
    };
    const html = deployLayoutHtml(
      {
        kind: 'deploy',
        layout: 'keyed',
        source: 'agents.yml',
        deployments: [part('a', { live: true, health: answering }), unchanged],
      },
      keep,
    );
    const seen = whatAReaderSees(html);
    expect(seen.text).toContain('🚀 1 agent, 1 unchanged: agents.yml');
    const [head, , row] = seen.tables[0] ?? [];
    expect(row).toHaveLength(head?.length ?? 0);
    expect(row?.slice(0, 4)).toEqual([
      'b',
      'b-pr-7',
      '—',
      'unchanged by this pull request: no preview',
    ]);
  });
});
