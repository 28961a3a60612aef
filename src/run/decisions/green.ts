/**
 * Whether a deployment's run leaves the step green: one pure function of what the run found
 * and the step's policy (whether it waits, `on-drift`). A deployment that is not live is a
 * value the run found, not an exception; this says what it means for the step, and in which
 * words it fails.
 *
 * Red, in this order: a difference blocks what runs (the deployment will never run what the
 * step asks for) and the step waits or fails on drift; `on-drift: fail` and any difference;
 * the wait ended without the deployment live; without a wait, it will never be live (a health
 * check asked for that cannot be made). A deployment not live yet, without a wait, is green:
 * the step did not ask to wait.
 */
import { untrusted } from '../../common/runtime.js';
import { plural } from '../../common/text.js';
import type { RemedyWords } from '../../service/answers.js';
import type { Liveness } from '../ports/findings.js';
import { blockedIn, blockedRemedy, blockedText, type Goal } from './goal.js';

/** What the step asks of a deployment's run beyond deploying it. */
export interface StepPolicy {
  /** It waits until the deployment is live (`wait-for-ready`, and no dry run). */
  waits: boolean;
  /** `on-drift`: whether a difference not applied fails the step. */
  onDrift: 'warn' | 'fail';
}

/** What the run found of one deployment, as far as it got. */
export interface Findings {
  name: string;
  /** What the deployment differs in, once it was found. */
  goal?: Pick<Goal, 'drift' | 'asker'>;
  /** How live it is: as found, or as the wait left it. */
  liveness?: Liveness;
  /** Why the wait ended without the deployment live, when it did. */
  waitFailure?: string;
}

/** `count` differences, the noun agreeing: `1 difference`, `2 differences`. */
export const differences = (count: number) => `${count} ${plural(count, 'difference')}`;

/** The advice for differences the service cannot apply. */
export function driftAdvice(count: number): string {
  return `The service cannot update a deployment: change ${plural(count, 'it', 'them')} in the service, or deploy under a new name.`;
}

/** Says that the deployment will never run what the step asks for, and what to do. */
export function neverLive(name: string, goal: Pick<Goal, 'drift' | 'asker'>): string {
  return `Deployment '${name}' is not live and will not be: ${blockedText(goal)}. ${blockedRemedy(goal)}`;
}

/** The differences that do not block what runs, named by field. */
export function unappliedFields(goal: Pick<Goal, 'drift'>): string[] {
  return goal.drift.filter((entry) => !entry.blocks).map((entry) => untrusted(entry.field));
}

/** The line that says which differences were not applied (when the step goes on). */
export function unappliedLine(fields: readonly string[]): string {
  return `${differences(fields.length)} not applied: ${fields.join(', ')}. ${driftAdvice(fields.length)}`;
}

/** Why the differences fail the step, when they do. */
function driftFailure(
  name: string,
  goal: Pick<Goal, 'drift' | 'asker'>,
  policy: StepPolicy,
  words: Pick<RemedyWords, 'asker' | 'onDriftFail'>,
): string | undefined {
  const fails = policy.onDrift === 'fail';
  const fields = unappliedFields(goal);
  if (blockedIn(goal.drift).length > 0 && (policy.waits || fails)) {
    const also =
      fails && fields.length > 0
        ? ` It also differs (${words.onDriftFail}): ${fields.join(', ')}.`
        : '';
    return `${neverLive(name, goal)}${also}`;
  }
  if (!fails || fields.length === 0) return undefined;
  return `Deployment '${name}' differs from what ${words.asker} asks for (${words.onDriftFail}): ${fields.join(', ')}. ${driftAdvice(fields.length)}`;
}

/**
 * Why the step fails on this deployment, in the words it fails with; undefined when it is
 * green as far as the findings go.
 */
export function stepFailure(
  findings: Findings,
  policy: StepPolicy,
  words: Pick<RemedyWords, 'asker' | 'onDriftFail'>,
): string | undefined {
  const { name, goal, liveness } = findings;
  const drift = goal === undefined ? undefined : driftFailure(name, goal, policy, words);
  if (drift !== undefined) return drift;
  if (findings.waitFailure !== undefined) return findings.waitFailure;
  if (policy.waits || liveness === undefined || liveness.live) return undefined;
  const unhealthy = liveness.health !== undefined && !liveness.health.ok;
  return unhealthy && liveness.final === true
    ? `Deployment '${name}' is not live: ${liveness.missing}.`
    : undefined;
}
