/**
 * The sweep in-process (src/run/flows/sweep-run.ts), over real HTTP against the service
 * emulator, with the runner's two GitHub questions answered by the test: only exact matches
 * of the pattern whose pull request is closed or merged are orphans and retired; unknown and
 * open ones are reported and left alone; a dry run changes nothing; a refused states query
 * changes nothing and fails; the summary, as GitHub shows it, never claims a deletion.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readInputs } from '../../../src/inputs/declare.ts';
import { ActionError } from '../../../src/common/errors.ts';
import { SWEEP_INPUTS } from '../../../src/sweep.ts';
import { sweepRequest } from '../../../src/inputs/sweep-inputs.ts';
import type {
  AskPullRequestStates,
  PullRequestState,
  RetireReport,
} from '../../../src/run/ports/progress.ts';
import type { RunOutcome } from '../../../src/run/ports/runner.ts';
import { runSweep } from '../../../src/run/flows/sweep-run.ts';
import { renderSummary } from '../../../src/views/summary.ts';
import { startEmulator, type Emulator } from '../../emulator/emulator.ts';
import { whatAReaderSees } from '../../support/github-render.ts';
import { recordingRunner, retiredBy } from '../../support/recording-runner.ts';

const CLAIM = /\b(?:was|were|been|is|are|now)\s+(?:deleted|removed|stopped|destroyed)\b/i;
let emu: Emulator;

/** The run's summary as the adapters write it (src/views/), read back as GitHub shows it. */
const shown = (outcome: RunOutcome) =>
  whatAReaderSees(
    outcome.summary === undefined ? '' : renderSummary(outcome.summary, (text) => text),
  );

beforeEach(async () => {
  emu = await startEmulator();
});
afterEach(async () => {
  await emu.close();
});

const STATES: PullRequestState[] = [
  { number: 1, state: 'closed', closedAt: '2026-11-02T10:00:00Z' },
  { number: 2, state: 'merged', closedAt: '2026-11-01T10:00:00Z' },
  { number: 3, state: 'open' },
  { number: 4, state: 'unknown' },
];

/** The previews of four pull requests, and names that come near the pattern without matching. */
function seedPreviews(): void {
  for (const number of [1, 2, 3, 4]) emu.seedDeployment({ name: `my-agent-pr-${number}` });
  for (const name of ['my-agent-pr-12-old', 'my-agent-pr-012', 'my-agent-pr-', 'my-agent']) {
    emu.seedDeployment({ name });
  }
}

async function sweep(
  given: Record<string, string> = {},
  /** null: the runner cannot ask GitHub (no token). */
  states: AskPullRequestStates | null = (numbers) =>
    Promise.resolve(
      new Map(
        STATES.filter((state) => numbers.includes(state.number)).map((state) => [
          state.number,
          state,
        ]),
      ),
    ),
) {
  const retired: RetireReport[] = [];
  const asked: number[][] = [];
  const run = { workspace: process.cwd(), commit: undefined, head: undefined };
  const values: Record<string, string | undefined> = {
    'api-url': emu.url,
    'name-pattern': 'my-agent-pr-{number}',
    'environment-pattern': 'preview-pr-{number}',
    'dashboard-url': 'https://console.example/d/{id}',
    ...given,
  };
  const inputs = readInputs(SWEEP_INPUTS, (name) => values[name], run as never);
  const { io, outputs, logger } = recordingRunner(run, {
    retired: retiredBy((report) => {
      retired.push(report);
      return Promise.resolve({ found: 1, inactive: 1, more: false, comment: 'rewritten' });
    }),
    ...(states === null
      ? {}
      : {
          pullRequestStates: (numbers: readonly number[]) => {
            asked.push([...numbers]);
            return states(numbers);
          },
        }),
  });
  const outcome = await runSweep(sweepRequest(inputs), io);
  return { outcome, outputs, retired, asked, logger };
}

