/**
 * The deploy step's GitHub hooks for a manifest of agents: the records of
 * its environments and its one pull request comment, as a view of each
 * agent's `deployed`, `finished` and `agent_over` events and of the
 * manifest's `agents_over`; each agent's record id in the `deployments`
 * output; and the commit order, as for a single deploy. All the GitHub work
 * of the step shares one budget, which grows with the number of agents.
 */
import type { AgentsRequest } from '../inputs/agents-request.js';
import type { EventView } from '../run/ports/events.js';
import { agentsBudgetMs } from './client/budget.js';
import { AgentsReport } from './features/agents-report.js';
import { withRecordIds, type ManifestOnGitHub } from './features/agents-records.js';
import { CommitOrders } from './features/commit-order.js';
import {
  commentOffPullRequest,
  gitHubApi,
  Lazy,
  reachable,
  type GitHubHooks,
  type MakeHooks,
} from './hooks.js';
import type { GitHubSettings } from './inputs.js';

export type { AgentOnGitHub, ManifestOnGitHub } from './features/agents-records.js';

/** Whether the manifest asks for any record: some agent's environment, or the step's, is set. */
function recordsWanted(settings: GitHubSettings, manifest: ManifestOnGitHub): boolean {
  return manifest.agents.some((agent) => (agent.environment ?? settings.environment) !== '');
}

export function agentsDeployHooks(settings: GitHubSettings, manifest: ManifestOnGitHub): MakeHooks {
  return (context, given) => {
    const { logger } = given;
    const dependencies = {
      ...given,
      budgetMs: agentsBudgetMs(manifest.agents.length, given.budgetMs),
    };
    commentOffPullRequest(settings.comment, context, logger);
    const wanted = [
      recordsWanted(settings, manifest) ? 'the GitHub deployment records' : undefined,
      settings.comment && context?.pullRequest !== undefined
        ? 'the pull request comment'
        : undefined,
    ];
    const at = reachable(settings.token, context, logger, wanted);
    if (at === undefined) return { api: undefined };
    const made = new Lazy(() => {
      const api = gitHubApi(settings.token, at, dependencies);
      const report = new AgentsReport(api, at, manifest, settings, {
        logger,
        redact: dependencies.redact,
        onRecorded: () => dependencies.refreshOutputs?.(),
      });
      return { api, report, orders: new CommitOrders(api) };
    });
    const view: EventView = (event) => {
      const { agent } = event;
      if (event.kind === 'agents_over') return made.value.report.allOver();
      if (agent === undefined) return;
      if (event.kind === 'deployed') made.value.report.deployed(agent, event.report);
      else if (event.kind === 'finished') made.value.report.finished(agent, event.report);
      else if (event.kind === 'agent_over') return made.value.report.over(agent, event.failure);
    };
    const hooks: GitHubHooks = {
      get api() {
        return made.made?.api;
      },
      commitOrder: (repository, target, latest) =>
        made.value.orders.ask(repository, target, latest),
      outputs: (outputs, entries) => {
        const ids = made.made?.report.recordIds;
        return ids === undefined ? outputs : withRecordIds(outputs, entries, ids);
      },
    };
    if (wanted.some((what) => what !== undefined)) hooks.view = view;
    return hooks;
  };
}

/** What GitHub is told of the manifest the inputs ask for: each agent's names and own environment. */
export function manifestOnGitHub(request: AgentsRequest): ManifestOnGitHub {
  return {
    source: request.source,
    ...(request.nameTemplate === undefined ? {} : { nameTemplate: request.nameTemplate }),
    agents: request.agents.map(({ key, name, spec, environment }) => ({
      key,
      name,
      deploymentName: spec.name,
      ...(environment === undefined ? {} : { environment }),
    })),
  };
}
