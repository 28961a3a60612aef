/**
 * What a deploy tells GitHub, as its agents go: the records and the pull
 * request comment; without a manifest, a manifest of one laid out `flat`.
 * The comment is written at most twice (all deployed or over, all over);
 * each write waits for the ones before it (GitHub's secondary rate limits).
 * Advisory: it warns, never throws, within the run's budget.
 */
import type { GitHubApi } from '../client/api.js';
import type { CallOptions } from '../client/calls.js';
import type { Logger } from '../../common/runtime.js';
import type { RunReport } from '../../run/ports/progress.js';
import { agentsCommentBody, commentBody, type AgentState } from './comment.js';
import { carriesManifestMarker, carriesMarker, manifestIdentity } from './comment-marker.js';
import { withRunUrl, type GitHubRunContext } from './context.js';
import {
  DeploymentRecord,
  finalStatus,
  recordGroups,
  sharedStart,
  sharedStatus,
  singleStart,
  type AgentOnGitHub,
  type ManifestOnGitHub,
  type RecordContext,
} from './deployment-record.js';
import { PullRequestComment } from './pr-comment.js';

/**
 * The runner sends SIGINT, SIGTERM 7.5 s later, then kills the step: calls
 * under way get `CANCEL_GRACE_MS` to finish, the last writes `CANCEL_WINDOW_MS`.
 */
const CANCEL_GRACE_MS = 1_000;
const CANCEL_WINDOW_MS = 2_500;

/** The key of a deploy's one agent when it has no manifest (its events carry none). */
export const FLAT_KEY = '';

const ONE: ManifestOnGitHub = {
  source: '',
  agents: [{ key: FLAT_KEY, name: '', deploymentName: '' }],
};

interface DeployWanted {
  environment: string;
  comment: boolean;
}

interface DeployReportParts {
  logger: Logger;
  redact: (text: string) => string;
  onRecorded?: (id: number) => void;
}

interface Group {
  agents: readonly AgentOnGitHub[];
  record: DeploymentRecord;
  started: boolean;
  finished: boolean;
}

/** Each method is safe to call in any order, any number of times. */
export class DeployReport {
  readonly #manifest: ManifestOnGitHub;
  readonly #layout: 'flat' | 'keyed';
  readonly #states = new Map<string, AgentState>();
  readonly #groups: Group[] = [];
  readonly #comment: PullRequestComment | undefined;
  readonly #parts: DeployReportParts;
  readonly #runUrl: string | undefined;
  readonly #ids = new Map<string, number>();
  /** Ends calls still under way when the run is cancelled, so the last writes go at once. */
  readonly #work = new AbortController();
  #queue: Promise<void> = Promise.resolve();
  /** What a write waits for: every one before it (flat: the record's and the comment's go together). */
  #after: Promise<void> = Promise.resolve();
  #firstWrite = false;
  #ended = false;
  #cancelled = false;

