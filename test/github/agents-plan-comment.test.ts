/**
 * The plan comment of a manifest (src/github/features/agents-plan-comment.ts)
 * read back as GitHub renders it, and its hook (src/github/agents-plan-hooks.ts)
 * against the GitHub emulator over real HTTP: a row an agent, a marker of
 * its own from the name template or the manifest's path, service text as
 * text, the body under GitHub's limit at 50 agents, one write a run, and a
 * cancelled run leaving the comment as it was.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planHooks } from '../../src/github/plan-hooks.ts';
import {
  keyedPlanCommentBody,
  keyedPlanMarker,
  carriesKeyedPlanMarker,
  planMarker,
  type AgentPlanState,
} from '../../src/github/features/plan-comment.ts';
import type { ManifestOnGitHub } from '../../src/github/features/deployment-record.ts';
import { COMMENT_LIMIT, manifestMarker } from '../../src/github/features/comment-marker.ts';
import { systemClock, type Logger } from '../../src/common/runtime.ts';
import type { RunEvent } from '../../src/run/ports/events.ts';
import type { PlanReport } from '../../src/run/ports/progress.ts';
import { aDeployment } from '../support/fixtures.ts';
import { whatAReaderSees } from '../support/github-render.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';

const HOSTILE = '<img src=x> @octocat #12 | [x](https://evil.example)';
const SHA = 'c0ffee0123456789c0ffee0123456789c0ffee01';

function manifestOf(keys: readonly string[], nameTemplate?: string): ManifestOnGitHub {
  return {
    source: 'deploy/agents.yaml',
    ...(nameTemplate === undefined ? {} : { nameTemplate }),
    agents: keys.map((key) => ({ key, name: key, deploymentName: key })),
  };
}

/** A deployment id a name gives, always the same. */
const idOf = (name: string) =>
  `0b7e1c5a-3f2d-4e6a-9b8c-${[...name].reduce((sum, c) => sum * 31 + c.charCodeAt(0), 7) % 1e12}`.padEnd(
    36,
    '0',
  );

function reuse(name: string, changes: number, live: unknown = 'old.json'): PlanReport {
  return {
    name,
    verdict: {
      action: 'reuse',
      deployment: aDeployment({ id: idOf(name), status: 'READY' }),
      changes: Array.from({ length: changes }, (_, i) => ({
        field: `source_config.labels.key${i}`,
        wanted: 'x'.repeat(100),
        live,
      })),
      tracks: { branch: 'main', buildsOnPush: true },
    },
    dashboardUrl: 'https://console.example/deployments/{id}',
  };
}

const create = (name: string): PlanReport => ({ name, verdict: { action: 'create', changes: [] } });

const states = (reports: readonly PlanReport[]): AgentPlanState[] =>
  reports.map((report) => ({ key: report.name, deploymentName: report.name, report }));

const body = (manifest: ManifestOnGitHub, reports: readonly PlanReport[], previous?: string) =>
  keyedPlanCommentBody(manifest, states(reports), previous, { redact: (text) => text });

