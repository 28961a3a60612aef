/**
 * A manifest's deploy on GitHub, against the GitHub emulator over real HTTP
 * with the real Octokit: the hooks' view driven with the events runDeploy
 * emits (each agent's `deployed`, `finished` and `agent_over`, then the
 * manifest's `agents_over`): one record per environment, one comment for the
 * manifest with a row per agent and two writes at most, its marker kept as
 * agents come and go, the records' ids in `deployments`, the budget.
 */
import { deploymentEntry, keyedOutputs } from '../../src/run/decisions/report.ts';
import * as prettier from 'prettier';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deployHooks } from '../../src/github/deploy-hooks.ts';
import type { ManifestOnGitHub } from '../../src/github/features/deployment-record.ts';
import { agentsBudgetMs } from '../../src/github/client/budget.ts';
import type { GitHubRunContext } from '../../src/github/features/context.ts';
import type { GitHubHooks, HookDependencies } from '../../src/github/hooks.ts';
import type { GitHubSettings } from '../../src/github/inputs.ts';
import { StepOutputs } from '../../src/github/step-outputs.ts';
import { systemClock, type Logger } from '../../src/common/runtime.ts';
import type { RunEvent } from '../../src/run/ports/events.ts';
import type { RunReport } from '../../src/run/ports/progress.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';

const TOKEN = 'ghs_workflow_token';
const SHA = 'c0ffee0123456789c0ffee0123456789c0ffee01';

let gh: GitHubEmulator;
let warnings: string[];

beforeEach(async () => {
  gh = await startGitHubEmulator();
  gh.addToken(TOKEN, GITHUB_ACTIONS_BOT);
  warnings = [];
});
afterEach(() => gh.close());

const logger: Logger = {
  info: () => undefined,
  notice: () => undefined,
  warning: (message) => warnings.push(message),
  debug: () => undefined,
};

function context(): GitHubRunContext {
  return {
    repository: { owner: 'acme', repo: 'agent' },
    sha: SHA,
    pullRequest: 7,
    fork: false,
    runUrl: 'https://github.com/acme/agent/actions/runs/42',
    apiUrl: gh.url,
  };
}

function manifestOf(keys: readonly string[], nameTemplate = '{agent}-pr-7'): ManifestOnGitHub {
  return {
    source: 'deploy/agents.yaml',
    nameTemplate,
    agents: keys.map((key) => ({
      key,
      name: key === 'research' ? 'research-assistant' : key,
      deploymentName: `${key === 'research' ? 'research-assistant' : key}-pr-7`,
    })),
  };
}

function reportOf(manifest: ManifestOnGitHub, key: string, stage: RunReport['stage']): RunReport {
  const agent = manifest.agents.find((a) => a.key === key)!;
  return {
    name: agent.deploymentName,
    stage,
    id: `d-${key}`,
    status: stage === 'live' ? 'READY' : 'DEPLOYING',
    created: true,
    targetCommit: SHA,
    ...(stage === 'live' ? { liveCommit: SHA } : {}),
    drift: [],
    dashboardUrl: `https://console.example/deployments/d-${key}`,
  };
}

interface Made {
  hooks: GitHubHooks;
  refreshed: number;
}

function make(
  manifest: ManifestOnGitHub,
  settings: Partial<GitHubSettings> = {},
  dependencies: Partial<HookDependencies> = {},
): Made {
  const made: Made = { hooks: { api: undefined }, refreshed: 0 };
  made.hooks = deployHooks({ token: TOKEN, environment: '', comment: true, ...settings }, manifest)(
    context(),
    {
      logger,
      clock: systemClock,
      redact: (text) => text,
      refreshOutputs: () => (made.refreshed += 1),
      ...dependencies,
    },
  );
  return made;
}

/** The events of a run as runDeploy emits them: `ends` each agent's last stage, or its failure. */
async function run(
  { hooks }: Made,
  manifest: ManifestOnGitHub,
  ends: Readonly<Record<string, RunReport['stage'] | { failure: string }>>,
): Promise<void> {
  const view = hooks.view!;
  const pending: Promise<void>[] = [];
  const emit = (event: RunEvent) => {
    const work = view(event);
    if (work !== undefined) pending.push(work);
  };
  // An agent that fails before its deployment is found or created is over first.
  for (const { key } of manifest.agents) {
    const end = ends[key] ?? 'live';
    if (typeof end === 'object') emit({ kind: 'agent_over', agent: key, failure: end.failure });
    else emit({ kind: 'deployed', agent: key, report: reportOf(manifest, key, 'deploying') });
  }
  for (const { key } of manifest.agents) {
    const end = ends[key] ?? 'live';
    if (typeof end === 'object') continue;
    emit({ kind: 'finished', agent: key, report: reportOf(manifest, key, end) });
    emit({ kind: 'agent_over', agent: key });
  }
  emit({ kind: 'agents_over' });
  await Promise.allSettled(pending);
}

