/**
 * With a health check asked, a deployment otherwise live is live only while its address
 * answers `2xx` (with the expected text), checked at the wait's pace and shared by the agents
 * (address-pace.ts). Three `401`/`403` in a row end the wait (a wrong key does not heal); a
 * check needing a `url` the deployment lacks, or an address never asked, can never be made.
 * The log says each change of the answer, and every heartbeat while it fails.
 */
import { shownAddress } from '../../common/address.js';
import { formatDuration, type Clock, type Logger } from '../../common/runtime.js';
import type { HealthRequest } from '../../inputs/deploy-spec.js';
import { CHECK_TIMEOUT_MS, type CheckResult } from '../../service/address-check.js';
import { fillHealthCheck } from '../../service/health-address.js';
import type { ProxySettings } from '../../service/proxy.js';
import type { Deployment } from '../../service/schemas.js';
import type { AddressCheck } from '../ports/dependencies.js';
import type { EventSink } from '../ports/events.js';
import type { HealthSeen, Liveness } from '../ports/findings.js';

const REFUSALS_TO_GIVE_UP = 3;
export const NO_URL = 'health-check is set but the deployment has no custom_url';

interface ProbeDependencies {
  clock: Clock;
  logger: Logger;
  events?: EventSink;
  signal?: AbortSignal;
  proxy?: ProxySettings;
  heartbeatMs: number;
  addresses: AddressCheck;
  /** How the check's headers are given, for the message of a refused key. */
  headersWords: string;
}

export interface HealthJudge {
  judge(deployment: Deployment, otherwise: Liveness & { live: true }): Promise<Liveness>;
}

/** What the check answered, without its address and its body: `answers 200`, `503 Service Unavailable`, the network's error. */
export function healthAnswer(seen: HealthSeen): string {
  if (seen.ok) return `answers ${seen.status ?? ''}`.trimEnd();
  return seen.error ?? 'no answer';
}

type HealthWriter = Record<'text' | 'code', (value: string) => string>;

const AS_IS: HealthWriter = { text: (value) => value, code: (value) => value };

/** Every view's words: `https://agent.example/ok: 503 Service Unavailable; the answer begins: …`. */
export function healthWords(seen: HealthSeen, write: HealthWriter, separator = '; '): string {
  const where = seen.address === undefined ? '' : `${write.code(seen.address)}: `;
  const body =
    seen.ok || seen.excerpt === undefined
      ? ''
      : `${separator}the answer begins: ${write.code(seen.excerpt)}`;
  return `${where}${write.text(healthAnswer(seen))}${body}`;
}

export function healthLine(seen: HealthSeen): string {
  return `health check${seen.address === undefined ? ':' : ''} ${healthWords(seen, AS_IS)}`;
}

function answerKey(seen: HealthSeen): string {
  return JSON.stringify([seen.address ?? null, seen.ok, seen.status ?? null, seen.error ?? null]);
}

function seenOf(address: string, result: CheckResult): HealthSeen {
  const { ok, status, refused, bodyExcerpt: excerpt } = result;
  const error = ok ? undefined : result.error;
  return { address: shownAddress(address), ok, status, error, excerpt, refused };
}

export class HealthProbe implements HealthJudge {
  readonly #request: HealthRequest;
  readonly #dependencies: ProbeDependencies;
  readonly #deadline: number;
  #last: { address: string; at: number; seen: HealthSeen } | undefined;
  /** The answer said last: since when it is the answer, when last said. */
  #said: { key: string; since: number; at: number } | undefined;
  #refusedInARow = 0;

  /** `budgetMs`: the wait's length, or one check's. */
  constructor(request: HealthRequest, dependencies: ProbeDependencies, budgetMs: number) {
    this.#request = request;
    this.#dependencies = dependencies;
    this.#deadline = dependencies.clock.now() + budgetMs;
  }

  async judge(deployment: Deployment, otherwise: Liveness & { live: true }): Promise<Liveness> {
    const filled = fillHealthCheck(this.#request.check, deployment.source_config.custom_url);
    if (filled.kind === 'no-url') {
      const health: HealthSeen = { ok: false, error: NO_URL };
      this.#say(health);
      return { live: false, missing: NO_URL, final: true, health };
    }
    const health = await this.#answer(filled.address);
    if (health.ok) return { ...otherwise, health };
    const shown = health.address ?? 'the health check';
    // An address the check never asks does not become one by waiting.
    const missing = health.error ?? `${shown} is not checked`;
    if (health.refused === true) return { live: false, final: true, missing, health };

    if (this.#refusedInARow >= REFUSALS_TO_GIVE_UP) {
      return {
        live: false,
        final: true,
        missing: `${shown} answered ${health.status ?? ''} ${REFUSALS_TO_GIVE_UP} times in a row: it refuses the check's credentials, which a wait does not heal (send the agent server's key with ${this.#dependencies.headersWords})`,
        health,
      };
    }
    return {
      live: false,
      // The answer first: a live line cut at the terminal's edge keeps it.
      missing: `health check: ${health.error ?? 'no answer'} from ${shown}`,
      // Each agent has its own address: agents that get the same answer are named together.
      briefly: `health ${health.error ?? 'no answer'}`,
      health,
    };
  }

  async #answer(address: string): Promise<HealthSeen> {
    const { clock, signal, proxy, addresses } = this.#dependencies;
    // Whole seconds, so that an attempt cut short by the wait's end says `within 8 s`.
    const left = Math.floor((this.#deadline - clock.now()) / 1000) * 1000;
    const timeoutMs = Math.min(CHECK_TIMEOUT_MS, Math.max(left, 1_000));
    const { headers, expect } = this.#request;
    const { at, judgement } = await addresses(address, { headers, proxy, signal, timeoutMs });
    const last = this.#last;
    // An answer this probe has judged already (the tick's, or the last while the address is paced).
    if (last !== undefined && last.address === address && last.at === at) return last.seen;
    const seen = seenOf(address, judgement(expect));
    this.#refusedInARow = seen.status === 401 || seen.status === 403 ? this.#refusedInARow + 1 : 0;
    this.#last = { address, at, seen };
    this.#say(seen);
    return seen;
  }

  #say(seen: HealthSeen): void {
    const { clock, logger, events, heartbeatMs } = this.#dependencies;
    const key = answerKey(seen);
    const now = clock.now();
    const said = this.#said;
    if (said?.key === key) {
      if (seen.ok || now - said.at < heartbeatMs) return;
      logger.info(`${healthLine(seen)} (so for ${formatDuration(now - said.since)})`);
      this.#said = { ...said, at: now };
      return;
    }
    logger.info(healthLine(seen));
    events?.({
      kind: 'health',
      url: seen.address ?? null,
      httpStatus: seen.status ?? null,
      ok: seen.ok,
      error: seen.error,
    });
    this.#said = { key, since: now, at: now };
  }
}

/** Why a check asked for was not made: without a wait, the deployment was not live yet (a dry run or a wait: none). */
export function healthNotMade(
  asked: { health?: HealthRequest | undefined; dryRun?: boolean; waitForReady?: boolean },
  liveness: Liveness | undefined,
): string | undefined {
  const made = liveness === undefined || liveness.live || liveness.health !== undefined;
  if (asked.health === undefined || asked.dryRun === true || asked.waitForReady === true || made)
    return undefined;
  return 'the deployment is not live yet';
}
