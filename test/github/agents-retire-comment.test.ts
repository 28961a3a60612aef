/**
 * The manifest's comment once its previews are retired
 * (src/github/features/retire-comment.ts), read back as GitHub
 * renders it: the manifest's marker, a row per agent with where to delete
 * its deployment, an agent that could not be looked up saying so, an agent
 * the manifest no longer holds keeping its row, service text as text, and
 * never a claim that anything was deleted or stopped.
 */
import { describe, expect, it } from 'vitest';
import { carriesManifestMarker } from '../../src/github/features/comment-marker.ts';
import type { ManifestOnGitHub } from '../../src/github/features/deployment-record.ts';
import { retiredManifestBody } from '../../src/github/features/retire-comment.ts';
import { aDeployment } from '../support/fixtures.ts';
import { whatAReaderSees } from '../support/github-render.ts';

const ID = '0b7e1c5a-3f2d-4e6a-9b8c-1d2e3f4a5b6c';
const HOSTILE = '<img src=x> @octocat | [x](https://evil.example)';
const CLAIM = /\b(?:was|were|been|is|are|now)\s+(?:deleted|removed|stopped|destroyed)\b/i;
const MANIFEST: ManifestOnGitHub = {
  source: 'deploy/agents.yaml',
  nameTemplate: '{agent}-pr-7',
  agents: [
    { key: 'support', name: 'support', deploymentName: 'support-pr-7' },
    { key: 'research', name: 'research', deploymentName: 'research-pr-7' },
    { key: 'triage', name: 'triage', deploymentName: 'triage-pr-7' },
  ],
};
const PREVIOUS = [
  '<!-- deploy-agent-agents:x -->',
  '| `docs` | `docs-pr-7` | `READY` | 🟢 live |  | 0 | [Dashboard](https://console.example/d/9) |  |',
].join('\n');

describe("the manifest's retired comment", () => {
  it('a row per agent, the failed and the gone ones saying so, service text as text', () => {
    const body = retiredManifestBody(
      {
        manifest: MANIFEST,
        reports: [
          {
            key: 'support',
            report: {
              name: 'support-pr-7',
              deployments: [
                {
                  deployment: aDeployment({ id: ID, status: HOSTILE }),
                  dashboardUrl: `https://console.example/d/${ID}`,
                },
              ],
            },
          },
          { key: 'research', report: { name: 'research-pr-7', deployments: [] } },
        ],
        pullRequestState: 'closed',
        runUrl: 'https://github.com/acme/agent/actions/runs/1',
      },
      PREVIOUS,
      (text) => text,
    );

    expect(carriesManifestMarker(body, '{agent}-pr-7')).toBe(true);
    const seen = whatAReaderSees(body);
    expect(seen.text).toContain('This pull request was closed, so its previews are retired');
    expect(seen.tables[0]).toEqual([
      ['Agent', 'Deployment', 'Id in the service', 'Status', 'Delete it'],
      ['support', 'support-pr-7', ID, HOSTILE, 'Dashboard'],
      ['research', 'research-pr-7', '', '', 'none in the service: nothing to delete'],
      [
        'triage',
        'triage-pr-7',
        '',
        '',
        'not looked up (the service did not answer): re-run the job',
      ],
      ['docs', '', '', '', 'no longer deployed by this workflow; runs until deleted: Dashboard'],
    ]);
    expect(seen.links).not.toContain('https://evil.example');
    expect(seen.text).not.toMatch(CLAIM);
  });
});
