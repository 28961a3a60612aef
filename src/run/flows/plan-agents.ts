/**
 * The plan of several agents (a manifest) in one run: each agent's plan is
 * the single plan (plan-run.ts), as if it were alone, a few at once over
 * the repository listing read once; the run fails, once every plan is made,
 * when any agent's would (its deploy would fail, or it differs with
 * `on-change: fail`), naming each. Its outputs and its summary are the
 * manifest's, keyed by agent; each agent's events carry its key, and
 * `agents_over` ends them all (the manifest's one comment is written then).
 */
import type { OnChange } from '../../inputs/parsers.js';
import { RunEvents, type EventView } from '../ports/events.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import type { AgentPlanPart } from '../ports/summaries.js';
import { agentsPlanOutputs, type AgentPlan } from '../decisions/agents-plan-report.js';
import { NO_ACCESS, type AgentToDeploy } from './agents-run.js';
import { eachAgent } from './each-agent.js';
import { failureOfAgents } from './agents-failure.js';
import { runPlan } from './plan-run.js';

/** What a plan of several agents is asked to do. */
export interface AgentsToPlan {
  /** Where the manifest was read: its path, or `inline`. */
  source: string;
  agents: readonly AgentToDeploy[];
  onChange: OnChange;
}

/** Where the manifest's outputs go. */
type SetOutputs = (outputs: Readonly<Record<string, string>>) => void;

/** The manifest's plan outputs, set once every agent's plan is over. */
class PlansTable {
  readonly #plans = new Map<string, AgentPlan>();
  readonly #emit: SetOutputs;

  constructor(agents: readonly AgentToDeploy[], emit: SetOutputs) {
    this.#emit = emit;
    for (const { key, spec } of agents) this.#plans.set(key, { name: spec.name, outputs: {} });
  }

  /** The view that keeps an agent's plan outputs as its run sets them. */
  viewOf(agent: AgentToDeploy): EventView {
    return (event) => {
      if (event.kind !== 'outputs') return;
      const plan = this.#plans.get(agent.key);
      this.#plans.set(agent.key, {
        name: agent.spec.name,
        outputs: { ...plan?.outputs, ...event.outputs },
      });
    };
  }

  /** Every plan is over: each agent's failure, if any, joins it, and the outputs are set. */
  ended(agents: readonly AgentToDeploy[], outcomes: readonly RunOutcome[]): void {
    agents.forEach((agent, index) => {
      const failure = outcomes[index]?.failure;
      const plan = this.#plans.get(agent.key) ?? { name: agent.spec.name, outputs: {} };
      this.#plans.set(agent.key, { ...plan, ...(failure === undefined ? {} : { error: failure }) });
    });
    this.#emit(agentsPlanOutputs(this.#plans));
  }
}

/** Plans the deploy of every agent of the manifest; never throws: how it ended is in the outcome. */
export async function planAgents(asked: AgentsToPlan, io: RunnerIO): Promise<RunOutcome> {
  const events = new RunEvents(io.views, io.redact);
  const table = new PlansTable(asked.agents, (outputs) =>
    events.emit({
      kind: 'outputs',
      outputs: { plan: '', 'deployment-id': '', status: '', ...outputs },
    }),
  );
  const outcomes = await eachAgent(
    asked.agents,
    { io, events, access: asked.agents[0]?.spec ?? NO_ACCESS },
    async (agent, agentIo, share) => {
      const release = await share.take();
      try {
        return await runPlan(
          { spec: agent.spec, onChange: asked.onChange },
          agentIo,
          share.dependencies,
        );
      } finally {
        release();
      }
    },
    {
      viewOf: (agent) => table.viewOf(agent),
      allEnded: (all) => table.ended(asked.agents, all),
    },
  );
  const agents: AgentPlanPart[] = asked.agents.map((agent, index) => {
    const outcome = outcomes[index];
    const summary = outcome?.summary;
    return {
      key: agent.key,
      name: agent.spec.name,
      ...(summary?.kind === 'plan' ? { summary } : {}),
      ...(outcome?.failure === undefined ? {} : { failure: outcome.failure }),
    };
  });
  return {
    ...failureOfAgents(asked.agents, outcomes),
    summary: { kind: 'agents-plan', source: asked.source, agents },
  };
}
