/**
 * The retire step's GitHub hook (src/retire.ts): `retired`, which marks the
 * deployments of its `environment` inactive and rewrites the preview's
 * comment on its event's pull request (none is created), when there is a
 * token and a repository; with a manifest (keyed), it does so once for
 * every agent (each environment, the manifest's one comment),
 * within a budget that grows with the number of agents.
 */
import type { RetireRequest } from '../inputs/retire-inputs.js';
import { agentsBudgetMs } from './client/budget.js';
import { carriesManifestMarker } from './features/agents-comment.js';
import type { ManifestOnGitHub } from './features/agents-records.js';
import type { GitHubRunContext } from './features/context.js';
import { PullRequestComment } from './features/pr-comment.js';
import { eachRetired, retireManifest, retirePreview } from './features/retirement.js';
import type { Logger } from '../common/runtime.js';
import { commentOffPullRequest, gitHubApi, Lazy, reachable, type MakeHooks } from './hooks.js';
import type { GitHubSettings } from './inputs.js';

/** The warning of a retire on a pull request that is still open. */
function stillOpen(at: GitHubRunContext, logger: Logger, retired: string): void {
  if (at.pullRequestState === 'open') {
    logger.warning(
      `pull request #${at.pullRequest} is still open, and ${retired} retired all the same: run the retire step on \`pull_request: types: [closed]\`.`,
    );
  }
}

/** The retire's hooks: a manifest's (`keyed`) retired together, else the one preview's. */
export function retireHooks(settings: GitHubSettings, request?: RetireRequest): MakeHooks {
  if (request?.layout === 'keyed') return manifestHooks(settings, previewsOnGitHub(request));
  return (context, dependencies) => {
    const { logger, redact } = dependencies;
    commentOffPullRequest(settings.comment, context, logger);
    const pullRequest = settings.comment ? context?.pullRequest : undefined;
    const wanted = [
      settings.environment === ''
        ? undefined
        : `marking the GitHub deployments of '${settings.environment}' inactive`,
      pullRequest === undefined ? undefined : 'rewriting the preview comment',
    ];
    const at = reachable(settings.token, context, logger, wanted);
    if (at === undefined) return { api: undefined };
    const made = new Lazy(() => {
      const api = gitHubApi(settings.token, at, dependencies);
      const where =
        pullRequest === undefined ? undefined : { repository: at.repository, pullRequest };
      return {
        api,
        comment:
          where === undefined ? undefined : new PullRequestComment(api, where, logger, redact),
      };
    });
    return {
      get api() {
        return made.made?.api;
      },
      retired: ({ reports }) =>
        eachRetired(reports, (report) => {
          stillOpen(at, logger, 'its preview is');
          const { api, comment } = made.value;
          const target = {
            environment: report.environment ?? settings.environment,
            comment,
            pullRequestState: at.pullRequestState,
          };
          return retirePreview(api, report, target, { ...at, logger, redact });
        }),
    };
  };
}

function manifestHooks(settings: GitHubSettings, manifest: ManifestOnGitHub): MakeHooks {
  return (context, given) => {
    const dependencies = {
      ...given,
      budgetMs: agentsBudgetMs(manifest.agents.length, given.budgetMs),
    };
    const { logger, redact } = dependencies;
    commentOffPullRequest(settings.comment, context, logger);
    const pullRequest = settings.comment ? context?.pullRequest : undefined;
    const records = manifest.agents.some(
      (agent) => (agent.environment ?? settings.environment) !== '',
    );
    const wanted = [
      records ? "marking the GitHub deployments of the agents' environments inactive" : undefined,
      pullRequest === undefined ? undefined : "rewriting the manifest's comment",
    ];
    const at = reachable(settings.token, context, logger, wanted);
    if (at === undefined) return { api: undefined };
    const made = new Lazy(() => gitHubApi(settings.token, at, dependencies));
    return {
      get api() {
        return made.made;
      },
      retired: ({ reports }) => {
        stillOpen(at, logger, 'its previews are');
        const api = made.value;
        const comment =
          pullRequest === undefined
            ? undefined
            : new PullRequestComment(
                api,
                { repository: at.repository, pullRequest },
                logger,
                redact,
                carriesManifestMarker,
              );
        const target = {
          manifest,
          environment: settings.environment,
          comment,
          pullRequestState: at.pullRequestState,
        };
        return retireManifest(api, reports, target, { ...at, logger, redact });
      },
    };
  };
}

/** What GitHub is told of the manifest whose previews are retired: each agent's names and own environment. */
function previewsOnGitHub(request: RetireRequest): ManifestOnGitHub {
  return {
    source: request.source ?? '',
    nameTemplate: request.nameTemplate,
    agents: request.agents.map(({ key, agentName, name, environment }) => ({
      key,
      name: agentName,
      deploymentName: name,
      ...(environment === undefined ? {} : { environment }),
    })),
  };
}
