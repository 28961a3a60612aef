/**
 * The sweep's GitHub hooks: `pullRequestStates` (remembered) and `retired`,
 * flat for each orphan, keyed once a pull request (the manifest's one
 * comment, found by name-pattern with the number). Without the states
 * nothing is an orphan, so without a token or a repository
 * `pullRequestStates` throws an `ActionError` naming what is missing.
 */
import { ActionError } from '../common/errors.js';
import {
  filled,
  forAgent,
  type NamePattern,
  type SweepRequest,
  type SweptAgent,
} from '../inputs/sweep-inputs.js';
import type {
  AgentRetireReport,
  PullRequestState,
  RetireReport,
  Retirement,
} from '../run/ports/progress.js';
import { carriesManifestMarker } from './features/comment-marker.js';
import type { ManifestOnGitHub } from './features/deployment-record.js';
import type { GitHubRunContext } from './features/context.js';
import { PullRequestComment } from './features/pr-comment.js';
import { eachRetired, retireManifest, retirePreview } from './features/retirement.js';
import { askPullRequestStates } from './features/states-question.js';
import {
  commentOffPullRequest,
  gitHubApi,
  Lazy,
  unreachable,
  type GitHubHooks,
  type HookDependencies,
  type MakeHooks,
} from './hooks.js';
import type { GitHubSettings } from './inputs.js';

interface SweptManifest {
  source: string;
  names: NamePattern;
  agents: readonly SweptAgent[];
}

export type SweepSettings = Pick<GitHubSettings, 'token' | 'comment'> & {
  /** With `agents`: a pull request's orphans share its one comment. */
  manifest?: SweptManifest;
};

export function sweepSettings(
  inputs: {
    'github-token': SweepSettings['token'];
    'pr-comment': boolean;
    agents?: { source: string } | undefined;
  },
  sweep: SweepRequest,
): SweepSettings {
  const source = inputs.agents?.source;
  return {
    token: inputs['github-token'],
    comment: inputs['pr-comment'],
    ...(source === undefined
      ? {}
      : { manifest: { source, names: sweep.names, agents: sweep.agents } }),
  };
}

/** The manifest as the deploy on pull request `number` showed it (`{agent}-pr-7`: its marker). */
function manifestOfPullRequest(swept: SweptManifest, number: number): ManifestOnGitHub {
  return {
    source: swept.source,
    nameTemplate: filled(swept.names, number),
    agents: swept.agents.map(({ key, name }) => ({
      key,
      name,
      deploymentName: filled(forAgent(swept.names, name), number),
    })),
  };
}

export function sweepHooks(settings: SweepSettings): MakeHooks {
  return (context, dependencies) => {
    commentOffPullRequest(settings.comment, context, dependencies.logger);
    const missing = unreachable(settings.token, context);
    if (missing !== undefined || context === undefined) {
      const why = `the sweep cannot ask GitHub how the pull requests stand: ${missing}. Give it a token with \`pull-requests: read\` (the default, \${{ github.token }}, with that permission).`;
      return { pullRequestStates: () => Promise.reject(new ActionError(why)) };
    }
    return sweepOnGitHub(settings, context, dependencies);
  };
}

function ended(
  states: ReadonlyMap<number, PullRequestState>,
  pullRequest: number | undefined,
): 'merged' | 'closed' | undefined {
  const state = pullRequest === undefined ? undefined : states.get(pullRequest)?.state;
  return state === 'merged' || state === 'closed' ? state : undefined;
}

function sweepOnGitHub(
  settings: SweepSettings,
  context: GitHubRunContext,
  dependencies: HookDependencies,
): GitHubHooks {
  const { logger, redact } = dependencies;
  const made = new Lazy(() => gitHubApi(settings.token, context, dependencies));
  const states = new Map<number, PullRequestState>();
  const comments = new Map<number, PullRequestComment>();
  const parts = { ...context, logger, redact };
  const comment = (pullRequest: number, carries?: typeof carriesManifestMarker) => {
    const where = { repository: context.repository, pullRequest };
    return new PullRequestComment(made.value, where, logger, carries);
  };
  /** A flat preview's comment, made once; none when `pr-comment` is off. */
  const commentOf = (pullRequest: number | undefined): PullRequestComment | undefined => {
    if (pullRequest === undefined || !settings.comment) return undefined;
    const known = comments.get(pullRequest) ?? comment(pullRequest);
    comments.set(pullRequest, known);
    return known;
  };
  const retired = (report: RetireReport): Promise<Retirement> => {
    const target = {
      environment: report.environment ?? '',
      // A manifest's previews share its one comment, rewritten once a pull request by a keyed retire.
      comment: report.agents === undefined ? commentOf(report.pullRequest) : undefined,
      pullRequestState: ended(states, report.pullRequest),
    };
    return retirePreview(made.value, report, target, parts);
  };
  /** `reports` are one pull request's, one an agent: its one comment rewritten (none created). */
  const retiredAgents = async (
    reports: readonly AgentRetireReport[],
  ): Promise<ReadonlyMap<string, Retirement>> => {
    const api = made.value;
    const swept = settings.manifest;
    const pullRequest = reports[0]?.report.pullRequest;
    if (!settings.comment || swept === undefined || pullRequest === undefined) return new Map();
    const target = {
      manifest: manifestOfPullRequest(swept, pullRequest),
      // No environment: each was marked by a flat retire, with its orphans.
      environment: '',
      comment: comment(pullRequest, carriesManifestMarker),
      pullRequestState: ended(states, pullRequest),
    };
    return retireManifest(api, reports, target, parts);
  };
  return {
    api: () => made.made,
    retired: ({ layout, reports }) =>
      layout === 'flat' ? eachRetired(reports, retired) : retiredAgents(reports),
    /** Throws when GitHub cannot say; remembered for `retired`. */
    pullRequestStates: async (numbers) => {
      const asked = await askPullRequestStates(made.value, context.repository, numbers);
      for (const [number, state] of asked) states.set(number, state);
      return asked;
    },
  };
}
