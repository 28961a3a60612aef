/**
 * What a manifest's deploy tells GitHub, as its agents go: the records of
 * its environments (deployment-record.ts) and its one pull request comment
 * (comment.ts), at most two writes of it for the whole step: one once
 * every agent is deployed or over, one when all are over. Every write waits
 * for the one before it (no burst of writes at once, under GitHub's
 * secondary rate limits). Advisory: it warns, it never throws, and its time
 * is bounded by the run's budget.
 */
import type { GitHubApi } from '../client/api.js';
import type { CallOptions } from '../client/calls.js';
import type { Logger } from '../../common/runtime.js';
import type { RunReport } from '../../run/ports/progress.js';
import { agentsCommentBody, type AgentState } from './comment.js';
import { carriesManifestMarker, manifestIdentity } from './comment-marker.js';
import type { GitHubRunContext } from './context.js';
import { CANCEL_GRACE_MS, CANCEL_WINDOW_MS, type DeployWanted } from './deploy-report.js';
import {
  DeploymentRecord,
  recordGroups,
  SharedRecord,
  type AgentOnGitHub,
  type ManifestOnGitHub,
  type RecordContext,
} from './deployment-record.js';
import { PullRequestComment } from './pr-comment.js';

export interface AgentsReportParts {
  logger: Logger;
  redact: (text: string) => string;
  /** Called as records are made: each agent's key and the id of the record covering it. */
  onRecorded?: (ids: ReadonlyMap<string, number>) => void;
}

/** One environment's record: a single deploy's for an agent alone, else a shared one. */
interface Group {
  agents: readonly AgentOnGitHub[];
  record: DeploymentRecord | SharedRecord;
  started: boolean;
  finished: boolean;
}

export class AgentsReport {
  readonly #manifest: ManifestOnGitHub;
  readonly #states = new Map<string, AgentState>();
  readonly #groups: Group[] = [];
  readonly #comment: PullRequestComment | undefined;
  readonly #parts: AgentsReportParts;
  readonly #runUrl: string | undefined;
  readonly #ids = new Map<string, number>();
  /** Ends calls still under way when the run is cancelled, so the last writes go at once. */
  readonly #work = new AbortController();
  #queue: Promise<void> = Promise.resolve();
  #firstWrite = false;
  #ended = false;
  #cancelled = false;

