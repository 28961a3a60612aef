/**
 * Green as one function (src/run/decisions/green.ts): each row a deployment's findings and a
 * step's policy, and whether the step fails on it, in which words.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_WORDS } from '../../../src/service/answers.ts';
import { stepFailure, type Findings, type StepPolicy } from '../../../src/run/decisions/green.ts';
import type { Drift, Liveness } from '../../../src/run/ports/findings.ts';

const field = (name: string, blocks = false): Drift => ({
  kind: 'field',
  field: name,
  wanted: 'asked',
  live: 'runs',
  blocks,
});
const unbuilt: Drift = {
  kind: 'unbuilt',
  field: 'commit',
  wanted: 'b'.repeat(40),
  live: 'a'.repeat(40),
  blocks: true,
};
const LIVE: Liveness = { live: true };
const PENDING: Liveness = { live: false, missing: 'status is DEPLOYING, not READY' };
const NO_URL: Liveness = {
  live: false,
  final: true,
  missing: 'its health check cannot be made: the deployment has no url',
  health: { ok: false, error: 'no url' },
};
const UNHEALTHY: Liveness = {
  live: false,
  missing: 'health check answered 503',
  health: { ok: false, status: 503 },
};

const WAITS: StepPolicy = { waits: true, onDrift: 'warn' };
const NO_WAIT: StepPolicy = { waits: false, onDrift: 'warn' };
const FAILS: StepPolicy = { waits: false, onDrift: 'fail' };

const found = (drift: Drift[], liveness?: Liveness, waitFailure?: string): Findings => ({
  name: 'app',
  goal: { drift },
  ...(liveness && { liveness }),
  ...(waitFailure !== undefined && { waitFailure }),
});

const NEVER = /^Deployment 'app' is not live and will not be: /;
const DIFFERS =
  "Deployment 'app' differs from what the step asks for (on-drift: fail): resources. The service cannot update a deployment: change it in the service, or deploy under a new name.";

describe('stepFailure', () => {
  const rows: [string, Findings, StepPolicy, string | RegExp | undefined][] = [
    ['live, waited', found([], LIVE), WAITS, undefined],
    ['not live yet, no wait', found([], PENDING), NO_WAIT, undefined],
    ['not found yet (before the wait)', { name: 'app' }, WAITS, undefined],
    ['a difference, on-drift warn', found([field('resources')], LIVE), WAITS, undefined],
    ['a difference, on-drift fail', found([field('resources')], LIVE), FAILS, DIFFERS],
    ['a blocking difference, waiting', found([field('agent_config_path', true)]), WAITS, NEVER],
    [
      'a blocking difference, no wait',
      found([field('agent_config_path', true)]),
      NO_WAIT,
      undefined,
    ],
    ['an unbuilt commit, on-drift fail', found([unbuilt]), FAILS, NEVER],
    [
      'the wait ended without it',
      found([], PENDING, 'not live after 1.0 s'),
      WAITS,
      'not live after 1.0 s',
    ],
    [
      'no wait, a check that cannot be made',
      found([], NO_URL),
      NO_WAIT,
      "Deployment 'app' is not live: its health check cannot be made: the deployment has no url.",
    ],
    ['no wait, a check answered 503', found([], UNHEALTHY), NO_WAIT, undefined],
  ];
  for (const [what, findings, policy, expected] of rows) {
    it(what, () => {
      const failure = stepFailure(findings, policy, ACTION_WORDS);
      if (expected === undefined) expect(failure).toBeUndefined();
      else if (typeof expected === 'string') expect(failure).toBe(expected);
      else expect(failure).toMatch(expected);
    });
  }

  it('names the other differences too when a blocking one fails on-drift: fail', () => {
    const failure = stepFailure(
      found([field('agent_config_path', true), field('resources'), field('secrets')]),
      FAILS,
      ACTION_WORDS,
    );
    expect(failure).toMatch(NEVER);
    expect(failure).toMatch(/ It also differs \(on-drift: fail\): resources, secrets\.$/);
  });

  it('fails on drift before it says how the wait ended', () => {
    expect(
      stepFailure(found([field('resources')], PENDING, 'timed out'), FAILS, ACTION_WORDS),
    ).toBe(DIFFERS);
  });
});
