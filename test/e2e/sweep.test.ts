/**
 * End-to-end, the sweep step (sweep/action.yml) through
 * dist/sweep.js against both emulators, on a schedule: open, closed, merged and unknown pull
 * requests and names that come near the pattern; only the orphans retired, each in its own
 * environment and comment; a rerun writes nothing; a dry run writes nothing at all; 250
 * previews at the floor of requests; a refused states query fails and changes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import { whatAReaderSees } from '../support/github-render.ts';
import { GITHUB_TOKEN, gitHubStep } from '../support/github-step.ts';
import { TENANT_ID } from '../support/ids.ts';
import { printed, runAction, type ActionRun } from '../support/run-action.ts';

let emu: Emulator;
let gh: GitHubEmulator;

const REPO = 'acme/agent';
const BOT = { login: 'github-actions[bot]', type: 'Bot' as const };
const marker = (name: string) => `<!-- deploy-agent:${name.replaceAll('-', '%2D')} -->`;
/** Words that would claim a deployment is gone or stopped. */
const CLAIM =
  /\b(?:was|were|been|is|are|got|now)\s+(?:deleted|removed|stopped|destroyed)\b|\bdeleted (?:it|the deployment)\b/i;

beforeEach(async () => {
  [emu, gh] = await Promise.all([startEmulator({ tenantId: TENANT_ID }), startGitHubEmulator()]);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

function sweep(inputs: Record<string, string> = {}): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    {
      'api-url': emu.url,
      'name-pattern': 'my-agent-pr-{number}',
      'environment-pattern': 'preview-pr-{number}',
      'dashboard-url': 'https://console.example/o/{tenant_id}/deployments/{id}',
      ...inputs,
    },
    {},
    {
      event: { name: 'schedule', ref: 'refs/heads/main', sha: 'a'.repeat(40), payload: {} },
      action: 'sweep/action.yml',
    },
  );
  return runAction(given, options);
}

/** Pull requests 1 (open), 2 (closed), 3 (merged) with previews, records and comments; 4 unknown; near misses. */
function seedFleet() {
  gh.seedPullRequest(REPO, 1, 'open');
  gh.seedPullRequest(REPO, 2, 'closed', '2026-11-02T10:00:00Z');
  gh.seedPullRequest(REPO, 3, 'merged', '2026-11-01T10:00:00Z');
  for (const number of [1, 2, 3, 4]) {
    emu.seedDeployment({ name: `my-agent-pr-${number}` });
    gh.seedDeployments(REPO, `preview-pr-${number}`, 1);
    if (number < 4) {
      gh.seedComment(REPO, number, `${marker(`my-agent-pr-${number}`)}\n### live`, BOT);
    }
  }
  for (const name of ['my-agent-pr-12-old', 'my-agent-pr-012', 'my-agent-pr-', 'my-agent']) {
    emu.seedDeployment({ name });
  }
}

