/**
 * The plan of several agents in-process, against the emulator: each agent
 * planned as if alone, `plans` keyed by agent, `changes` the total, the
 * manifest's `action`, and `on-change: fail` naming each agent that differs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PLAN_OWN_INPUTS,
  PLAN_SHARED_INPUTS,
  planRequest,
} from '../../../src/inputs/plan-inputs.ts';
import { readInputs } from '../../../src/inputs/declare.ts';
import type { RunDescription } from '../../../src/inputs/run-description.ts';
import { runPlan } from '../../../src/run/flows/plan-run.ts';
import { renderSummary } from '../../../src/views/summary.ts';
import { startEmulator, type Emulator } from '../../emulator/emulator.ts';
import { withDefaults, WORKFLOW_REPOSITORY } from '../../support/action.ts';
import {
  AGENT_REPO_URL,
  INTEGRATION,
  TENANT_ID,
  seedAgentRepository,
} from '../../support/fixtures.ts';
import { recordingRunner } from '../../support/recording-runner.ts';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ tenantId: TENANT_ID });
  seedAgentRepository(emu);
});

afterEach(async () => {
  await emu.close();
});

const description: RunDescription = {
  workspace: process.cwd(),
  repository: WORKFLOW_REPOSITORY,
  head: { kind: 'none', reason: 'a test' },
};

function agent(key: string, onChange: string) {
  const inputs = readInputs(
    { ...PLAN_SHARED_INPUTS, ...PLAN_OWN_INPUTS },
    (name) =>
      withDefaults(
        {
          'api-url': emu.url,
          name: key,
          'integration-id': INTEGRATION,
          'agent-config-path': `apps/${key}/langgraph.json`,
          'on-change': onChange,
        },
        'plan/action.yml',
      )[name],
    description,
  );
  return { key, name: key, spec: planRequest(inputs, description).spec };
}

async function plan(onChange: 'none' | 'fail') {
  emu.seedDeployment({
    name: 'support',
    source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
    source_revision_config: { repo_ref: 'main', agent_config_path: 'old.json' },
  });
  const runner = recordingRunner(description);
  const agents = [agent('support', onChange), agent('research', onChange)];
  const outcome = await runPlan({ source: 'inline', agents, onChange, layout: 'keyed' }, runner.io);
  return { ...runner, outcome };
}

describe('planning several agents', () => {
  it('plans each agent: plans keyed by agent, the total of changes, a mixed action', async () => {
    const { outcome, outputs } = await plan('none');

    expect(outcome.failure).toBeUndefined();
    expect(outputs).toMatchObject({ action: 'mixed', changes: '1', plan: '', 'deployment-id': '' });
    const plans = JSON.parse(outputs.plans ?? '{}') as Record<string, Record<string, unknown>>;
    expect(Object.keys(plans)).toEqual(['support', 'research']);
    expect(plans.support).toMatchObject({ name: 'support', action: 'reuse', changes: 1 });
    expect(plans.research).toMatchObject({ name: 'research', action: 'create', changes: 0 });
    expect(emu.requests.every((request) => request.method === 'GET')).toBe(true);
    const html = renderSummary(outcome.summary!, (text) => text);
    expect(html).toContain('<td><code>support</code></td>');
    expect(html).toContain('agent_config_path');
  });

  it('with on-change: fail, fails naming the agent whose deploy would not apply a difference', async () => {
    const { outcome, outputs } = await plan('fail');

    expect(outcome.failure).toMatch(
      /^1 of 2 agents failed:\n- support: The deploy of 'support' would not apply 1 difference/,
    );
    expect(outputs.action).toBe('mixed');
    const plans = JSON.parse(outputs.plans ?? '{}') as Record<string, Record<string, unknown>>;
    expect(plans.support?.error).toMatch(/would not apply/);
    expect(plans.research?.error).toBeUndefined();
  });
});
