/**
 * The plan step's GitHub hook for a manifest of agents: its one plan
 * comment on the pull request, a row an agent, written once every agent's
 * plan is made (the manifest's `agents_over`), from each agent's `planned`
 * event: one walk of the comment pages and one write a run, within a budget
 * that grows with the number of agents. A run in which some agent's plan
 * was neither made nor refused (cancelled) leaves the comment as it was.
 */
import type { PlanNotMade, PlanReport } from '../run/ports/progress.js';
import { agentsBudgetMs } from './client/budget.js';
import {
  agentsPlanCommentBody,
  carriesAgentsPlanMarker,
  type AgentPlanState,
} from './features/agents-plan-comment.js';
import type { ManifestOnGitHub } from './features/agents-records.js';
import type { MakeHooks } from './hooks.js';
import { planCommentAt, type PlanSettings } from './plan-hooks.js';

export function agentsPlanHooks(settings: PlanSettings, manifest: ManifestOnGitHub): MakeHooks {
  return (context, given) => {
    const { redact } = given;
    const dependencies = {
      ...given,
      budgetMs: agentsBudgetMs(manifest.agents.length, given.budgetMs),
    };
    const target = planCommentAt(settings, context, dependencies, carriesAgentsPlanMarker);
    if (target === undefined) return { api: undefined };
    const { at, made } = target;
    const reports = new Map<string, PlanReport | PlanNotMade>();
    const identity = manifest.nameTemplate ?? manifest.source;
    const write = async (): Promise<void> => {
      const states: AgentPlanState[] = [];
      for (const agent of manifest.agents) {
        const report = reports.get(agent.key);
        if (report === undefined) return;
        const head = at.sha === '' || 'verdict' in report ? {} : { head: at.sha };
        states.push({
          key: agent.key,
          deploymentName: agent.deploymentName,
          report: { ...head, ...report },
        });
      }
      const { comment } = made.value;
      await comment.writeBody(identity, () =>
        agentsPlanCommentBody(manifest, states, comment.body, {
          redact,
          ...(at.runUrl === undefined ? {} : { runUrl: at.runUrl }),
        }),
      );
    };
    return {
      get api() {
        return made.made?.api;
      },
      view: (event) => {
        if (event.kind === 'planned' && event.agent !== undefined) {
          reports.set(event.agent, event.report);
        } else if (event.kind === 'agents_over') return write();
      },
    };
  };
}