describe('the sweep on a schedule', () => {
  it('retires exactly the previews of closed and merged pull requests, then writes nothing the second time', async () => {
    seedFleet();
    const run = await sweep();

    expect(run.exitCode, printed(run)).toBe(0);
    const orphans = JSON.parse(run.outputs.orphans ?? '') as Record<string, unknown>[];
    expect(orphans.map((orphan) => [orphan.name, orphan['pull-request'], orphan.state])).toEqual([
      ['my-agent-pr-3', 3, 'merged'],
      ['my-agent-pr-2', 2, 'closed'],
    ]);
    expect(run.outputs).toMatchObject({
      'orphan-count': '2',
      'open-count': '1',
      'unknown-count': '1',
      retired: '2',
    });
    const inactive = (environment: string) =>
      gh.deployments
        .filter((record) => record.environment === environment)
        .map((record) => gh.stateOf(record.id));
    expect(inactive('preview-pr-2')).toEqual(['inactive']);
    expect(inactive('preview-pr-3')).toEqual(['inactive']);
    expect(inactive('preview-pr-1')).not.toContain('inactive');
    expect(inactive('preview-pr-4')).not.toContain('inactive');
    const bodies = gh.comments.map((comment) => [comment.issue, comment.body.includes('retired')]);
    expect(bodies).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
    expect(whatAReaderSees(run.summary ?? '').text).toContain(
      'Changed on GitHub\t2 orphans: 2 retired by this run (2 GitHub deployments marked inactive, 2 comments rewritten)',
    );
    expect(run.stdout.match(/^::warning::/gm)).toHaveLength(2);
    expect(run.stdout).toContain('pull request #4, which GitHub does not know: left alone');
    expect([...new Set(emu.requests.map((request) => request.method))]).toEqual(['GET']);
    expect(gh.stateQueries()).toHaveLength(1);
    const summary = whatAReaderSees(run.summary ?? '');
    expect(summary.text).not.toMatch(CLAIM);
    expect(summary.links.map((link) => link.text)).toEqual([
      'open it in the dashboard',
      'open it in the dashboard',
    ]);

    const writes = gh.writes().length;
    const again = await sweep();
    expect(again.exitCode, printed(again)).toBe(0);
    expect(again.outputs.orphans).toBe(run.outputs.orphans);
    expect(again.outputs.retired).toBe('0');
    expect(whatAReaderSees(again.summary ?? '').text).toContain(
      'Changed on GitHub\t2 orphans: none retired by this run (0 GitHub deployments marked inactive); 2 already retired by an earlier run, left as they were',
    );
    expect(gh.writes()).toHaveLength(writes);
  });

  it('writes nothing at all on a dry run, and fails with on-orphans fail after the outputs', async () => {
    seedFleet();
    const dry = await sweep({ 'dry-run': 'true', 'on-orphans': 'fail' });

    expect(dry.exitCode).not.toBe(0);
    expect(dry.outputs['orphan-count']).toBe('2');
    expect(dry.outputs.retired).toBe('0');
    expect(gh.writes()).toEqual([]);
    expect(dry.stdout).toContain('::error::2 previews of closed pull requests still run');
    expect(whatAReaderSees(dry.summary ?? '').text).toContain(
      'Changed on GitHub\tnothing (a dry run)',
    );
  });

  it('fails naming pull-requests: read when GitHub refuses the states, and changes nothing', async () => {
    seedFleet();
    gh.inject({ method: 'POST', path: '/graphql', status: 403 });
    const run = await sweep();

    expect(run.exitCode).not.toBe(0);
    expect(run.stdout).toContain('pull-requests: read');
    expect(gh.writes()).toEqual([]);
    expect(run.outputs.orphans).toBeUndefined();
  });

  it('sweeps 250 previews at the floor: 3 service pages, 3 state queries, writes for orphans only', async () => {
    for (let number = 1; number <= 250; number++) {
      gh.seedPullRequest(
        REPO,
        number,
        number % 10 === 0 ? 'merged' : 'open',
        '2026-11-01T10:00:00Z',
      );
    }
    emu.seedDeployments(250, (i) => ({ name: `my-agent-pr-${i + 1}` }));
    const run = await sweep({ 'environment-pattern': '', 'pr-comment': 'false' });

    expect(run.exitCode, printed(run)).toBe(0);
    expect(run.outputs).toMatchObject({ 'orphan-count': '25', 'open-count': '225' });
    expect(emu.requests.filter((request) => request.path === '/v2/deployments')).toHaveLength(3);
    expect(gh.stateQueries()).toHaveLength(3);
    expect(gh.writes()).toEqual([]);
  });
});

