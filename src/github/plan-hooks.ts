/**
 * The plan step's GitHub hook: its plan comment. A manifest's is written
 * once every agent's plan is made (`agents_over`); a run in which some
 * agent's plan was neither made nor refused leaves it as it was.
 */
import type { PlanNotMade, PlanReport } from '../run/ports/progress.js';
import type { ManifestOnGitHub } from './features/deployment-record.js';
import {
  carriesKeyedPlanMarker,
  carriesPlanMarker,
  keyedPlanCommentBody,
  writePlanComment,
  type AgentPlanState,
} from './features/plan-comment.js';
import { PullRequestComment } from './features/pr-comment.js';
import { manifestIdentity } from './features/comment-marker.js';
import { withRunUrl } from './features/context.js';
import {
  commentOffPullRequest,
  forAgents,
  gitHubApi,
  Lazy,
  reachable,
  type MakeHooks,
} from './hooks.js';
import type { GitHubSettings } from './inputs.js';

export type PlanSettings = Pick<GitHubSettings, 'token' | 'comment'>;

type Context = Parameters<MakeHooks>[0];
type Dependencies = Parameters<MakeHooks>[1];

/** Where a plan's comment goes, and the comment, made on first use; none off a pull request. */
function planCommentAt(
  settings: PlanSettings,
  context: Context,
  dependencies: Dependencies,
  carriesMarker: ConstructorParameters<typeof PullRequestComment>[4],
) {
  const { logger, redact } = dependencies;
  commentOffPullRequest(settings.comment, context, logger);
  const pullRequest = settings.comment ? context?.pullRequest : undefined;
  const wanted = [pullRequest === undefined ? undefined : 'the pull request comment'];
  const at = reachable(settings.token, context, logger, wanted);
  if (at === undefined || pullRequest === undefined) return undefined;
  const made = new Lazy(() => {
    const api = gitHubApi(settings.token, at, dependencies);
    const where = { repository: at.repository, pullRequest };
    return { api, comment: new PullRequestComment(api, where, logger, redact, carriesMarker) };
  });
  return { at, made };
}

export function planHooks(settings: PlanSettings, manifest?: ManifestOnGitHub): MakeHooks {
  return manifest === undefined ? flatHooks(settings) : keyedHooks(settings, manifest);
}

function flatHooks(settings: PlanSettings): MakeHooks {
  return (context, dependencies) => {
    const target = planCommentAt(settings, context, dependencies, carriesPlanMarker);
    if (target === undefined) return { api: undefined };
    const { at, made } = target;
    return {
      get api() {
        return made.made?.api;
      },
      view: (event) =>
        event.kind === 'planned'
          ? writePlanComment(made.value.comment, event.report, at, dependencies.redact)
          : undefined,
    };
  };
}

function keyedHooks(settings: PlanSettings, manifest: ManifestOnGitHub): MakeHooks {
  return (context, given) => {
    const { redact } = given;
    const dependencies = forAgents(given, manifest.agents.length);
    const target = planCommentAt(settings, context, dependencies, carriesKeyedPlanMarker);
    if (target === undefined) return { api: undefined };
    const { at, made } = target;
    const reports = new Map<string, PlanReport | PlanNotMade>();
    const identity = manifestIdentity(manifest);
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
        keyedPlanCommentBody(manifest, states, comment.body, withRunUrl({ redact }, at.runUrl)),
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
