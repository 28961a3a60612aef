/**
 * An agent a pull request does not change (`paths`), in the manifest's comment as GitHub shows
 * it: its own row saying no preview; a preview an earlier run made keeps its row and where to
 * delete it; a no-preview row read back is never taken for a preview.
 */
import { describe, expect, it } from 'vitest';
import { goneAgents, listedAgents } from '../../src/github/features/comment-marker.ts';
import { agentsCommentBody, type AgentState } from '../../src/github/features/comment.ts';
import type { ManifestOnGitHub } from '../../src/github/features/deployment-record.ts';
import type { RunReport } from '../../src/run/ports/progress.ts';
import { whatAReaderSees } from '../support/github-render.ts';

const manifest: ManifestOnGitHub = {
  source: 'deploy/agents.yaml',
  agents: [
    { key: 'support', name: 'support', deploymentName: 'support-pr-7' },
    { key: 'research', name: 'research', deploymentName: 'research-pr-7' },
  ],
};
const [support, research] = manifest.agents as [
  ManifestOnGitHub['agents'][number],
  ManifestOnGitHub['agents'][number],
];
const live: RunReport = {
  name: 'support-pr-7',
  stage: 'live',
  id: '3f2b8a1e-6c4d-4e5f-8a9b-0c1d2e3f4a5b',
  status: 'READY',
  created: true,
  liveCommit: 'c0ffee0123456789c0ffee0123456789c0ffee01',
  drift: [],
  dashboardUrl: 'https://console.example/d/support',
};
const keep = { redact: (text: string) => text };
const states = (): AgentState[] => [
  { agent: support, report: live, over: true },
  { agent: research, over: true, skipped: true },
];

function rowOf(body: string, key: string): string[] | undefined {
  return whatAReaderSees(body).tables[0]?.find((cells) => cells[0] === key);
}

describe('an agent the pull request does not change, in the comment', () => {
  it('has its row saying there is no preview, and is not counted among the deployed', () => {
    const body = agentsCommentBody(manifest, states(), undefined, keep);
    expect(whatAReaderSees(body).text).toContain(
      'Agents of deploy/agents.yaml: 1 of 1 live, 1 unchanged',
    );
    expect(rowOf(body, 'research')?.[3]).toBe('⚪ unchanged by this pull request: no preview');
    expect(rowOf(body, 'research')?.[6]).toBe('');
  });

  it('keeps the row of a preview an earlier run made: not deployed by this run, runs until deleted', () => {
    const first = agentsCommentBody(
      manifest,
      [
        { agent: support, report: live, over: true },
        {
          agent: research,
          report: { ...live, name: 'research-pr-7', dashboardUrl: 'https://console.example/d/r' },
          over: true,
        },
      ],
      undefined,
      keep,
    );
    const body = agentsCommentBody(manifest, states(), first, keep);
    const row = rowOf(body, 'research');
    expect(row?.[3]).toBe('⚪ unchanged: not deployed by this run');
    expect(row?.[6]).toBe('runs until deleted: Dashboard');
    expect(whatAReaderSees(body).links.map((link) => link.href)).toContain(
      'https://console.example/d/r',
    );
    // A third run, still unchanged, keeps it again.
    const third = agentsCommentBody(manifest, states(), body, keep);
    expect(rowOf(third, 'research')?.[3]).toBe('⚪ unchanged: not deployed by this run');
  });

  it('reads a no-preview row back as no preview: not kept, and not a removed agent that still runs', () => {
    const body = agentsCommentBody(manifest, states(), undefined, keep);
    expect([...listedAgents(body).keys()]).toEqual(['support']);
    const smaller: ManifestOnGitHub = { ...manifest, agents: [support] };
    expect(goneAgents(smaller, body)).toEqual([]);
  });
});
