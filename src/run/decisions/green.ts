/**
 * Whether a deployment's run leaves the step green: a pure function of what the run found and
 * the step's policy. Red, in this order: blocking drift when the step waits or fails on drift;
 * `on-drift: fail` and any difference; the wait ended not live; without a wait, a deployment
 * that will never be live (a health check that cannot be made). Not live yet without a wait is
 * green: the step did not ask to wait.
 */
import { untrusted } from '../../common/runtime.js';
import { plural } from '../../common/text.js';
import type { RemedyWords } from '../../service/answers.js';
import type { Liveness } from '../ports/findings.js';
import { blockedIn, blockedRemedy, blockedText, type Goal } from './goal.js';

export interface StepPolicy {
  /** `wait-for-ready`, and no dry run. */
  waits: boolean;
  onDrift: 'warn' | 'fail';
}

export interface Findings {
  name: string;
  goal?: Pick<Goal, 'drift' | 'asker'>;
  /** As found, or as the wait left it. */
  liveness?: Liveness;
  waitFailure?: string;
}

export const differences = (count: number) => `${count} ${plural(count, 'difference')}`;

export function driftAdvice(count: number): string {
  return `The service cannot update a deployment: change ${plural(count, 'it', 'them')} in the service, or deploy under a new name.`;
}

export function neverLive(name: string, goal: Pick<Goal, 'drift' | 'asker'>): string {
  return `Deployment '${name}' is not live and will not be: ${blockedText(goal)}. ${blockedRemedy(goal)}`;
}

export function unappliedFields(goal: Pick<Goal, 'drift'>): string[] {
  return goal.drift.filter((entry) => !entry.blocks).map((entry) => untrusted(entry.field));
}

export function unappliedLine(fields: readonly string[]): string {
  return `${differences(fields.length)} not applied: ${fields.join(', ')}. ${driftAdvice(fields.length)}`;
}

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

/** Why the step fails on this deployment, in its words; undefined when green. */
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
