/**
 * What the health check answered, where GitHub shows it (ACTION-CONTRACT.md behaviour 31): the
 * preview's comment and the manifest's, read back as GitHub renders them (cmark-gfm), and the
 * deployment status's description, within its limit.
 */
import { describe, expect, it } from 'vitest';
import { listedAgents } from '../../src/github/features/comment-marker.ts';
import {
  agentsCommentBody,
  commentBody,
  type CommentReport,
} from '../../src/github/features/comment.ts';
import {
  DESCRIPTION_LIMIT,
  description,
  finalStatus,
  sharedStatus,
  type ManifestOnGitHub,
} from '../../src/github/features/deployment-record.ts';
import type { HealthSeen } from '../../src/run/ports/findings.ts';
import type { RunReport } from '../../src/run/ports/progress.ts';
import { whatAReaderSees } from '../support/github-render.ts';

const ADDRESS = 'https://agent.example/ok';
const answering: HealthSeen = { address: ADDRESS, ok: true, status: 200 };
const HOSTILE = '<img src=x onerror=alert(1)> [x](https://evil.example) @octocat #12 | cell `c`';
const failing: HealthSeen = {
  address: ADDRESS,
  ok: false,
  status: 503,
  error: '503 Service Unavailable',
  excerpt: HOSTILE,
};
const noUrl: HealthSeen = {
  ok: false,
  error: 'health-check is set but the deployment has no custom_url',
};

const live: RunReport = {
  name: 'my-agent',
  stage: 'live',
  id: '3f2b8a1e-6c4d-4e5f-8a9b-0c1d2e3f4a5b',
  status: 'READY',
  created: false,
  liveCommit: 'c0ffee0123456789c0ffee0123456789c0ffee01',
  drift: [],
};
const timedOut: RunReport = {
  ...live,
  stage: 'failed',
  waitingFor: `health check: 503 Service Unavailable from ${ADDRESS}`,
  failure: `Deployment 'my-agent' is not live after 2s: health check: 503 Service Unavailable from ${ADDRESS}.`,
  health: failing,
};

/** The comment's table as a reader sees it: its value for `label`. */
function rowOf(body: string, label: string): string | undefined {
  return whatAReaderSees(body).tables[0]?.find((cells) => cells[0] === label)?.[1];
}

describe("the preview's comment", () => {
  it('has no health row when no check was asked', () => {
    expect(rowOf(commentBody(live), 'Health check')).toBeUndefined();
  });

  it('says the address checked and that it answers', () => {
    const body: CommentReport = { ...live, health: answering };
    expect(rowOf(commentBody(body), 'Health check')).toBe(`✅ ${ADDRESS}: answers 200`);
  });

  it("says what a failing answer was and how its body begins, the service's text as text", () => {
    const body = commentBody(timedOut);
    const seen = whatAReaderSees(body);

    expect(rowOf(body, 'Health check')).toBe(
      `❌ ${ADDRESS}: 503 Service Unavailable; the answer begins: ${HOSTILE}`,
    );
    expect(seen.html).not.toContain('<img');
    expect(seen.images).toEqual([]);
    expect(seen.mentions).toEqual([]);
    expect(seen.issueReferences).toEqual([]);
    expect(seen.links.map((link) => link.href)).not.toContain('https://evil.example');
  });

  it('says a check that cannot be made for want of a custom_url', () => {
    const body = commentBody({ ...timedOut, health: noUrl });
    expect(rowOf(body, 'Health check')).toBe(
      '❌ health-check is set but the deployment has no custom_url',
    );
  });

  it('hides secret values in the answer', () => {
    const body = commentBody(
      { ...timedOut, health: { ...failing, excerpt: 'key sk-secret-1 refused' } },
      (text) => text.replaceAll('sk-secret-1', '***'),
    );
    expect(body).not.toContain('sk-secret-1');
    expect(rowOf(body, 'Health check')).toContain('key *** refused');
  });
});

