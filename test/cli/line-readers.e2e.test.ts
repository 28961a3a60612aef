/**
 * What dist/cli.js writes when the service's text holds characters that some
 * reader of a line or a terminal takes for more than text: U+2028, U+2029,
 * NEL (U+0085) and C1 controls, which `JSON.stringify` leaves raw and
 * Python's `str.splitlines()` ends a line at, and the bidirectional
 * controls of Unicode's `Bidi_Control` property (U+061C ARABIC LETTER MARK
 * among them), which reorder what a person sees. Every form of output keeps
 * them escaped: `--events` lines, `--json`, `list`/`repos` (lines and
 * `--json`) and the log; the values still read back exactly.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { INTEGRATION } from '../support/fixtures.ts';
import { readGitLabDotenv } from '../support/gitlab-dotenv.ts';
import { runCli, type CliRun } from './run-cli.ts';
import { QUICK_HEARTBEAT } from '../support/quick.ts';

const KEY = 'line-readers-api-key-0123456789';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
});
afterEach(async () => {
  await emu.close();
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, ...extra };
}

/** What JSON.stringify leaves raw and some line reader breaks at, or a terminal obeys. */
const HOSTILE = '\u2028\u2029\u0085\u009b\u061c';
const STATUS = `READY${HOSTILE}`;
/** Every character the command must never write raw, whatever the form. */
const RAW = /[\u0080-\u009f\u2028\u2029\p{Bidi_Control}]/u;

/** Python's `str.splitlines()` line boundaries. */
// eslint-disable-next-line no-control-regex -- naming Python's line boundaries is the point
const SPLITLINES = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/** Lines as `split('\n')` sees them, and as Python's splitlines: the same count. */
function expectOneLineEach(text: string): string[] {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  expect(text.split(SPLITLINES)).toHaveLength(text.split('\n').length);
  expect(text).not.toMatch(RAW);
  return lines;
}

/**
 * Python's own `splitlines()`: as many lines as `\n` makes. python3 is a set-up
 * step (`.ci/run` installs it, the README names it): without it this fails.
 */
function expectPythonLines(text: string): void {
  let count: string;
  try {
    count = execFileSync(
      'python3',
      ['-c', 'import sys; print(len(sys.stdin.buffer.read().decode("utf-8").splitlines()))'],
      { input: text },
    ).toString();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'python3 is not on the PATH: install it (the README names it), then run again',
        { cause: error },
      );
    }
    throw error;
  }
  expect(Number(count)).toBe(
    text.split('\n').filter((line, i, all) => i < all.length - 1 || line !== '').length,
  );
}

function seedAgent() {
  return emu.seedDeployment({
    name: 'agent',
    status: STATUS,
    source: 'external_docker',
    source_config: {},
    source_revision_config: { image_uri: 'reg/agent:1', repo_commit_sha: null },
  } as never);
}

function expectNothingRawOn(run: CliRun): void {
  expect(run.stderr).not.toMatch(RAW);
  expect(run.stdout).not.toMatch(RAW);
}

describe('--events: one JSON object a line for every line reader', () => {
  it('status --events: each line parses, the status reads back exactly, splitlines agrees', async () => {
    const seeded = seedAgent();

    const run = await runCli(['status', '--name', 'agent', '--events'], { env: env() });

    expect(run.exitCode).toBe(0);
    const lines = expectOneLineEach(run.stdout);
    expectPythonLines(run.stdout);
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const result = events.at(-1) ?? {};
    expect(result.event).toBe('result');
    expect(result.outputs).toMatchObject({
      'deployment-id': seeded.id,
      status: STATUS,
      deployment: { status: STATUS },
    });
    expectNothingRawOn(run);
  });

  it('deploy --events --wait: the status changes too', async () => {
    emu.setOptions({ initialStatus: `AWAITING${HOSTILE}`, readyAfterPolls: 3 });

    const run = await runCli(
      [
        ...['deploy', '--name', 'agent', '--source', 'external_docker'],
        ...['--image-uri', 'reg/agent:1', '--wait', '--wait-timeout', '2', '--events'],
      ],
      { env: env(QUICK_HEARTBEAT) },
    );

    const lines = expectOneLineEach(run.stdout);
    expectPythonLines(run.stdout);
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const changes = events.filter((event) => event.event === 'status_change');
    expect(changes[0]?.status).toBe(`AWAITING${HOSTILE}`);
    expect(events.at(-1)).toMatchObject({ event: 'result', status: 'succeeded' });
    expectNothingRawOn(run);
  });
});

describe('--json and --dotenv', () => {
  it('status --json: the object parses back exactly, and no line breaks for splitlines', async () => {
    seedAgent();

    const run = await runCli(['status', '--name', 'agent', '--json', '--dotenv', 'deploy.env'], {
      env: env(),
      read: ['deploy.env'],
    });

    expect(run.exitCode).toBe(0);
    expectOneLineEach(run.stdout);
    expectPythonLines(run.stdout);
    expect(run.json).toMatchObject({ status: STATUS, deployment: { status: STATUS } });
    // GitLab's dotenv has no escapes: the status is left out, as every line break is, and the
    // file stays one variable a line for every reader.
    const file = run.files['deploy.env'] ?? '';
    expectOneLineEach(file);
    expectPythonLines(file);
    expect(readGitLabDotenv(file)).not.toHaveProperty('DEPLOYMENT_STATUS');
    expect(run.stderr).toMatch(/DEPLOYMENT_STATUS is left out of --dotenv/);
    expectNothingRawOn(run);
  });

  it('list --json and repos --json: the items parse back exactly', async () => {
    const seeded = emu.seedDeployment({ name: `agent${HOSTILE}`, status: STATUS });
    emu.seedRepos(INTEGRATION, [{ name: `agent${HOSTILE}`, owner: 'acme' }]);

    const list = await runCli(['list', '--json'], { env: env() });
    const repos = await runCli(['repos', '--integration-id', INTEGRATION, '--json'], {
      env: env(),
    });

    for (const run of [list, repos]) {
      expect(run.exitCode).toBe(0);
      expectOneLineEach(run.stdout);
      expectPythonLines(run.stdout);
      expectNothingRawOn(run);
    }
    expect(JSON.parse(list.stdout)).toMatchObject([
      { id: seeded.id, name: `agent${HOSTILE}`, status: STATUS },
    ]);
    expect(JSON.parse(repos.stdout)).toMatchObject([{ name: `agent${HOSTILE}`, owner: 'acme' }]);
  });
});

describe("Unicode's Bidi_Control, U+061C included, never raw", () => {
  it('list when piped: the name is shown escaped, one line of tab-separated fields', async () => {
    const seeded = emu.seedDeployment({ name: 'agent\u061cname', status: 'READY\u2067' });

    const run = await runCli(['list'], { env: env() });

    expect(run.exitCode).toBe(0);
    expectNothingRawOn(run);
    expect(run.stdout).toBe(
      `${['agent\\u061cname', seeded.id, 'READY\\u2067'].join('\t')}\t${seeded.source}\t\t\t${seeded.updated_at}\n`,
    );
  });

  it('the log: a name the service answered with is shown escaped', async () => {
    emu.inject({
      method: 'POST',
      path: '/v2/deployments',
      bodyTransform: (body) => ({ ...(body as object), name: 'agent\u061c' }),
    });

    const run = await runCli(
      ['deploy', '--name', 'agent', '--source', 'external_docker', '--image-uri', 'reg/agent:1'],
      { env: env() },
    );

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("as 'agent\\u061c', not 'agent'");
    expectNothingRawOn(run);
  });
});
