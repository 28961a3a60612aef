/**
 * The reports the core's events carry (events.ts: `deployed`, `finished`,
 * `planned`), and the two questions it may ask its runner: which of two
 * commits is newer, and to retire a preview where it was shown. The adapter
 * (the GitHub side, for instance) decides what to do with them; the core
 * neither waits on them nor fails because of them beyond what the adapter
 * bounds.
 */
import type { DriftEntry, HealthSeen, Verdict } from './findings.js';
import type { Deployment } from '../../service/schemas.js';

/** Where the run stands: found or created and going on, or how it ended. */
export type Stage = 'deploying' | 'live' | 'not-live' | 'failed' | 'cancelled';

/** The run in the core's words: nothing here knows where it runs. */
export interface RunReport {
  /** The deployment's name, as the step asked for it. */
  name: string;
  stage: Stage;
  id?: string;
  status?: string;
  created?: boolean;
  /** The commit the step wants live, and the one the latest revision is for. */
  targetCommit?: string;
  liveCommit?: string;
  /**
   * The revision that still serves while the latest one is not active (its
   * build failed, or has not finished), and its commit when the run saw it
   * live: a failed deploy leaves it running.
   */
  stillLive?: { revision: string; commit?: string };
  /** A newer commit that superseded the target (live instead of it, or awaited instead of it). */
  supersededBy?: string;
  /** What the step waits for, or why the deployment is not live ("not live yet"). */
  waitingFor?: string;
  /** Not live, and waiting would not change it: it will not run what the step asks for. */
  never?: boolean;
  /** Why the run failed, already redacted. */
  failure?: string;
  /** Differences of a reused deployment; secret values already `***`. */
  drift: readonly DriftEntry[];
  /** The deployment's own address (`source_config.custom_url`). */
  url?: string;
  /** What the health check answered last, when one was made (its address without query). */
  health?: HealthSeen;
  /** The filled `dashboard-url`. */
  dashboardUrl?: string;
}

/**
 * How `latest` stands against `target`: `newer` when `target` is its
 * ancestor, `older` when `latest` is behind it, undefined for anything else
 * (diverged, identical, unknown, an error).
 */
export type CommitOrder = 'newer' | 'older' | undefined;

/** Asks which commit is newer, in `repository` (`owner/name`); never throws, bounded by the adapter. */
export type AskCommitOrder = (
  repository: string,
  target: string,
  latest: string,
) => Promise<CommitOrder>;

/** The plan, for the adapter to show where reviewers read (the plan comment). */
export interface PlanReport {
  name: string;
  verdict: Verdict;
  /** The dashboard-url input's template, when given. */
  dashboardUrl?: string;
}

/**
 * A plan that could not be made (the service failed: a 401, a 5xx after the
 * retries, the network): no verdict, so that what the adapter showed for an
 * earlier commit stops speaking for this one.
 */
export interface PlanNotMade {
  name: string;
  /** Why, already redacted: the call, the status and the service's message. */
  failure: string;
  /** The commit the plan was for (a full sha), when the run knows it. */
  head?: string;
}

/** A deployment a retired preview still has in the service, and where to delete it. */
export interface RetiredDeployment {
  deployment: Deployment;
  /** Its dashboard address (the `dashboard-url` template filled), when given. */
  dashboardUrl?: string;
}

/** A retired preview, for the adapter to end its life where it was shown (GitHub's records and comment). */
export interface RetireReport {
  /** The preview's deployment name. */
  name: string;
  /**
   * The deployments that have the name, each still existing in the service:
   * the retire step's one or none; every one of a sweep's orphans of one pull
   * request (the service may hold several under one name), retired together.
   */
  deployments: readonly RetiredDeployment[];
  /**
   * The sweep's: the preview's pull request and environment, for each orphan
   * (the retire step's come from its event and its `environment` input).
   */
  pullRequest?: number;
  environment?: string;
  /**
   * The sweep's, with a manifest: the keys of the agents whose previews
   * these are. Their comment is the manifest's one, which a flat retire
   * leaves to a keyed one, once a pull request.
   */
  agents?: readonly string[];
}

/** What the adapter did to retire the preview, for the outputs and the summary. */
export interface Retirement {
  /** The environment whose records were marked, when one was given. */
  environment?: string;
  /** How many of its records were listed (more may exist past the page cap: `more`). */
  found: number;
  /** How many got their `inactive` status from this run (a refused call does not count). */
  inactive: number;
  /** How many already had it (an earlier retire or sweep): nothing was written to them. */
  alreadyInactive?: number;
  /** The listing stopped at its page cap: there are more records than `found`. */
  more: boolean;
  /**
   * The preview's comment: rewritten, already saying it is retired (not
   * written again), none to rewrite, not written (warned), or not asked for.
   */
  comment: 'rewritten' | 'unchanged' | 'none' | 'failed' | 'skipped';
}

/** One preview looked up, in a retire: its key (an agent's, or its name) and its report. */
export interface AgentRetireReport {
  key: string;
  report: RetireReport;
}

/** Previews retired together, once each was looked up (one whose lookup failed is absent). */
export interface PreviewsToRetire {
  /**
   * `flat`: each a preview of its own (its environment, its own comment);
   * `keyed`: a manifest's (each environment, the manifest's one comment).
   * The sweep's keyed ones are of one pull request, one an agent: only the
   * manifest's comment (their environments are its flat ones').
   */
  layout: 'flat' | 'keyed';
  reports: readonly AgentRetireReport[];
}

/** Retires the previews where the adapter showed them; each one's retirement by key; never throws. */
export type ReportRetired = (
  previews: PreviewsToRetire,
) => Promise<ReadonlyMap<string, Retirement>>;

/**
 * The largest number a pull request is asked by: GitHub's GraphQL `Int` is
 * 32 bits, and one number beyond it rejects the whole query. A name that
 * spells a larger one names no pull request GitHub can have.
 */
export const MAX_PULL_REQUEST_NUMBER = 2_147_483_647;

/**
 * How GitHub says a pull request stands; `unknown` when it knows no such
 * number, or when its answer is about another number (`answeredFor`), which
 * proves nothing about this one.
 */
export interface PullRequestState {
  number: number;
  state: 'open' | 'closed' | 'merged' | 'unknown';
  /** When it was closed or merged (ISO 8601), for `closed` and `merged`. */
  closedAt?: string;
  /** For `unknown`: the number GitHub's answer was about instead. */
  answeredFor?: number;
}

/**
 * The states of the workflow repository's pull requests `numbers` (each at
 * most `MAX_PULL_REQUEST_NUMBER`), batched (at most one request per 100). Unlike the other questions it throws, an
 * `ActionError` naming the permission (`pull-requests: read`), when GitHub
 * refuses or does not answer: without the states, nothing is an orphan.
 */
export type AskPullRequestStates = (
  numbers: readonly number[],
) => Promise<ReadonlyMap<number, PullRequestState>>;