describe("the manifest's plan comment", () => {
  it('has a row an agent and a marker of its own, never a deploy comment’s or a single plan’s', () => {
    const manifest = manifestOf(['support', 'research']);
    const text = body(manifest, [reuse('support', 1), create('research')]);

    expect(text.startsWith(keyedPlanMarker('deploy/agents.yaml'))).toBe(true);
    expect(carriesKeyedPlanMarker(text, 'deploy/agents.yaml')).toBe(true);
    expect(text.startsWith(manifestMarker('deploy/agents.yaml'))).toBe(false);
    expect(text.startsWith(planMarker('deploy/agents.yaml'))).toBe(false);
    const seen = whatAReaderSees(text);
    expect(seen.tables[0]).toEqual([
      ['Agent', 'Deployment', 'The deploy would', 'Not applied', 'Links'],
      ['support', 'support', `♻️ reuse ${idOf('support')} (READY)`, '1', 'Dashboard'],
      ['research', 'research', '🆕 create', '', ''],
    ]);
    expect(seen.links).toEqual([
      { href: `https://console.example/deployments/${idOf('support')}`, text: 'Dashboard' },
    ]);
    expect(text).toContain('1 difference the deploy would not apply');
  });

  it('is named by the name template when there is one', () => {
    const text = body(manifestOf(['support'], '{agent}-pr-7'), [create('support')]);
    expect(carriesKeyedPlanMarker(text, '{agent}-pr-7')).toBe(true);
  });

  it('shows service text as text: no link, mention, reference or tag it did not build', () => {
    const seen = whatAReaderSees(body(manifestOf(['support']), [reuse('support', 2, HOSTILE)]));
    expect(seen.text.replace(/\u200b/g, '')).toContain(HOSTILE);
    expect(seen.links.map((link) => link.href)).toEqual([
      `https://console.example/deployments/${idOf('support')}`,
    ]);
    expect(seen.mentions).toEqual([]);
    expect(seen.issueReferences).toEqual([]);
    expect(seen.images).toEqual([]);
  });

  it('keeps a row for an agent an earlier plan listed that the manifest no longer holds', () => {
    const before = body(manifestOf(['support', 'triage']), [reuse('support', 0), create('triage')]);
    const after = body(manifestOf(['support']), [reuse('support', 0)], before);
    const rows = whatAReaderSees(after).tables[0];
    expect(rows?.map((row) => row[0])).toEqual(['Agent', 'support', 'triage']);
    expect(rows?.[2]?.[2]).toContain('no longer in the manifest');
  });

  it('never reads a difference below the table as an agent of an earlier plan', () => {
    const differs = reuse('support', 1);
    const change = { field: 'secrets', wanted: ['OPENAI_API_KEY'], live: [] };
    const before = body(manifestOf(['support']), [
      { ...differs, verdict: { ...differs.verdict, changes: [change] } },
    ]);
    expect(before).toContain('| `secrets` |');
    const after = body(manifestOf(['support']), [reuse('support', 0)], before);
    expect(whatAReaderSees(after).tables[0]?.map((row) => row[0])).toEqual(['Agent', 'support']);
  });

  it('stays under GitHub’s limit with 50 agents of 500 differences each', () => {
    const keys = Array.from({ length: 50 }, (_, i) => `agent-${i}`);
    const text = body(
      manifestOf(keys),
      keys.map((key) => reuse(key, 500)),
    );
    expect(text.length).toBeLessThan(COMMENT_LIMIT);
    expect(whatAReaderSees(text).tables[0]).toHaveLength(51);
  });
});

describe('its hook', () => {
  const TOKEN = 'ghs_workflow_token';
  let gh: GitHubEmulator;
  const warnings: string[] = [];
  const logger: Logger = {
    info: () => undefined,
    notice: () => undefined,
    warning: (message) => warnings.push(message),
    debug: () => undefined,
  };

  beforeEach(async () => {
    gh = await startGitHubEmulator();
    gh.addToken(TOKEN, GITHUB_ACTIONS_BOT);
  });
  afterEach(() => gh.close());

  async function plan(manifest: ManifestOnGitHub, planned: readonly string[]): Promise<void> {
    const hooks = planHooks({ token: TOKEN, comment: true }, manifest)(
      {
        repository: { owner: 'acme', repo: 'agent' },
        sha: SHA,
        pullRequest: 7,
        fork: false,
        runUrl: 'https://github.com/acme/agent/actions/runs/42',
        apiUrl: gh.url,
      },
      { logger, clock: systemClock, redact: (text) => text },
    );
    const pending: Promise<void>[] = [];
    const emit = (event: RunEvent) => {
      const work = hooks.view?.(event);
      if (work !== undefined) pending.push(work);
    };
    for (const key of planned) {
      const report =
        key === 'down'
          ? { name: key, failure: 'GET /v2/deployments failed: 503', head: SHA }
          : create(key);
      emit({ kind: 'planned', agent: key, report });
    }
    emit({ kind: 'agents_over' });
    await Promise.allSettled(pending);
  }

  const writes = () => gh.calls(/^(POST|PATCH) \/repos\/acme\/agent\/issues\//);

  it('writes one comment once every agent is planned, and updates it in place the next run', async () => {
    await plan(manifestOf(['support', 'research']), ['support', 'research']);
    await plan(manifestOf(['support', 'down']), ['support', 'down']);

    expect(writes()).toHaveLength(2);
    expect(gh.comments).toHaveLength(1);
    const text = gh.comments[0]?.body ?? '';
    expect(text).toContain('no plan made');
    expect(text).toContain('c0ffee0');
    expect(whatAReaderSees(text).tables[0]?.map((row) => row[0])).toEqual([
      'Agent',
      'support',
      'down',
      'research',
    ]);
    expect(warnings).toEqual([]);
  });

  it('writes nothing when an agent was never planned (the run was cancelled)', async () => {
    await plan(manifestOf(['support', 'research']), ['support']);
    expect(gh.requests).toEqual([]);
  });
});