const commentWrites = () => gh.calls(/^(POST|PATCH) \/repos\/acme\/agent\/issues\//);

interface Node {
  type: string;
  value?: string;
  url?: string;
  children?: Node[];
}

/** The comment's table rows as a reader sees them: each cell's text, links as their address. */
async function tableRows(markdown: string): Promise<string[][]> {
  const debug = (
    prettier as unknown as {
      __debug: { parse: (text: string, options: object) => Promise<{ ast: Node }> };
    }
  ).__debug;
  const { ast } = await debug.parse(markdown, { parser: 'markdown' });
  const text = (node: Node): string =>
    node.type === 'link'
      ? `${(node.children ?? []).map(text).join('')}<${node.url}>`
      : (node.value ?? (node.children ?? []).map(text).join(''));
  const rows: string[][] = [];
  const walk = (node: Node) => {
    if (node.type === 'tableRow') rows.push((node.children ?? []).map(text));
    else node.children?.forEach(walk);
  };
  walk(ast);
  return rows.slice(1);
}

describe('records', () => {
  it('one record per agent when the environment holds {agent}, each as a single deploy’s', async () => {
    const manifest = manifestOf(['support', 'research']);
    const made = make(manifest, { environment: 'preview-pr-7-{agent}', comment: false });
    await run(made, manifest, {});
    expect(gh.deployments.map((d) => d.environment)).toEqual([
      'preview-pr-7-support',
      'preview-pr-7-research-assistant',
    ]);
    expect(gh.deployments[0]!.payload).toEqual({ id: 'd-support', name: 'support-pr-7' });
    for (const record of gh.deployments) {
      expect(record.statuses.map((s) => s.state)).toEqual(['in_progress', 'success']);
    }
    expect(made.refreshed).toBeGreaterThan(0);
    const entries = new Map([
      ['support', deploymentEntry('support-pr-7')],
      ['research', deploymentEntry('research-assistant-pr-7')],
    ]);
    const { deployments } = keyedOutputs(entries);
    const shown = made.hooks.outputs!({ deployments, live: 'true' }, entries);
    expect(JSON.parse(shown.deployments!)).toEqual({
      support: { ...entries.get('support'), 'github-deployment-id': String(gh.deployments[0]!.id) },
      research: {
        ...entries.get('research'),
        'github-deployment-id': String(gh.deployments[1]!.id),
      },
    });
    expect(warnings).toEqual([]);
  });

  it('one record for the manifest in `production`: every agent in its payload, success only when all are live', async () => {
    const manifest = manifestOf(['support', 'research']);
    await run(make(manifest, { environment: 'production', comment: false }), manifest, {});
    expect(gh.deployments).toHaveLength(1);
    const record = gh.deployments[0]!;
    expect(record.payload).toEqual({
      agents: [
        { key: 'support', name: 'support-pr-7', id: 'd-support' },
        { key: 'research', name: 'research-assistant-pr-7', id: 'd-research' },
      ],
    });
    expect(record.statuses.map((s) => s.state)).toEqual(['in_progress', 'success']);
    expect(record.statuses[1]?.auto_inactive).toBe(true);
  });

  it('the manifest’s record fails when one agent failed, even before it was deployed', async () => {
    const manifest = manifestOf(['support', 'research']);
    const failure = { failure: 'the service said no' };
    await run(make(manifest, { environment: 'production', comment: false }), manifest, {
      research: failure,
    });
    const last = gh.deployments[0]!.statuses.at(-1)!;
    expect(last.state).toBe('failure');
    expect(last.description).toContain('1 of 2 agents live');
    expect(last.description).toContain('research');
  });

  it('a cancelled run ends the manifest’s record with error, and updates the comment it wrote', async () => {
    const manifest = manifestOf(['support', 'research']);
    await run(make(manifest, { environment: 'production' }), manifest, {
      support: 'cancelled',
      research: 'cancelled',
    });
    expect(gh.deployments[0]!.statuses.map((s) => s.state)).toEqual(['in_progress', 'error']);
    expect(commentWrites().map((w) => w.method)).toEqual(['POST', 'PATCH']);
    const rows = await tableRows(gh.comments[0]!.body);
    expect(rows.map((row) => row[3])).toEqual(['⚪ cancelled', '⚪ cancelled']);
  });
});

describe('the manifest’s comment', () => {
  it('one comment, a row per agent, two writes at most for the whole step', async () => {
    const manifest = manifestOf(['support', 'research', 'billing']);
    await run(make(manifest), manifest, { billing: { failure: 'timed out | <b>x</b> @octocat' } });
    expect(commentWrites().map((w) => w.method)).toEqual(['POST', 'PATCH']);
    expect(gh.comments).toHaveLength(1);
    const rows = await tableRows(gh.comments[0]!.body);
    expect(rows.map((row) => row[0])).toEqual(['support', 'research', 'billing']);
    expect(rows[0]).toContain('🟢 live');
    expect(rows[0]!.join(' ')).toContain('<https://console.example/deployments/d-support>');
    expect(rows[2]).toContain('🔴 failed');
    // The service's text reads as it is, as text: no HTML, no cell broken, no mention.
    expect(rows[2]!.at(-1)).toContain('timed out | <b>x</b> @');
    expect(rows[2]!.at(-1)).not.toContain('@octocat');
  });

  it('keeps its marker as agents come and go; a removed agent’s row says it runs until deleted, and where', async () => {
    const first = manifestOf(['support', 'research']);
    await run(make(first), first, {});
    const second = manifestOf(['support', 'billing']);
    await run(make(second), second, {});
    expect(gh.comments).toHaveLength(1);
    const rows = await tableRows(gh.comments[0]!.body);
    expect(rows.map((row) => row[0])).toEqual(['support', 'billing', 'research']);
    const gone = rows[2]!.join(' ');
    expect(gone).toContain('no longer deployed by this workflow');
    expect(gone).toContain('runs until deleted');
    expect(gone).toContain('<https://console.example/deployments/d-research>');
    // A third run still lists it, its dashboard kept.
    await run(make(second), second, {});
    const again = await tableRows(gh.comments[0]!.body);
    expect(again[2]!.join(' ')).toContain('<https://console.example/deployments/d-research>');
  });

  it('another name template keeps a comment of its own', async () => {
    const manifest = manifestOf(['support']);
    await run(make(manifest), manifest, {});
    const other = manifestOf(['support'], '{agent}-staging');
    await run(make(other), other, {});
    expect(gh.comments).toHaveLength(2);
  });
});

describe('budget', () => {
  it('grows a second per agent beyond the first, at most a minute; a test’s shorter budget stays', () => {
    expect(agentsBudgetMs(1)).toBe(15_000);
    expect(agentsBudgetMs(4, 15_000)).toBe(18_000);
    expect(agentsBudgetMs(50)).toBe(60_000);
    expect(agentsBudgetMs(50, 500)).toBe(500);
  });

  it('is the budget of the step’s GitHub API', async () => {
    const manifest = manifestOf(['a', 'b', 'c']);
    const made = make(manifest, { environment: 'production' }, { budgetMs: 15_000 });
    await run(made, manifest, {});
    expect(made.hooks.api?.()?.budgetMs).toBe(17_000);
  });
});

describe('the step’s outputs', () => {
  it('applies what the hooks add to every set, and sets again only what changed', () => {
    const set: [string, string][] = [];
    const outputs = new StepOutputs((name, value) => set.push([name, value]));
    let id = '';
    outputs.additions = (o) => ({
      ...o,
      ...(o.deployments ? { deployments: `${o.deployments}${id}` } : {}),
    });
    void outputs.view({ kind: 'outputs', outputs: { deployments: 'x', live: 'false' } });
    id = '#1';
    outputs.refresh();
    void outputs.view({ kind: 'outputs', outputs: { deployments: 'y' } });
    void outputs.view({ kind: 'outputs', agent: 'a', outputs: { status: 'READY' } });
    expect(set).toEqual([
      ['deployments', 'x'],
      ['live', 'false'],
      ['deployments', 'x#1'],
      ['deployments', 'y#1'],
    ]);
  });
});
