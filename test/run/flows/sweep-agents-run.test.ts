/**
 * The sweep with a manifest in-process (src/run/flows/sweep-run.ts), over
 * real HTTP against the service emulator, the runner's GitHub questions answered by the test:
 * each agent's previews found by its own search, a name that two agents' patterns give left
 * alone as unknown, and an environment without `{agent}` retired once for the pull request's
 * previews of every agent, each report naming its agents; the manifest's one comment of a pull
 * request retired once for all its agents, after its environments.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readInputs } from '../../../src/inputs/declare.ts';
import { sweepRequest } from '../../../src/inputs/sweep-inputs.ts';
import type {
  AgentRetireReport,
  PullRequestState,
  RetireReport,
  Retirement,
} from '../../../src/run/ports/progress.ts';
import { runSweep } from '../../../src/run/flows/sweep-run.ts';
import { SWEEP_INPUTS } from '../../../src/sweep.ts';
import { startEmulator, type Emulator } from '../../emulator/emulator.ts';
import { recordingRunner, retiredBy } from '../../support/recording-runner.ts';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator();
});
afterEach(async () => {
  await emu.close();
});

const CLOSED = '2026-11-02T10:00:00Z';

async function sweep(
  given: Record<string, string>,
  closed: readonly number[],
  manifestComment?: Retirement['comment'],
) {
  const retired: RetireReport[] = [];
  const comments: (readonly AgentRetireReport[])[] = [];
  const retiredAgents = (reports: readonly AgentRetireReport[]) => {
    comments.push(reports);
    const comment = manifestComment ?? 'skipped';
    return Promise.resolve(
      new Map(reports.map(({ key }) => [key, { found: 0, inactive: 0, more: false, comment }])),
    );
  };
  const run = { workspace: process.cwd(), commit: undefined, head: undefined };
  const values: Record<string, string | undefined> = { 'api-url': emu.url, ...given };
  const inputs = readInputs(SWEEP_INPUTS, (name) => values[name], run as never);
  const { io, outputs, logger } = recordingRunner(run, {
    retired: retiredBy(
      (report) => {
        retired.push(report);
        return Promise.resolve({ found: 1, inactive: 1, more: false, comment: 'skipped' });
      },
      manifestComment === undefined ? undefined : retiredAgents,
    ),
    pullRequestStates: (numbers: readonly number[]) =>
      Promise.resolve(
        new Map(
          numbers.map((number): [number, PullRequestState] => [
            number,
            closed.includes(number)
              ? { number, state: 'closed', closedAt: CLOSED }
              : { number, state: 'open' },
          ]),
        ),
      ),
  });
  const outcome = await runSweep(sweepRequest(inputs), io);
  return { outcome, outputs, retired, comments, logger };
}

describe('the sweep with agents', () => {
  it("retires a pull request's previews of every agent once in an environment without {agent}", async () => {
    for (const name of ['support-pr-3', 'research-pr-3', 'support-pr-4', 'other-pr-3']) {
      emu.seedDeployment({ name });
    }
    const { outcome, outputs, retired } = await sweep(
      {
        agents: '{"agents": {"support": {}, "research": {}}}',
        'name-pattern': '{agent}-pr-{number}',
        'environment-pattern': 'preview-pr-{number}',
      },
      [3, 4],
    );

    expect(outcome.failure).toBeUndefined();
    expect(outputs).toMatchObject({ 'orphan-count': '3', 'unknown-count': '0' });
    expect(
      retired.map(({ name, pullRequest, environment, agents, deployments }) => [
        name,
        pullRequest,
        environment,
        agents,
        deployments.length,
      ]),
    ).toEqual([
      ['support-pr-3, research-pr-3', 3, 'preview-pr-3', ['support', 'research'], 2],
      ['support-pr-4', 4, 'preview-pr-4', ['support'], 1],
    ]);
  });

  it('leaves alone, as unknown, a name that two agents give, and asks GitHub nothing of it', async () => {
    for (const name of ['a12', 'a7', 'b']) emu.seedDeployment({ name });
    const { outcome, outputs, retired, logger } = await sweep(
      { agents: '{"agents": {"a": {}, "a1": {}}}', 'name-pattern': '{agent}{number}' },
      [2, 7, 12],
    );

    expect(outcome.failure).toBeUndefined();
    expect(outputs).toMatchObject({ 'orphan-count': '1', 'unknown-count': '1' });
    expect(retired.map(({ name, agents }) => [name, agents])).toEqual([['a7', ['a']]]);
    expect(logger.text).toContain(
      "sweep: 'a12' names pull request #12, and it is the name of a preview of agents 'a' and 'a1' alike: no proof of whose it is, left alone",
    );
    // Each agent's own search, for its whole name.
    expect(emu.requests.map((request) => request.query.name_contains)).toEqual(['a', 'a1']);
  });

  it("retires the manifest's one comment once a pull request, every agent in it", async () => {
    for (const name of ['support-pr-3', 'research-pr-3', 'support-pr-4']) {
      emu.seedDeployment({ name });
    }
    const { outcome, outputs, retired, comments } = await sweep(
      {
        agents: '{"agents": {"support": {}, "research": {}}}',
        'name-pattern': '{agent}-pr-{number}',
        'environment-pattern': 'preview-pr-{number}-{agent}',
      },
      [3, 4],
      'rewritten',
    );

    expect(outcome.failure).toBeUndefined();
    expect(outputs).toMatchObject({ 'orphan-count': '3', retired: '3' });
    // Each agent's environment first, then one comment a pull request: every agent a report,
    // an agent without an orphan there with no deployment.
    expect(retired.map(({ environment }) => environment)).toEqual([
      'preview-pr-3-support',
      'preview-pr-3-research',
      'preview-pr-4-support',
    ]);
    expect(
      comments.map((reports) =>
        reports.map(({ key, report }) => [
          key,
          report.pullRequest,
          report.deployments.map(({ deployment }) => deployment.name),
        ]),
      ),
    ).toEqual([
      [
        ['support', 3, ['support-pr-3']],
        ['research', 3, ['research-pr-3']],
      ],
      [
        ['support', 4, ['support-pr-4']],
        ['research', 4, []],
      ],
    ]);
    if (outcome.summary?.kind !== 'sweep') throw new Error('no sweep summary');
    expect(outcome.summary.retired).toMatchObject({ comments: 2, byThisRun: 3 });
  });
});