  constructor(
    api: GitHubApi,
    context: GitHubRunContext,
    wanted: DeployWanted,
    parts: DeployReportParts,
    manifest?: ManifestOnGitHub,
  ) {
    this.#layout = manifest === undefined ? 'flat' : 'keyed';
    this.#manifest = manifest ?? ONE;
    this.#parts = parts;
    this.#runUrl = context.runUrl;
    for (const agent of this.#manifest.agents) this.#states.set(agent.key, { agent, over: false });
    const groups =
      manifest === undefined
        ? new Map(wanted.environment === '' ? [] : [[wanted.environment, ONE.agents]])
        : recordGroups(manifest, wanted.environment);
    for (const [environment, agents] of groups) {
      const { repository, sha, pullRequest, runUrl } = context;
      const transient = pullRequest !== undefined;
      const at: RecordContext = withRunUrl({ repository, sha, environment, transient }, runUrl);
      const record = new DeploymentRecord(api, at, parts.redact);
      this.#groups.push({ agents, record, started: false, finished: false });
    }
    if (wanted.comment && context.pullRequest !== undefined) {
      const where = { repository: context.repository, pullRequest: context.pullRequest };
      const carries = manifest === undefined ? carriesMarker : carriesManifestMarker;
      this.#comment = new PullRequestComment(api, where, parts.logger, carries);
    }
  }

  get recordIds(): ReadonlyMap<string, number> {
    return this.#ids;
  }

  /** The pull request does not change it: no record, its row says so. */
  skipped(key: string): void {
    const state = this.#states.get(key);
    if (state !== undefined) state.skipped = true;
  }

  /** Its record starts once each of its agents' deployment is found or created. */
  deployed(report: RunReport, key = FLAT_KEY): void {
    const state = this.#states.get(key);
    if (state === undefined || this.#ended) return;
    state.report = report;
    this.#after = this.#queue;
    this.#maybeStart(this.#groupOf(key));
    this.#maybeFirstWrite();
  }

  /** A cancelled run ends the others' calls under way at the end; a flat deploy is then over. */
  async finished(report: RunReport, key = FLAT_KEY): Promise<void> {
    const state = this.#states.get(key);
    if (state === undefined) return;
    state.report = report;
    if (report.stage === 'cancelled') this.#cancelled = true;
    if (this.#layout === 'flat') await this.over(key);
  }

  /** Its record ends when all of its agents are over, the comment when all are. */
  async over(key: string, failure?: string): Promise<void> {
    const state = this.#states.get(key);
    if (state === undefined) return;
    state.over = true;
    if (failure !== undefined) state.failure = failure;
    this.#maybeStart(this.#groupOf(key));
    this.#maybeFirstWrite();
    await this.#settle();
  }

  async allOver(): Promise<void> {
    for (const state of this.#states.values()) state.over = true;
    for (const group of this.#groups) this.#maybeStart(group);
    await this.#settle();
  }

  /** Once every agent is found or over (its id then null); never when none has a deployment. */
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
    this.#after = this.#queue;
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

  /** A cancelled run ends what is under way, briefly, and hurries. */
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

  /** Runs `task` once every write before it is done (flat: but those of the same moment). */
  #serial(task: (options: CallOptions) => Promise<void>): void {
    const options: CallOptions = { signal: this.#work.signal };
    const run = this.#after.then(() => task(options)).catch(() => undefined);
    this.#queue = Promise.all([this.#queue, run]).then(() => undefined);
    if (this.#layout === 'keyed') this.#after = this.#queue;
  }

  #groupOf(key: string): Group | undefined {
    return this.#groups.find((group) => group.agents.some((agent) => agent.key === key));
  }

  /** A group's agents this run deploys: one the pull request does not change has no record. */
  #deployed(agents: readonly AgentOnGitHub[]): AgentOnGitHub[] {
    return agents.filter((agent) => this.#states.get(agent.key)?.skipped !== true);
  }

  async #start(group: Group, options: CallOptions): Promise<void> {
    const { record } = group;
    const agents = this.#deployed(group.agents);
    const reports = agents.map((agent) => this.#states.get(agent.key)?.report);
    if (agents.length > 1) {
      const ids = new Map(agents.map((agent, at) => [agent.key, reports[at]?.id]));
      await record.start(sharedStart(agents, ids), options);
    } else if (reports[0] !== undefined) await record.start(singleStart(reports[0]), options);
    if (record.id === undefined) return;
    for (const agent of agents) this.#ids.set(agent.key, record.id);
    this.#parts.onRecorded?.(record.id);
  }

  async #finish(group: Group, options: CallOptions): Promise<void> {
    const { record } = group;
    const agents = this.#deployed(group.agents);
    if (agents.length > 1) {
      const ends = agents.map((agent) => ({ ...this.#states.get(agent.key), agent }));
      await record.finish(sharedStatus(ends), undefined, options);
      return;
    }
    const state = this.#states.get(agents[0]?.key ?? '');
    if (state?.report === undefined) return;
    const failed = state.failure !== undefined && state.report.stage === 'deploying';
    const report: RunReport = failed
      ? { ...state.report, stage: 'failed', failure: state.failure }
      : state.report;
    await record.finish(finalStatus(report), report, options);
  }

  async #writeComment(options: CallOptions): Promise<void> {
    const comment = this.#comment;
    if (comment === undefined) return;
    if (this.#layout === 'flat') {
      const report = this.#states.get(FLAT_KEY)?.report;
      if (report === undefined) return;
      const body = () => commentBody(withRunUrl(report, this.#runUrl), this.#parts.redact);
      await comment.writeBody(report.name, body, options);
      return;
    }
    // In the manifest's order: each agent's state was set, in it, when the report was made.
    const states = [...this.#states.values()];
    await comment.writeBody(
      manifestIdentity(this.#manifest),
      () =>
        agentsCommentBody(
          this.#manifest,
          states,
          comment.body,
          withRunUrl({ redact: this.#parts.redact }, this.#runUrl),
        ),
      options,
    );
  }
}
