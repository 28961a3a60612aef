/**
 * What a plan of several agents hands to later steps: `plans`, one line of
 * JSON keyed by agent (each agent's plan as the command's `--json` has it),
 * `changes` the total, and `action`: `fail` when any agent's deploy would
 * fail, else the one action all agree on, else `mixed`. A plan that could
 * not be made for an agent is no verdict: the manifest's `action` and
 * `changes` then say nothing, rather than speak for it.
 */
import type { PlanAction } from '../ports/findings.js';

/** One agent's plan: its outputs as the single plan sets them, or why it was not made. */
export interface AgentPlan {
  /** The deployment's name. */
  name: string;
  /** The single plan's outputs (`plan`, `action`, `changes`, …); none when it was not made. */
  outputs: Readonly<Partial<Record<string, string>>>;
  /** Why the agent's plan failed (a deploy that would fail, or a plan not made). */
  error?: string;
}

/** The `plans` entry of one agent. */
function entryOf(plan: AgentPlan): Record<string, unknown> {
  const { outputs } = plan;
  const parsed: unknown = outputs.plan === undefined ? null : JSON.parse(outputs.plan);
  return {
    name: plan.name,
    action: outputs.action ?? '',
    changes: Number(outputs.changes ?? '0'),
    'deployment-id': outputs['deployment-id'] ?? '',
    status: outputs.status ?? '',
    'dashboard-url': outputs['dashboard-url'] ?? '',
    plan: parsed,
    ...(plan.error === undefined ? {} : { error: plan.error }),
  };
}

/** The manifest's action from each agent's, or undefined when one has none. */
function actionOf(actions: readonly (string | undefined)[]): PlanAction | 'mixed' | undefined {
  if (actions.some((action) => action === undefined)) return undefined;
  if (actions.includes('fail')) return 'fail';
  const [first] = actions;
  return actions.every((action) => action === first) ? (first as PlanAction) : 'mixed';
}

/** The manifest's plan outputs from every agent's plan, in the manifest's order. */
export function agentsPlanOutputs(plans: ReadonlyMap<string, AgentPlan>): Record<string, string> {
  const all = [...plans.values()];
  const action = actionOf(all.map((plan) => plan.outputs.action));
  const changes = all.reduce((sum, plan) => sum + Number(plan.outputs.changes ?? '0'), 0);
  return {
    plans: JSON.stringify(
      Object.fromEntries([...plans].map(([key, plan]) => [key, entryOf(plan)])),
    ),
    action: action ?? '',
    changes: action === undefined ? '' : String(changes),
  };
}
