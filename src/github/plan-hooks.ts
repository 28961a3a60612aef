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

type PlanSettings = Pick<GitHubSettings, 'token' | 'comment'>;

/** The hooks of a plan: of one deployment, or, given its manifest, of every agent. */
export function planHooks(settings: PlanSettings, manifest?: ManifestOnGitHub): MakeHooks {
  return (context, given) => {
    const dependencies = forAgents(given, manifest?.agents.length);
    const { logger, redact } = dependencies;
    commentOffPullRequest(settings.comment, context, logger);
    const pullRequest = settings.comment ? context?.pullRequest : undefined;
    const wanted = [pullRequest === undefined ? undefined : 'the pull request comment'];
    const at = reachable(settings.token, context, logger, wanted);
    if (at === undefined || pullRequest === undefined) return {};
    const carries = manifest === undefined ? carriesPlanMarker : carriesKeyedPlanMarker;
    const made = new Lazy(() => {
      const api = gitHubApi(settings.token, at, dependencies);
      const where = { repository: at.repository, pullRequest };
      return { api, comment: new PullRequestComment(api, where, logger, carries) };
    });
    const reports = new Map<string, PlanReport | PlanNotMade>();
    const write = async (keyed: ManifestOnGitHub): Promise<void> => {
      const states: AgentPlanState[] = [];
      for (const { key, deploymentName } of keyed.agents) {
        const report = reports.get(key);
        if (report === undefined) return;
        const head = at.sha === '' || 'verdict' in report ? {} : { head: at.sha };
        states.push({ key, deploymentName, report: { ...head, ...report } });
      }
      const { comment } = made.value;
      await comment.writeBody(manifestIdentity(keyed), () =>
        keyedPlanCommentBody(keyed, states, comment.body, withRunUrl({ redact }, at.runUrl)),
      );
    };
    return {
      api: () => made.made?.api,
      view: (event) => {
        if (manifest === undefined) {
          return event.kind === 'planned'
            ? writePlanComment(made.value.comment, event.report, at, redact)
            : undefined;
        }
        if (event.kind === 'planned' && event.agent !== undefined) {
          reports.set(event.agent, event.report);
        } else if (event.kind === 'agents_over') return write(manifest);
      },
    };
  };
}