describe('the sweep', () => {
  it('retires exactly the previews of closed and merged pull requests, oldest close first', async () => {
    seedPreviews();
    const { outcome, outputs, retired, asked, logger } = await sweep();

    expect(outcome.failure).toBeUndefined();
    expect(asked).toEqual([[1, 2, 3, 4]]);
    expect(
      retired.map(({ name, pullRequest, environment }) => [name, pullRequest, environment]),
    ).toEqual([
      ['my-agent-pr-2', 2, 'preview-pr-2'],
      ['my-agent-pr-1', 1, 'preview-pr-1'],
    ]);
    const orphans = JSON.parse(outputs.orphans ?? '') as Record<string, unknown>[];
    expect(orphans.map((orphan) => [orphan.name, orphan['pull-request'], orphan.state])).toEqual([
      ['my-agent-pr-2', 2, 'merged'],
      ['my-agent-pr-1', 1, 'closed'],
    ]);
    expect(orphans[0]?.['dashboard-url']).toMatch(/^https:\/\/console\.example\/d\//);
    expect(outputs).toMatchObject({
      'orphan-count': '2',
      'open-count': '1',
      'unknown-count': '1',
      retired: '2',
    });
    expect(logger.lines.filter((line) => line.startsWith('warning:'))).toHaveLength(2);
    expect(logger.text).toContain('pull request #4, which GitHub does not know: left alone');
    expect(emu.requests.every((request) => request.method === 'GET')).toBe(true);
    expect(emu.requests[0]?.query.name_contains).toBe('my-agent-pr-');
  });

  it('changes nothing on a dry run, and says so; on-orphans none warns of nothing', async () => {
    seedPreviews();
    const dry = await sweep({ 'dry-run': 'true', 'on-orphans': 'none' });
    expect(dry.retired).toEqual([]);
    expect(dry.outputs).toMatchObject({ 'orphan-count': '2', retired: '0' });
    expect(dry.logger.lines.filter((line) => line.startsWith('warning:'))).toEqual([]);
    expect(dry.outcome.summary).toMatchObject({ kind: 'sweep', dryRun: true, open: 1 });
    const seen = shown(dry.outcome);
    expect(seen.text).toContain('nothing (a dry run)');
    expect(seen.text).not.toMatch(CLAIM);
  });

  it('fails after the outputs and the summary with on-orphans fail, naming each orphan', async () => {
    seedPreviews();
    const { outcome, outputs } = await sweep({ 'on-orphans': 'fail' });
    expect(outcome.failure).toContain("'my-agent-pr-2', 'my-agent-pr-1'");
    expect(outcome.failure).toContain('this step cannot');
    expect(outputs['orphan-count']).toBe('2');
    expect(outcome.summary).toMatchObject({ kind: 'sweep', pattern: 'my-agent-pr-{number}' });
  });

  it('fails and changes nothing when GitHub refuses the states, or cannot be asked', async () => {
    seedPreviews();
    const refused = await sweep({}, () =>
      Promise.reject(new ActionError('GitHub refused: add pull-requests: read')),
    );
    expect(refused.outcome.failure).toContain('pull-requests: read');
    expect(refused.retired).toEqual([]);
    expect(refused.outputs).toEqual({});

    const noToken = await sweep({}, null);
    expect(noToken.outcome.failure).toContain('github-token');
  });

  it('asks nothing of GitHub when no preview matches, and says so in the summary', async () => {
    emu.seedDeployment({ name: 'my-agent' });
    const { outcome, asked, outputs } = await sweep();
    expect(asked).toEqual([]);
    expect(outputs).toMatchObject({ orphans: '[]', 'orphan-count': '0' });
    expect(outcome.summary).toMatchObject({ kind: 'sweep', orphans: [], open: 0, unknown: [] });
    expect(shown(outcome).text).toContain('No orphaned preview');
  });

  it("leaves unknown a preview whose state is about another number, or beyond GitHub's Int, unasked", async () => {
    for (const digits of ['5', '2147483647', '2147483648', '9007199254740993']) {
      emu.seedDeployment({ name: `my-agent-pr-${digits}` });
    }
    const { outcome, asked, outputs, retired, logger } = await sweep({}, (numbers) =>
      Promise.resolve(
        new Map(
          numbers.map((number): [number, PullRequestState] => [
            number,
            number === 5
              ? { number, state: 'unknown', answeredFor: 6 }
              : { number, state: 'closed', closedAt: '2026-11-02T10:00:00Z' },
          ]),
        ),
      ),
    );

    expect(outcome.failure).toBeUndefined();
    expect(asked).toEqual([[5, 2147483647]]);
    expect(retired.map(({ name }) => name)).toEqual(['my-agent-pr-2147483647']);
    expect(outputs).toMatchObject({ 'orphan-count': '1', 'unknown-count': '3' });
    expect(logger.text).toContain(
      "names pull request #5, and GitHub's answer was about #6: no proof of how #5 stands, left alone",
    );
    for (const digits of ['2147483648', '9007199254740993']) {
      expect(logger.text).toContain(
        `'my-agent-pr-${digits}' names pull request #${digits}, beyond the numbers GitHub gives pull requests`,
      );
    }
  });

  it('retires the orphans of one pull request together: one report naming each deployment', async () => {
    seedPreviews();
    const twin = emu.seedDeployment({ name: 'my-agent-pr-1' });
    const { outputs, retired, logger } = await sweep();

    const orphans = JSON.parse(outputs.orphans ?? '') as Record<string, unknown>[];
    expect(orphans.map((orphan) => orphan.name)).toEqual([
      'my-agent-pr-2',
      'my-agent-pr-1',
      'my-agent-pr-1',
    ]);
    expect(logger.lines.filter((line) => line.startsWith('warning:'))).toHaveLength(3);
    expect(retired.map(({ name, deployments }) => [name, deployments.length])).toEqual([
      ['my-agent-pr-2', 1],
      ['my-agent-pr-1', 2],
    ]);
    const ones = retired[1]?.deployments ?? [];
    expect(ones.map(({ deployment }) => deployment.id)).toContain(twin.id);
    expect(ones.map(({ deployment, dashboardUrl }) => [deployment.id, dashboardUrl])).toEqual(
      ones.map(({ deployment }) => [deployment.id, `https://console.example/d/${deployment.id}`]),
    );
    expect(outputs.retired).toBe('2');
  });

  it.each([
    ['my-agent-pr', 'must hold {number} exactly once'],
    ['my-agent-{number}-{number}', 'must hold {number} exactly once'],
    ['{number}', 'must hold more than {number}'],
    ['my-agent-{id}-{number}', 'may hold no other'],
  ])('refuses the name pattern %j before any request', (pattern, message) => {
    const values: Record<string, string> = { 'api-url': emu.url, 'name-pattern': pattern };
    expect(() => readInputs(SWEEP_INPUTS, (name) => values[name], {} as never)).toThrow(message);
    expect(emu.requests).toEqual([]);
  });
});