  constructor(
    api: GitHubApi,
    context: GitHubRunContext,
    manifest: ManifestOnGitHub,
    wanted: DeployWanted,
    parts: AgentsReportParts,
  ) {
    this.#manifest = manifest;
    this.#parts = parts;
    this.#runUrl = context.runUrl;
    for (const agent of manifest.agents) this.#states.set(agent.key, { agent, over: false });
    for (const [environment, agents] of recordGroups(manifest, wanted.environment)) {
      const at: RecordContext = {
        repository: context.repository,
        sha: context.sha,
        environment,
        transient: context.pullRequest !== undefined,
        ...(context.runUrl === undefined ? {} : { runUrl: context.runUrl }),
      };
      const record =
        agents.length === 1
          ? new DeploymentRecord(api, at, parts.redact)
          : new SharedRecord(api, at, agents, parts.redact);
      this.#groups.push({ agents, record, started: false, finished: false });
    }
    if (wanted.comment && context.pullRequest !== undefined) {
      const where = { repository: context.repository, pullRequest: context.pullRequest };
      this.#comment = new PullRequestComment(
        api,
        where,
        parts.logger,
        parts.redact,
        carriesManifestMarker,
      );
    }
  }

  /** Each agent's key and the id of the record covering it, as recorded so far. */
  get recordIds(): ReadonlyMap<string, number> {
    return this.#ids;
  }

  /** The agent's deployment was found or created: its record starts once each of its agents' is. */
  deployed(key: string, report: RunReport): void {
    const state = this.#states.get(key);
    if (state === undefined || this.#ended) return;
    state.report = report;
    this.#maybeStart(this.#groupOf(key));
    this.#maybeFirstWrite();
  }

  /** How the agent's run ended (a cancelled run ends the others' calls under way at the end). */
  finished(key: string, report: RunReport): void {
    const state = this.#states.get(key);
    if (state === undefined) return;
    state.report = report;
    if (report.stage === 'cancelled') this.#cancelled = true;
  }

  /** The agent is over: its record ends when all of its agents are, the comment when all are. */
  async over(key: string, failure?: string): Promise<void> {
    const state = this.#states.get(key);
    if (state === undefined) return;
    state.over = true;
    if (failure !== undefined) state.failure = failure;
    this.#maybeStart(this.#groupOf(key));
    this.#maybeFirstWrite();
    await this.#settle();
  }

  /** Every agent is over, whatever was heard of each. */
  async allOver(): Promise<void> {
    for (const state of this.#states.values()) state.over = true;
    for (const group of this.#groups) this.#maybeStart(group);
    await this.#settle();
  }

  /**
   * Starts the group's record once every agent of it is found or created, or
   * over without a deployment (its id then null in a shared record's
   * payload); never for a group none of whose agents has a deployment.
   */
  #maybeStart(group: Group | undefined): void {
    if (group === undefined || group.started || this.#ended) return;
    const states = group.agents.map((agent) => this.#states.get(agent.key));
    if (!states.every((state) => state?.report !== undefined || state?.over === true)) return;
    if (!states.some((state) => state?.report !== undefined)) return;
    group.started = true;
    this.#serial((options) => this.#start(group, options));
  }

  async #settle(): Promise<void> {
    const options = await this.#endOptions();
    for (const group of this.#groups) {
      if (group.finished || !group.agents.every((agent) => this.#states.get(agent.key)?.over)) {
        continue;
      }
      group.finished = true;
      this.#serial(() => this.#finish(group, options));
    }
    const states = [...this.#states.values()];
    if (!this.#ended && states.every((state) => state.over)) {
      this.#ended = true;
      // A cancelled run has no time to look for the comment: it updates one it already has.
      if (!this.#cancelled || this.#comment?.commentId !== undefined) {
        this.#serial(() => this.#writeComment(options));
      }
    }
    await this.#queue;
  }

  /** The calls' options at the end: a cancelled run ends what is under way, briefly, and hurries. */
  async #endOptions(): Promise<CallOptions> {
    if (!this.#cancelled) return {};
    if (!this.#work.signal.aborted) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.#queue,
        new Promise((resolve) => (timer = setTimeout(resolve, CANCEL_GRACE_MS))),
      ]);
      clearTimeout(timer);
      this.#work.abort();
    }
    return { callMs: CANCEL_WINDOW_MS };
  }

  #maybeFirstWrite(): void {
    if (this.#firstWrite || this.#ended || this.#comment === undefined) return;
    const states = [...this.#states.values()];
    if (!states.every((state) => state.report !== undefined || state.over)) return;
    if (states.every((state) => state.over)) return;
    this.#firstWrite = true;
    this.#serial((options) => this.#writeComment(options));
  }

  /** Runs `task` once every write before it is done. */
  #serial(task: (options: CallOptions) => Promise<void>): void {
    const options: CallOptions = { signal: this.#work.signal };
    this.#queue = this.#queue.then(() => task(options)).catch(() => undefined);
  }

  #groupOf(key: string): Group | undefined {
    return this.#groups.find((group) => group.agents.some((agent) => agent.key === key));
  }

  async #start(group: Group, options: CallOptions): Promise<void> {
    const { record } = group;
    const ids = new Map<string, string>();
    for (const agent of group.agents) {
      const id = this.#states.get(agent.key)?.report?.id;
      if (id !== undefined) ids.set(agent.key, id);
    }
    if (record instanceof DeploymentRecord) {
      const report = this.#states.get(group.agents[0]?.key ?? '')?.report;
      if (report === undefined) return;
      await record.start(report, options);
    } else await record.start(ids, options);
    if (record.id === undefined) return;
    for (const agent of group.agents) this.#ids.set(agent.key, record.id);
    this.#parts.onRecorded?.(this.#ids);
  }

  async #finish(group: Group, options: CallOptions): Promise<void> {
    const { record } = group;
    if (record instanceof SharedRecord) {
      await record.finish(
        group.agents.map((agent) => ({ ...this.#states.get(agent.key), agent })),
        options,
      );
      return;
    }
    const state = this.#states.get(group.agents[0]?.key ?? '');
    if (state?.report === undefined) return;
    const failed = state.failure !== undefined && state.report.stage === 'deploying';
    await record.finish(
      failed ? { ...state.report, stage: 'failed', failure: state.failure } : state.report,
      options,
    );
  }

  async #writeComment(options: CallOptions): Promise<void> {
    const comment = this.#comment;
    if (comment === undefined) return;
    const states = this.#manifest.agents.flatMap((agent) => {
      const state = this.#states.get(agent.key);
      return state === undefined ? [] : [state];
    });
    await comment.writeBody(
      manifestIdentity(this.#manifest),
      () =>
        agentsCommentBody(this.#manifest, states, comment.body, {
          redact: this.#parts.redact,
          ...(this.#runUrl === undefined ? {} : { runUrl: this.#runUrl }),
        }),
      options,
    );
  }
}
