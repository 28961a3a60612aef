/**
 * The plan step's inputs (src/inputs/plan-inputs.ts, plan/action.yml): one
 * deployment's plan, or, with `agents`, every agent's, each as the deploy
 * step would run it; `name` required only without a manifest, and a
 * template holding `{agent}` once beside one; every problem found before
 * any request, named by its input or its path in the manifest.
 */
import { describe, expect, it } from 'vitest';
import { readInputs } from '../../src/inputs/declare.ts';
import { InputError } from '../../src/inputs/errors.ts';
import {
  PLAN_OWN_INPUTS,
  PLAN_SHARED_INPUTS,
  planAsked,
  planRequest,
  type PlanRequest,
} from '../../src/inputs/plan-inputs.ts';
import type { RunDescription } from '../../src/inputs/run-description.ts';
import { withDefaults } from '../support/action.ts';
import { BASE, SECRET, temporaryWorkspace } from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('plan-inputs-test-');
const run: RunDescription = { workspace: workspace.root, repository: 'acme/agent' };

const MANIFEST = [
  'agents:',
  '  support:',
  '    agent-config-path: apps/support/langgraph.json',
  '    secrets: [OPENAI_API_KEY]',
  '  research:',
  '    name: research-assistant',
  '    commit: ' + 'b'.repeat(40),
].join('\n');

/** The plan step's inputs as the runner gives them (plan/action.yml's defaults applied). */
function read(given: Record<string, string>) {
  const values = withDefaults({ ...BASE, ...given }, 'plan/action.yml');
  return readInputs(
    { ...PLAN_SHARED_INPUTS, ...PLAN_OWN_INPUTS },
    (name) => (values[name] ?? '').trim(),
    run,
  );
}

function asked(given: Record<string, string>): PlanRequest {
  return planAsked(read(given), run);
}

/** `input 'x': problem` lines of the InputError the inputs raise, read and checked. */
function problems(given: Record<string, string>): string[] {
  try {
    asked(given);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems.map(
      ({ input, problem }) => `input '${input}': ${problem}`,
    );
  }
  throw new Error(`expected an InputError for ${JSON.stringify(given)}`);
}

describe('the plan step without agents', () => {
  it('plans the one deployment its name says', () => {
    const plan = asked({ 'on-change': 'fail' });
    expect(plan.layout).toBe('flat');
    if (plan.layout !== 'flat') return;
    expect(plan.agents[0]?.spec.name).toBe('my-agent');
    expect(plan.onChange).toBe('fail');
    expect(planRequest(read({}), run).spec.name).toBe('my-agent');
  });

  it('requires name', () => {
    expect(problems({ name: '' })).toEqual([expect.stringMatching(/^input 'name': /)]);
  });
});

describe('the plan step with agents', () => {
  const file = workspace.write('deploy/agents.yaml', MANIFEST);

  it('plans every agent of the manifest, each as the deploy step would run it', () => {
    const plan = asked({ name: '', agents: file, secrets: `OPENAI_API_KEY=${SECRET}` });
    expect(plan.layout).toBe('keyed');
    if (plan.layout !== 'keyed') return;
    expect(plan.source).toBe('deploy/agents.yaml');
    expect(plan.onChange).toBe('none');
    expect(plan.agents.map(({ key, name, spec }) => [key, name, spec.name])).toEqual([
      ['support', 'support', 'support'],
      ['research', 'research-assistant', 'research-assistant'],
    ]);
    const [support] = plan.agents;
    expect(support?.spec.sourceRevisionConfig.agent_config_path).toBe(
      'apps/support/langgraph.json',
    );
    expect(support?.spec.dryRun).toBe(true);
    expect(support?.spec.waitForReady).toBe(false);
  });

  it('fills a name template holding {agent} with each agent’s name', () => {
    const plan = asked({ name: '{agent}-pr-7', agents: MANIFEST, secrets: 'OPENAI_API_KEY=x' });
    expect(plan.layout === 'keyed' && plan.nameTemplate).toBe('{agent}-pr-7');
    expect(plan.layout === 'keyed' && plan.agents.map((agent) => agent.spec.name)).toEqual([
      'support-pr-7',
      'research-assistant-pr-7',
    ]);
  });

  it('refuses a name without {agent}, naming name', () => {
    expect(problems({ name: 'my-agent', agents: MANIFEST, secrets: 'OPENAI_API_KEY=x' })).toEqual([
      expect.stringMatching(/^input 'name': does not hold \{agent\}/),
    ]);
  });

  it('reports every problem of every agent at once, each by its path', () => {
    const bad = [
      'agents:',
      '  support:',
      '    secrets: [TAVILY_API_KEY]',
      '  research:',
      '    integration-id: not-a-uuid',
    ].join('\n');
    expect(problems({ name: '', agents: bad })).toEqual([
      expect.stringMatching(/^input 'agents\.support\.secrets': 'TAVILY_API_KEY' is not one/),
      expect.stringMatching(/^input 'agents\.research\.integration-id': /),
    ]);
  });

  it('refuses a manifest file outside the workspace or missing, naming agents', () => {
    expect(problems({ name: '', agents: 'deploy/none.yaml' })).toEqual([
      expect.stringMatching(/^input 'agents': .*deploy\/none\.yaml/),
    ]);
  });

  it('is not the one-deployment plan of planRequest', () => {
    expect(() =>
      planRequest(read({ name: '', agents: MANIFEST, secrets: 'OPENAI_API_KEY=x' }), run),
    ).toThrow(/agents/);
  });
});