describe("the sweep's words (issue 46)", () => {
  it("names the orphans output, not the deploy step's drift, for warnings past GitHub's 10", async () => {
    for (let number = 1; number <= 12; number++) {
      gh.seedPullRequest(REPO, number, 'closed', '2026-11-02T10:00:00Z');
      emu.seedDeployment({ name: `my-agent-pr-${number}` });
    }
    const run = await sweep({ 'environment-pattern': '', 'pr-comment': 'false' });

    expect(run.exitCode, printed(run)).toBe(0);
    const annotations = run.stdout.match(/^::warning::.*$/gm) ?? [];
    expect(annotations).toHaveLength(10);
    expect(annotations.at(-1)).toContain(
      "3 more warnings than GitHub shows here (it shows 10 a step): every one is in the step's log; the orphans are also in the job summary and the step's `orphans` output.",
    );
    expect(run.stdout).not.toMatch(/drift/i);
  });

  it('says which orphans this run retired and which an earlier run had', async () => {
    seedFleet();
    // Pull request 3's preview was retired by an earlier run: its record inactive, its comment rewritten.
    expect((await sweep()).exitCode).toBe(0);
    gh.seedPullRequest(REPO, 5, 'closed', '2026-11-03T10:00:00Z');
    emu.seedDeployment({ name: 'my-agent-pr-5' });
    gh.seedDeployments(REPO, 'preview-pr-5', 2);
    gh.seedComment(REPO, 5, `${marker('my-agent-pr-5')}\n### live`, BOT);

    const run = await sweep();

    expect(run.exitCode, printed(run)).toBe(0);
    expect(run.outputs).toMatchObject({ 'orphan-count': '3', retired: '2' });
    expect(readerText(run)).toContain(
      'Changed on GitHub\t3 orphans: 1 retired by this run (2 GitHub deployments marked inactive, 1 comment rewritten); 2 already retired by an earlier run, left as they were',
    );
  });
});

/** The summary as a reader sees it, without the zero-width spaces that keep `#4` from linking. */
const readerText = (run: ActionRun) =>
  whatAReaderSees(run.summary ?? '').text.replaceAll('\u200b', '');

describe("the sweep's proof (issue 45)", () => {
  it('leaves alone a preview whose answer is about another pull request: no proof, unknown', async () => {
    gh.seedPullRequest(REPO, 5, 'open');
    emu.seedDeployment({ name: 'my-agent-pr-5' });
    gh.seedDeployments(REPO, 'preview-pr-5', 1);
    const live = gh.seedComment(REPO, 5, `${marker('my-agent-pr-5')}\n### live`, BOT);
    // An answer for pr5 about pull request 6, closed: whatever it says, it is not about #5.
    gh.inject({
      method: 'POST',
      path: '/graphql',
      times: Infinity,
      rewrite: (body) => {
        const repository = (body as { data?: { repository?: Record<string, unknown> } }).data
          ?.repository;
        if (repository !== undefined && 'pr5' in repository) {
          repository.pr5 = {
            number: 6,
            state: 'CLOSED',
            merged: false,
            closedAt: '2026-11-02T10:00:00Z',
            mergedAt: null,
          };
        }
        return body;
      },
    });

    const run = await sweep();

    expect(run.exitCode, printed(run)).toBe(0);
    expect(run.outputs).toMatchObject({
      orphans: '[]',
      'orphan-count': '0',
      'open-count': '0',
      'unknown-count': '1',
      retired: '0',
    });
    expect(gh.writes()).toEqual([]);
    expect(live.body).toBe(`${marker('my-agent-pr-5')}\n### live`);
    expect(run.stdout).toContain(
      "sweep: 'my-agent-pr-5' names pull request #5, and GitHub's answer was about #6: no proof of how #5 stands, left alone",
    );
    expect(run.stdout).not.toMatch(/^::warning::/m);
    expect(readerText(run)).toContain('Unknown pull requests\t#5: left alone');
  });

  it('never asks GitHub a number beyond its Int, and reports those previews unknown as written', async () => {
    seedFleet();
    const wide = ['2147483648', '99999999999999999999'];
    for (const digits of wide) emu.seedDeployment({ name: `my-agent-pr-${digits}` });
    emu.seedDeployment({ name: 'my-agent-pr-2147483647' });

    const run = await sweep();

    expect(run.exitCode, printed(run)).toBe(0);
    expect(run.outputs).toMatchObject({
      'orphan-count': '2',
      'open-count': '1',
      'unknown-count': '4',
      retired: '2',
    });
    const queries = gh.stateQueries().map((request) => JSON.stringify(request.body));
    expect(queries).toHaveLength(1);
    expect(queries[0]).toContain('pullRequest(number: 2147483647)');
    for (const digits of wide) {
      expect(queries[0]).not.toContain(digits);
      expect(run.stdout).toContain(
        `sweep: 'my-agent-pr-${digits}' names pull request #${digits}, beyond the numbers GitHub gives pull requests (at most 2147483647): left alone`,
      );
    }
    expect(run.stdout).not.toContain('pull-requests: read');
    expect(readerText(run)).toContain(
      'Unknown pull requests\t#4, #2147483647, #2147483648, #99999999999999999999: left alone',
    );
  });

  it('says GitHub rejected the states query as invalid, not that the token lacks a permission', async () => {
    seedFleet();
    gh.inject({
      method: 'POST',
      path: '/graphql',
      status: 200,
      body: {
        errors: [
          {
            path: ['query', 'repository', 'pr1', 'number'],
            extensions: { code: 'argumentLiteralsIncompatible' },
            locations: [{ line: 1, column: 90 }],
            message: "Argument 'number' on Field 'pr1' has an invalid value.\n::error::forged",
          },
        ],
      },
    });

    const run = await sweep();

    expect(run.exitCode).not.toBe(0);
    expect(run.stdout).toContain(
      "GitHub rejected the pull requests' states query as invalid: POST /graphql: Argument 'number' on Field 'pr1' has an invalid value.\\n::error::forged",
    );
    expect(run.stdout).not.toMatch(/^::error::forged/m);
    expect(run.stdout).not.toContain('pull-requests: read');
    expect(gh.writes()).toEqual([]);
    expect(run.outputs.orphans).toBeUndefined();
  });
});

