/**
 * Live decided in one place (decideLive), and drift that says by value what
 * it is: a copy of an entry blocks, and reads, as the entry itself does.
 */
import { describe, expect, it } from 'vitest';
import type { DeploySpec } from '../../../src/inputs/deploy-spec.ts';
import type { Drift } from '../../../src/run/ports/findings.ts';
import { shownDrift } from '../../../src/run/ports/findings.ts';
import { buildCreateRequest, type DeployResult } from '../../../src/run/decisions/deploy.ts';
import {
  assess,
  blockedIn,
  blockedRemedy,
  blockedText,
  decideLive,
  ONLY_LIVE,
} from '../../../src/run/decisions/goal.ts';
import type { Deployment } from '../../../src/service/schemas.ts';
import { MemoryLogger } from '../../support/clock.ts';
import { INTEGRATION, OLD_SHA, REVISION_A, aDeployment } from '../../support/fixtures.ts';
import { planReader } from '../../support/plan-inputs.ts';

const NEW_SHA = 'b'.repeat(40);
const OTHER_INTEGRATION = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const { plan: planOf } = planReader({
  workspace: process.cwd(),
  head: { kind: 'branch', branch: 'main', sha: NEW_SHA, pullRequest: false },
});

/** A step that asks for main of acme/agent, with its own agent config, at the run's head on main. */
const spec: DeploySpec = planOf({
  name: 'app',
  'integration-id': INTEGRATION,
  repository: 'acme/agent',
  'agent-config-path': 'agent.yaml',
});
const request = buildCreateRequest(spec, {
  host_integration_id: INTEGRATION,
  id: 1,
  owner: 'acme',
  name: 'agent',
  url: 'https://github.com/acme/agent',
  default_branch: 'main',
});

/** A reused deployment of acme/agent on main at OLD_SHA, revision A live; `fields` over it. */
const reused = (fields: Partial<Deployment> = {}): DeployResult => ({
  deployment: aDeployment({
    source_config: {
      integration_id: INTEGRATION,
      repo_url: 'https://github.com/acme/agent',
      build_on_push: true,
    },
    source_revision_config: {
      repo_ref: 'main',
      repo_commit_sha: OLD_SHA,
      agent_config_path: 'agent.yaml',
    },
    latest_revision_id: REVISION_A,
    active_revision_id: REVISION_A,
    ...fields,
  }),
  created: false,
  request,
});

/** Off: the run's head is a commit the deployment will not build. */
const offBuild = {
  source_config: {
    integration_id: INTEGRATION,
    repo_url: 'https://github.com/acme/agent',
    build_on_push: false,
  },
};

describe('drift, by value', () => {
  it('says what each entry is: a field (blocking when it is a revision field), or the unbuilt commit', async () => {
    const goal = await assess(
      spec,
      reused({
        source_config: { ...offBuild.source_config, integration_id: OTHER_INTEGRATION },
        source_revision_config: { repo_ref: 'main', repo_commit_sha: OLD_SHA },
      }),
      new MemoryLogger(),
    );
    expect(goal.drift.map(({ field, kind, blocks }) => [field, kind, blocks])).toEqual([
      ['source_config.integration_id', 'field', false],
      ['source_revision_config.agent_config_path', 'field', true],
      ['source_revision_config.repo_commit_sha', 'unbuilt', true],
    ]);
    expect(blockedIn(goal.drift).map((entry) => entry.field)).toEqual([
      'source_revision_config.agent_config_path',
      'source_revision_config.repo_commit_sha',
    ]);
  });

  it('reads the same from a copy: no entry is known by its identity', async () => {
    const goal = await assess(spec, reused(offBuild), new MemoryLogger());
    const copy = { drift: JSON.parse(JSON.stringify(goal.drift)) as Drift[] };
    expect(blockedText(copy)).toBe(blockedText(goal));
    expect(blockedRemedy(copy)).toBe(blockedRemedy(goal));
    expect(blockedText(copy)).toContain(
      `the step asks for commit ${NEW_SHA.slice(0, 12)}, which the service will not build`,
    );
    expect(blockedRemedy(copy)).toMatch(/^To fix it: turn build_on_push on/);
  });

  it('shows an entry as its field and values only', () => {
    const entry: Drift = { field: 'f', wanted: 1, live: 2, kind: 'field', blocks: true };
    expect(shownDrift(entry)).toEqual({ field: 'f', wanted: 1, live: 2 });
    expect(Object.keys(shownDrift(entry))).toEqual(['field', 'wanted', 'live']);
  });
});

describe('decideLive', () => {
  it('asked nothing but to be live: READY with the latest revision active', async () => {
    expect(await decideLive(aDeployment(), ONLY_LIVE)).toEqual({ live: true });
    expect(await decideLive(aDeployment({ status: 'DEPLOYING' }), ONLY_LIVE)).toEqual({
      live: false,
      missing: 'status is DEPLOYING, not READY',
      briefly: 'DEPLOYING',
    });
  });

  it('a blocked goal is never live, whatever the status, and says why', async () => {
    const goal = await assess(spec, reused(offBuild), new MemoryLogger());
    expect(await decideLive(aDeployment(), goal)).toEqual({
      live: false,
      missing: blockedText(goal),
      final: true,
    });
  });

  it('asks the order of a commit it has not seen before deciding: a newer one is live instead', async () => {
    const asked: string[] = [];
    const ask = (_repository: string, _target: string, latest: string) => {
      asked.push(latest);
      return Promise.resolve('newer' as const);
    };
    const goal = await assess(spec, { ...reused(), created: true }, new MemoryLogger(), ask);
    const newer = 'c'.repeat(40);
    const seen = aDeployment({
      source_revision_config: { repo_ref: 'main', repo_commit_sha: newer },
      latest_revision_id: REVISION_A,
      active_revision_id: REVISION_A,
    });
    expect(await decideLive(seen, goal)).toEqual({ live: true, supersededBy: newer });
    expect(await decideLive(seen, goal)).toEqual({ live: true, supersededBy: newer });
    expect(asked).toEqual([newer]);
  });
});
