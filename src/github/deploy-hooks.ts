/**
 * The deploy step's GitHub hooks: the records and the pull request comment
 * (one DeployReport) as a view of the events, and the commit order. A
 * manifest's deploy also puts each agent's record id in `deployments`.
 */
import type { DeployRequest } from '../inputs/deploy-request.js';
import { keyedOutputs } from '../run/decisions/report.js';
import type { EventView } from '../run/ports/events.js';
import type { DeploymentEntry } from '../run/ports/findings.js';
import type { ManifestOnGitHub } from './features/deployment-record.js';
import { CommitOrders } from './features/commit-order.js';
import { askChangedFiles } from './features/changed-files.js';
import type { GitHubApi } from './client/api.js';
import { DeployReport, FLAT_KEY } from './features/deploy-report.js';
import {
  commentOffPullRequest,
  forAgents,
  gitHubApi,
  Lazy,
  reachable,
  recordsWanted,
  type GitHubHooks,
  type MakeHooks,
} from './hooks.js';
import type { GitHubSettings } from './inputs.js';

function wanted(
  settings: GitHubSettings,
  manifest: ManifestOnGitHub | undefined,
  pullRequest: number | undefined,
): (string | undefined)[] {
  const what = manifest === undefined ? 'record' : 'records';
  return [
    recordsWanted(settings.environment, manifest) ? `the GitHub deployment ${what}` : undefined,
    settings.comment && pullRequest !== undefined ? 'the pull request comment' : undefined,
  ];
}

/** Never called: without a token or a repository, the changed files are not asked of GitHub. */
function unmade(): GitHubApi {
  throw new Error('no GitHub API without a token and a repository');
}

function reportView(report: () => DeployReport): EventView {
  return (event) => {
    const key = event.agent ?? FLAT_KEY;
    if (event.kind === 'deployed') report().deployed(event.report, key);
    else if (event.kind === 'skipped') report().skipped(key);
    else if (event.kind === 'finished') return report().finished(event.report, key);
    else if (event.kind === 'agent_over') return report().over(key, event.failure);
    else if (event.kind === 'agents_over') return report().allOver();
  };
}

/** The manifest's outputs with each agent's `github-deployment-id` in `deployments`. */
function withRecordIds(
  outputs: Readonly<Partial<Record<string, string>>>,
  entries: ReadonlyMap<string, DeploymentEntry> | undefined,
  ids: ReadonlyMap<string, number>,
): Readonly<Partial<Record<string, string>>> {
  const shown = outputs.deployments;
  if (shown === undefined || shown === '' || entries === undefined || ids.size === 0) {
    return outputs;
  }
  const recorded = new Map(
    [...entries].map(([key, entry]) => {
      const id = ids.get(key);
      return [key, id === undefined ? entry : { ...entry, 'github-deployment-id': String(id) }];
    }),
  );
  return { ...outputs, deployments: keyedOutputs(recorded).deployments };
}

export function deployHooks(settings: GitHubSettings, manifest?: ManifestOnGitHub): MakeHooks {
  return (context, given) => {
    const { logger } = given;
    const dependencies = forAgents(given, manifest?.agents.length);
    commentOffPullRequest(settings.comment, context, logger);
    const asked = wanted(settings, manifest, context?.pullRequest);
    const at = reachable(settings.token, context, logger, asked);
    // A pull request's changed files, for `paths`: without a token, the answer says why.
    const changedFiles = (api: () => GitHubApi) =>
      manifest === undefined ? undefined : askChangedFiles(settings.token, context, api);
    if (at === undefined) return { changedFiles: changedFiles(unmade) };
    const made = new Lazy(() => {
      const api = gitHubApi(settings.token, at, dependencies);
      const parts =
        manifest === undefined
          ? dependencies
          : { logger, redact: given.redact, onRecorded: () => given.refreshOutputs?.() };
      const report = new DeployReport(api, at, settings, parts, manifest);
      return { api, report, orders: new CommitOrders(api) };
    });
    const hooks: GitHubHooks = {
      api: () => made.made?.api,
      changedFiles: changedFiles(() => made.value.api),
      commitOrder: (repository, target, latest) =>
        made.value.orders.ask(repository, target, latest),
      outputs: (outputs, entries) => {
        const report = made.made?.report;
        if (manifest === undefined || report === undefined) return outputs;
        return withRecordIds(outputs, entries, report.recordIds);
      },
    };
    if (asked.some((what) => what !== undefined)) hooks.view = reportView(() => made.value.report);
    return hooks;
  };
}

/** What GitHub is told of the manifest; nothing for a flat deploy. */
export function manifestOnGitHub(request: DeployRequest): ManifestOnGitHub | undefined {
  if (request.layout === 'flat') return undefined;
  const { source, nameTemplate, agents } = request;
  const onGitHub = agents.map(({ key, name, spec, environment }) => ({
    key,
    name,
    deploymentName: spec.name,
    environment,
  }));
  return { source, nameTemplate, agents: onGitHub };
}