describe('several deployments of one name (issue 45)', () => {
  const ids = ['2d6c0a4e-7f0b-4c1e-9a55-000000000002', '1a0b5c3d-7f0b-4c1e-9a55-000000000001'];

  it("share their pull request's one comment rewrite, which names each, and a second sweep writes nothing", async () => {
    gh.seedPullRequest(REPO, 7, 'closed', '2026-11-02T10:00:00Z');
    for (const id of ids) emu.seedDeployment({ id, name: 'my-agent-pr-7' });
    const records = gh.seedDeployments(REPO, 'preview-pr-7', 2);
    const comment = gh.seedComment(REPO, 7, `${marker('my-agent-pr-7')}\n### live`, BOT);

    const run = await sweep();

    expect(run.exitCode, printed(run)).toBe(0);
    // Each deployment is an orphan of its own: one item and one warning each.
    const orphans = JSON.parse(run.outputs.orphans ?? '') as Record<string, unknown>[];
    expect(orphans.map((orphan) => orphan['deployment-id']).sort()).toEqual([...ids].sort());
    expect(run.outputs).toMatchObject({ 'orphan-count': '2', retired: '2' });
    expect(run.stdout.match(/^::warning::/gm)).toHaveLength(2);
    // One rewrite of the comment, one marking of the environment: the pull request's.
    expect(gh.calls(/^PATCH \/repos\/acme\/agent\/issues\/comments\//)).toHaveLength(1);
    expect(gh.calls(/^GET \/repos\/acme\/agent\/deployments$/)).toHaveLength(1);
    expect(records.map((record) => gh.stateOf(record.id))).toEqual(['inactive', 'inactive']);
    expect(gh.comments).toHaveLength(1);
    const seen = whatAReaderSees(comment.body);
    expect(comment.body.startsWith(marker('my-agent-pr-7'))).toBe(true);
    expect(seen.text).toContain('This pull request was closed, so its preview is retired');
    expect(seen.text).not.toMatch(CLAIM);
    const dashboard = (id: string) => `https://console.example/o/${TENANT_ID}/deployments/${id}`;
    expect(seen.tables).toEqual([
      [
        ['Deployment', 'Status', 'Delete it'],
        [ids[1], 'READY', 'in the dashboard'],
        [ids[0], 'READY', 'in the dashboard'],
      ],
    ]);
    expect(seen.links.map((link) => link.href)).toEqual([
      dashboard(ids[1] ?? ''),
      dashboard(ids[0] ?? ''),
      expect.stringMatching(/\/actions\/runs\//),
    ]);

    const writes = gh.writes().length;
    const body = comment.body;
    const again = await sweep();
    expect(again.exitCode, printed(again)).toBe(0);
    expect(again.outputs).toMatchObject({ 'orphan-count': '2', retired: '0' });
    expect(gh.writes()).toHaveLength(writes);
    expect(comment.body).toBe(body);
  });
});