describe("the manifest's comment", () => {
  const manifest: ManifestOnGitHub = {
    source: 'agents.yml',
    agents: [
      { key: 'a', name: 'a', deploymentName: 'a-agent' },
      { key: 'b', name: 'b', deploymentName: 'b-agent' },
      { key: 'c', name: 'c', deploymentName: 'c-agent' },
    ],
  };
  const keep = { redact: (text: string) => text };

  it('has no health column when no agent has a check', () => {
    const body = agentsCommentBody(
      manifest,
      manifest.agents.map((agent) => ({ agent, report: live, over: true })),
      undefined,
      keep,
    );
    expect(whatAReaderSees(body).tables[0]?.[0]).not.toContain('Health check');
  });

  it("says each agent's answer in a column after Live; an agent no longer listed keeps its row", () => {
    const [a, b, c] = manifest.agents;
    const previous = '| `gone` | | | | | | [Dashboard](https://console.example/d/1) | |';
    const body = agentsCommentBody(
      manifest,
      [
        { agent: a!, report: { ...live, health: answering }, over: true },
        { agent: b!, report: timedOut, over: true },
        { agent: c!, report: live, over: true },
      ],
      previous,
      keep,
    );
    const seen = whatAReaderSees(body);
    const [head, ...rows] = seen.tables[0] ?? [];
    const column = head?.indexOf('Health check') ?? -1;

    expect(head?.[column - 1]).toBe('Live');
    expect(rows.map((row) => row.length)).toEqual([
      head?.length,
      head?.length,
      head?.length,
      head?.length,
    ]);
    expect(rows.map((row) => row[column])).toEqual([
      `✅ ${ADDRESS}: answers 200`,
      `❌ ${ADDRESS}: 503 Service Unavailable; the answer begins: ${HOSTILE}`,
      '',
      '',
    ]);
    expect(rows[3]?.[0]).toBe('gone');
    expect(seen.images).toEqual([]);
    expect(seen.mentions).toEqual([]);
    // The next run still finds every agent the comment listed, and its dashboard.
    expect([...listedAgents(body)]).toEqual([
      ['a', undefined],
      ['b', undefined],
      ['c', undefined],
      ['gone', 'https://console.example/d/1'],
    ]);
  });

  it("reads an agent's dashboard in its Links cell only, never in its health check's answer", () => {
    const [a, b] = manifest.agents;
    const spelled = { ...failing, excerpt: 'down: [Dashboard](https://evil.example/d)' };
    const earlier = agentsCommentBody(
      manifest,
      [
        { agent: a!, report: { ...timedOut, health: spelled }, over: true },
        {
          agent: b!,
          report: { ...timedOut, health: spelled, dashboardUrl: 'https://console.example/d/b' },
          over: true,
        },
      ],
      undefined,
      keep,
    );

    expect([...listedAgents(earlier)]).toEqual([
      ['a', undefined],
      ['b', 'https://console.example/d/b'],
    ]);
  });
});

describe('the deployment status', () => {
  it('is success when live, saying that it answers', () => {
    expect(finalStatus({ ...live, health: answering })).toEqual({
      state: 'success',
      text: 'my-agent is live at commit c0ffee012345; its health check answers 200',
    });
    expect(finalStatus(live).text).toBe('my-agent is live at commit c0ffee012345');
  });

  it('says a failed wait does not answer its health check, with the answer, within the limit', () => {
    const status = finalStatus(timedOut);
    const shown = description(status.text);

    expect(status.state).toBe('failure');
    expect(shown).toMatch(
      /^my-agent does not answer its health check: 503 Service Unavailable; the answer begins: /,
    );
    expect(shown.length).toBeLessThanOrEqual(DESCRIPTION_LIMIT);
  });

  it('says the check cannot be made for want of a custom_url', () => {
    expect(finalStatus({ ...timedOut, health: noUrl })).toEqual({
      state: 'failure',
      text: 'my-agent: health-check is set but the deployment has no custom_url',
    });
  });

  it('without a wait, says it does not answer yet and that the step did not wait', () => {
    const status = finalStatus({ ...timedOut, stage: 'not-live', failure: undefined });
    expect(status).toEqual({
      state: 'in_progress',
      text: 'my-agent does not answer its health check: 503 Service Unavailable; the step did not wait',
    });
    expect(description(status.text)).toBe(status.text);
  });

  it("a shared record's is success only when every agent answers, else names the one that does not", () => {
    const agent = (key: string) => ({ key, name: key, deploymentName: `${key}-agent` });
    expect(
      sharedStatus([
        { agent: agent('a'), report: { ...live, health: answering } },
        { agent: agent('b'), report: timedOut },
      ]),
    ).toEqual({
      state: 'failure',
      text: `1 of 2 agents live; b does not answer its health check: 503 Service Unavailable; the answer begins: ${HOSTILE}`,
    });
  });
});
