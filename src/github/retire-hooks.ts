/**
 * The retire step's GitHub hook `retired`: each environment's deployments
 * marked inactive and the pull request's comment rewritten (none created).
 */
import type { RetireRequest } from '../inputs/retire-inputs.js';
import { carriesManifestMarker, carriesMarker } from './features/comment-marker.js';
import type { ManifestOnGitHub } from './features/deployment-record.js';
import type { GitHubRunContext } from './features/context.js';
import { PullRequestComment } from './features/pr-comment.js';
import { eachRetired, retireManifest, retirePreview } from './features/retirement.js';
import type { Logger } from '../common/runtime.js';
import {
  commentOffPullRequest,
  forAgents,
  gitHubApi,
  Lazy,
  reachable,
  recordsWanted,
  type MakeHooks,
} from './hooks.js';
import type { GitHubSettings } from './inputs.js';

function stillOpen(at: GitHubRunContext, logger: Logger, retired: string): void {
  if (at.pullRequestState === 'open') {
    logger.warning(
      `pull request #${at.pullRequest} is still open, and ${retired} retired all the same: run the retire step on \`pull_request: types: [closed]\`.`,
    );
  }
}

function wanted(
  settings: GitHubSettings,
  manifest: ManifestOnGitHub | undefined,
  pullRequest: number | undefined,
): (string | undefined)[] {
  const flat = manifest === undefined;
  const whose = flat ? `'${settings.environment}'` : "the agents' environments";
  const comment = flat ? 'the preview comment' : "the manifest's comment";
  return [
    recordsWanted(settings.environment, manifest)
      ? `marking the GitHub deployments of ${whose} inactive`
      : undefined,
    pullRequest === undefined ? undefined : `rewriting ${comment}`,
  ];
}

export function retireHooks(settings: GitHubSettings, request?: RetireRequest): MakeHooks {
  const manifest = request?.layout === 'keyed' ? previewsOnGitHub(request) : undefined;
  return (context, given) => {
    const dependencies = forAgents(given, manifest?.agents.length);
    const { logger, redact } = dependencies;
    commentOffPullRequest(settings.comment, context, logger);
    const pullRequest = settings.comment ? context?.pullRequest : undefined;
    const at = reachable(settings.token, context, logger, wanted(settings, manifest, pullRequest));
    if (at === undefined) return {};
    const made = new Lazy(() => gitHubApi(settings.token, at, dependencies));
    const carries = manifest === undefined ? carriesMarker : carriesManifestMarker;
    const where =
      pullRequest === undefined ? undefined : { repository: at.repository, pullRequest };
    const comment = new Lazy(
      () => where && new PullRequestComment(made.value, where, logger, carries),
    );
    const parts = { ...at, logger, redact };
    return {
      api: () => made.made,
      retired: ({ reports }) => {
        stillOpen(at, logger, manifest === undefined ? 'its preview is' : 'its previews are');
        const target = { comment: comment.value, pullRequestState: at.pullRequestState };
        if (manifest !== undefined) {
          const all = { ...target, manifest, environment: settings.environment };
          return retireManifest(made.value, reports, all, parts);
        }
        return eachRetired(reports, (report) => {
          const environment = report.environment ?? settings.environment;
          return retirePreview(made.value, report, { ...target, environment }, parts);
        });
      },
    };
  };
}

function previewsOnGitHub({ source, nameTemplate, agents }: RetireRequest): ManifestOnGitHub {
  const onGitHub = agents.map(({ key, agentName, name, environment }) => ({
    key,
    name: agentName,
    deploymentName: name,
    environment,
  }));
  return { source: source ?? '', nameTemplate, agents: onGitHub };
}
