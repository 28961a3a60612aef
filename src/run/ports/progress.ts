/**
 * The reports the core's events carry, and the questions it may ask its runner: the core
 * neither waits on them nor fails because of them beyond what the adapter bounds.
 */
import type { DriftEntry, HealthSeen, Verdict } from './findings.js';
import type { Deployment } from '../../service/schemas.js';

export type Stage = 'deploying' | 'live' | 'not-live' | 'failed' | 'cancelled';

/** The run in the core's words: nothing here knows where it runs. */
export interface RunReport {
  name: string;
  stage: Stage;
  id?: string;
  status?: string;
  created?: boolean;
  /** The commit the step wants live, and the one the latest revision is for. */
  targetCommit?: string;
  liveCommit?: string;
  /**
   * The revision that still serves while the latest one is not active, and its commit when
   * the run saw it live: a failed deploy leaves it running.
   */
  stillLive?: { revision: string; commit?: string };
  /** A newer commit live, or awaited, instead of the target. */
  supersededBy?: string;
  /** What the step waits for, or why the deployment is not live. */
  waitingFor?: string;
  /** Not live, and waiting would not change it. */
  never?: boolean;
  /** Already redacted. */
  failure?: string;
  /** A reused deployment's differences; secret values already `***`. */
  drift: readonly DriftEntry[];
  /** `source_config.custom_url`. */
  url?: string;
  health?: HealthSeen;
  /** The filled `dashboard-url`. */
  dashboardUrl?: string;
}

/**
 * `newer` when `target` is an ancestor of `latest`, `older` when `latest` is behind it,
 * undefined for anything else (diverged, identical, unknown, an error).
 */
export type CommitOrder = 'newer' | 'older' | undefined;

/** Which commit is newer, in `repository` (`owner/name`); never throws, bounded by the adapter. */
export type AskCommitOrder = (
  repository: string,
  target: string,
  latest: string,
) => Promise<CommitOrder>;

export interface PlanReport {
  name: string;
  verdict: Verdict;
  /** The dashboard-url template. */
  dashboardUrl?: string;
}

/**
 * A plan that could not be made (a 401, a 5xx after the retries, the network): no verdict, so
 * that what the adapter showed for an earlier commit stops speaking for this one.
 */
export interface PlanNotMade {
  name: string;
  /** Already redacted: the call, the status and the service's message. */
  failure: string;
  /** The full sha the plan was for. */
  head?: string;
}

export interface RetiredDeployment {
  deployment: Deployment;
  dashboardUrl?: string;
}

/** A retired preview, for the adapter to end its life where it was shown. */
export interface RetireReport {
  name: string;
  /**
   * Each still existing in the service: the retire step's one or none; every one of a sweep's
   * orphans of one pull request (the service may hold several under one name).
   */
  deployments: readonly RetiredDeployment[];
  /** The sweep's (the retire step's come from its event and its `environment` input). */
  pullRequest?: number;
  environment?: string;
  /**
   * The sweep's, with a manifest: whose previews these are. Their comment is the manifest's
   * one, which a flat retire leaves to a keyed one, once a pull request.
   */
  agents?: readonly string[];
}

/** What the adapter did to retire the preview. */
export interface Retirement {
  environment?: string;
  /** Records listed (more may exist past the page cap: `more`). */
  found: number;
  /** Records marked `inactive` by this run (a refused call does not count). */
  inactive: number;
  /** Records already `inactive`: nothing was written to them. */
  alreadyInactive?: number;
  more: boolean;
  /** `unchanged`: already says it is retired; `failed`: warned; `skipped`: not asked for. */
  comment: 'rewritten' | 'unchanged' | 'none' | 'failed' | 'skipped';
}

/** One preview looked up: its key (an agent's, or its name) and its report. */
export interface AgentRetireReport {
  key: string;
  report: RetireReport;
}

/** Previews retired together, once each was looked up (one whose lookup failed is absent). */
interface PreviewsToRetire {
  /**
   * `flat`: each a preview of its own (its environment, its own comment); `keyed`: a
   * manifest's (each environment, the manifest's one comment). The sweep's keyed ones are of
   * one pull request, one an agent: only the manifest's comment.
   */
  layout: 'flat' | 'keyed';
  reports: readonly AgentRetireReport[];
}

/** Each one's retirement by key; never throws. */
export type ReportRetired = (
  previews: PreviewsToRetire,
) => Promise<ReadonlyMap<string, Retirement>>;

/**
 * GitHub's GraphQL `Int` is 32 bits, and one number beyond it rejects the whole query: a name
 * that spells a larger one names no pull request GitHub can have.
 */
export const MAX_PULL_REQUEST_NUMBER = 2_147_483_647;

/**
 * `unknown` when GitHub knows no such number, or when its answer is about another number
 * (`answeredFor`), which proves nothing about this one.
 */
export interface PullRequestState {
  number: number;
  state: 'open' | 'closed' | 'merged' | 'unknown';
  /** ISO 8601, for `closed` and `merged`. */
  closedAt?: string;
  answeredFor?: number;
}

/**
 * The states of the workflow repository's pull requests (each at most
 * `MAX_PULL_REQUEST_NUMBER`), at most one request per 100. Unlike the other questions it
 * throws, an `ActionError` naming `pull-requests: read`, when GitHub refuses or does not
 * answer: without the states, nothing is an orphan.
 */
export type AskPullRequestStates = (
  numbers: readonly number[],
) => Promise<ReadonlyMap<number, PullRequestState>>;
