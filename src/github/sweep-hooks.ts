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
import type { GitHubApi } from './client/api.js';
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
  type HookDependencies,
  type MakeHooks,
} from './hooks.js';
import type { GitHubSettings } from './inputs.js';

export interface SweptManifest {
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
export function manifestOfPullRequest(swept: SweptManifest, number: number): ManifestOnGitHub {
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
      return { api: undefined, pullRequestStates: () => Promise.reject(new ActionError(why)) };
    }
    const made = new Lazy(() => new SweepOnGitHub(settings, context, dependencies));
    return {
      get api() {
        return made.made?.api;
      },
      retired: ({ layout, reports }) =>
        layout === 'flat'
          ? eachRetired(reports, (report) => made.value.retired(report))
          : made.value.retiredAgents(reports),
      pullRequestStates: (numbers) => made.value.pullRequestStates(numbers),
    };
  };
}

class SweepOnGitHub {
  readonly api: GitHubApi;
  readonly #settings: SweepSettings;
  readonly #context: GitHubRunContext;
  readonly #dependencies: HookDependencies;
  readonly #states = new Map<number, PullRequestState>();
  readonly #comments = new Map<number, PullRequestComment>();

  constructor(settings: SweepSettings, context: GitHubRunContext, dependencies: HookDependencies) {
    this.api = gitHubApi(settings.token, context, dependencies);
    this.#settings = settings;
    this.#context = context;
    this.#dependencies = dependencies;
  }

  /** Throws when GitHub cannot say; remembered for `retired`. */
  async pullRequestStates(
    numbers: readonly number[],
  ): Promise<ReadonlyMap<number, PullRequestState>> {
    const states = await askPullRequestStates(this.api, this.#context.repository, numbers);
    for (const [number, state] of states) this.#states.set(number, state);
    return states;
  }

  retired(report: RetireReport): Promise<Retirement> {
    const { logger, redact } = this.#dependencies;
    const target = {
      environment: report.environment ?? '',
      // A manifest's previews share its one comment, rewritten once a pull request by a keyed retire.
      comment: report.agents === undefined ? this.#commentOf(report.pullRequest) : undefined,
      pullRequestState: this.#ended(report.pullRequest),
    };
    return retirePreview(this.api, report, target, { ...this.#context, logger, redact });
  }

  /** `reports` are one pull request's, one an agent: its one comment rewritten (none created). */
  async retiredAgents(
    reports: readonly AgentRetireReport[],
  ): Promise<ReadonlyMap<string, Retirement>> {
    const swept = this.#settings.manifest;
    const pullRequest = reports[0]?.report.pullRequest;
    if (!this.#settings.comment || swept === undefined || pullRequest === undefined) {
      return new Map();
    }
    const { logger, redact } = this.#dependencies;
    const where = { repository: this.#context.repository, pullRequest };
    const comment = new PullRequestComment(this.api, where, logger, redact, carriesManifestMarker);
    const target = {
      manifest: manifestOfPullRequest(swept, pullRequest),
      // No environment: each was marked by a flat retire, with its orphans.
      environment: '',
      comment,
      pullRequestState: this.#ended(pullRequest),
    };
    return retireManifest(this.api, reports, target, { ...this.#context, logger, redact });
  }

  #ended(pullRequest: number | undefined): 'merged' | 'closed' | undefined {
    const state = pullRequest === undefined ? undefined : this.#states.get(pullRequest)?.state;
    return state === 'merged' || state === 'closed' ? state : undefined;
  }

  /** Made once; none when `pr-comment` is off. */
  #commentOf(pullRequest: number | undefined): PullRequestComment | undefined {
    if (pullRequest === undefined || !this.#settings.comment) return undefined;
    let comment = this.#comments.get(pullRequest);
    if (comment === undefined) {
      const where = { repository: this.#context.repository, pullRequest };
      const { logger, redact } = this.#dependencies;
      comment = new PullRequestComment(this.api, where, logger, redact);
      this.#comments.set(pullRequest, comment);
    }
    return comment;
  }
}
