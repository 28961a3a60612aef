/**
 * `deploy-agent list` and `deploy-agent repos` through dist/cli.js against the service emulator: every
 * filter sent as the interface names it, pages at their floor, the three
 * output forms (tab-separated lines when piped, a table under a
 * pseudo-terminal, --json), values checked before any request, no secret in
 * anything written, and the exit statuses.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import stringWidth from 'string-width';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { INTEGRATION } from '../support/fixtures.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { NODE24 } from '../support/run-action.ts';
import { CLI, runCli } from './run-cli.ts';

const KEY = 'fleet-api-key-0123456789';
const SECRET = 'fleet-secret-value-42';
const U1 = '0f8fad5b-d9cb-469f-a165-70867728950e';
const U2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
});
afterEach(async () => {
  await emu.close();
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DEPLOY_API_URL: emu.url,
    DEPLOY_API_KEY: KEY,
    DEPLOY_AGENT_RETRY_DELAY_MS: '1',
    ...extra,
  };
}

function listings() {
  return emu.requests.filter((request) => request.path === '/v2/deployments');
}

/** stdout's lines, each split at its tabs. */
function fields(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));
}

describe('list', () => {
  it('writes one tab-separated line a deployment when piped, without a header, in the order the service lists them', async () => {
    const [first, second] = emu.seedDeployments(2, (i) => ({
      name: `agent-${i}`,
      status: i === 0 ? 'READY' : 'AWAITING_DATABASE',
      image_version: `1.${i}`,
    }));
    const run = await runCli(['list'], { env: env() });

    expect(run.exitCode).toBe(0);
    const rows = fields(run.stdout);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toHaveLength(7);
    expect(rows.map((row) => row[1])).toEqual([first?.id, second?.id]);
    const row = rows.find((each) => each[0] === 'agent-1');
    expect(row?.slice(2, 6)).toEqual([
      'AWAITING_DATABASE',
      second?.source,
      second?.source_config.deployment_type ?? '',
      '1.1',
    ]);
    expect(row?.[6]).toBe(second?.updated_at);
    expect(listings().map((request) => request.query)).toEqual([{ limit: '100', offset: '0' }]);
    expect(emu.requests.every((request) => request.method === 'GET')).toBe(true);
  });

  it('sends every filter as the interface names it, from options and DEPLOY_ variables', async () => {
    const run = await runCli(
      [
        'list',
        '--name-contains',
        'agent',
        '--status',
        'READY',
        '--remote-reconciled',
        'true',
        '--tag-value-ids',
        `${U1}, ${U2}`,
        '--image-version',
        '1.4',
        '--deployment-ids',
        U1,
      ],
      { env: env({ DEPLOY_DEPLOYMENT_TYPE: 'prod' }) },
    );

    expect(run.exitCode).toBe(0);
    expect(run.stderr).not.toContain('warning');
    expect(listings()[0]?.query).toEqual({
      name_contains: 'agent',
      status: 'READY',
      remote_reconciled: 'true',
      tag_value_ids: `${U1},${U2}`,
      image_version: '1.4',
      deployment_type: 'prod',
      deployment_ids: U1,
      limit: '100',
      offset: '0',
    });
  });

  it('passes a type or a status the action does not know on, with one warning naming the known ones', async () => {
    const run = await runCli(['list', '--deployment-type', 'serverless', '--status', 'SCALED'], {
      env: env(),
    });

    expect(run.exitCode).toBe(0);
    expect(listings()[0]?.query).toMatchObject({ deployment_type: 'serverless', status: 'SCALED' });
    const warnings = run.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      "warning: status 'SCALED' is not one this release knows (AWAITING_DATABASE, READY, UNUSED, AWAITING_DELETE, UNKNOWN): it is passed on as it is, and the service decides",
      "warning: deployment-type 'serverless' is not one this release knows (dev_free, dev, prod): it is passed on as it is, and the service decides",
    ]);
  });

  it.each([
    [['--deployment-ids', 'nope'], '--deployment-ids: must be uuids separated by commas'],
    [['--tag-value-ids', `${U1},`], '--tag-value-ids: must be uuids separated by commas'],
    [['--limit', '0'], "--limit: must be a whole number, at least 1, got '0'"],
    [['--remote-reconciled', 'maybe'], "--remote-reconciled: must be true or false, got 'maybe'"],
    [['--all', '--limit', '5'], '--limit and --all exclude each other'],
    [['--wait'], 'list takes no option --wait'],
    [['--events'], 'list takes no option --events'],
  ])('refuses %j before any request, naming the option (exit 2)', async (args, message) => {
    const run = await runCli(['list', ...args], { env: env({ DEPLOY_EVENTS: 'true' }) });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(message);
    // stdout is list's data: no stream's result line, even with DEPLOY_EVENTS set.
    expect(run.stdout).toBe('');
    expect(emu.requests).toEqual([]);
  });

  it('follows the returned offset in pages of 100: --limit stops at N, --all reads to the end', async () => {
    emu.seedDeployments(250, (i) => ({ name: `preview-${i}` }));

    const limited = await runCli(['list', '--limit', '150'], { env: env() });
    // The first 150 of the service's order, whatever that order is.
    expect(fields(limited.stdout).map((row) => row[0])).toEqual(
      Array.from({ length: 150 }, (_, i) => `preview-${i}`),
    );
    expect(listings().map((request) => [request.query.limit, request.query.offset])).toEqual([
      ['100', '0'],
      ['50', '100'],
    ]);

    emu.requests.length = 0;
    const all = await runCli(['list', '--all'], { env: env({ DEPLOY_NAME_CONTAINS: 'preview' }) });
    const ids = fields(all.stdout).map((row) => row[1]);
    expect(ids).toHaveLength(250);
    expect(new Set(ids).size).toBe(250);
    // The third page is short: the list ends there, with no request after it.
    expect(listings().map((request) => request.query.offset)).toEqual(['0', '100', '200']);
    expect(all.stderr).not.toContain('warning');
  });

  it('a flag wins over its variable: DEPLOY_ALL=true with --limit 3 lists 3, DEPLOY_LIMIT=3 with --all lists all', async () => {
    emu.seedDeployments(150, (i) => ({ name: `agent-${i}` }));

    const limited = await runCli(['list', '--limit', '3'], { env: env({ DEPLOY_ALL: 'true' }) });
    expect(limited.exitCode).toBe(0);
    expect(fields(limited.stdout)).toHaveLength(3);
    expect(listings().map((request) => request.query.limit)).toEqual(['3']);

    emu.requests.length = 0;
    // Even a value the variable could not give: a flag's counterpart is not read.
    for (const value of ['3', 'many']) {
      const all = await runCli(['list', '--all'], { env: env({ DEPLOY_LIMIT: value }) });
      expect(all.exitCode).toBe(0);
      expect(fields(all.stdout)).toHaveLength(150);
    }
  });

  it('stops --all at 10,000 deployments with a warning when more match, one request past the cap', async () => {
    emu.seedDeployments(10_001, (i) => ({ name: `fleet-${i}` }));
    const run = await runCli(['list', '--all'], { env: env() });

    expect(run.exitCode).toBe(0);
    expect(fields(run.stdout)).toHaveLength(10_000);
    expect(run.stderr).toContain('more than 10,000 deployments match');
    expect(listings()).toHaveLength(101);
    expect(listings().at(-1)?.query).toMatchObject({ limit: '1', offset: '10000' });
  });

  it('writes --json as an array of what the service answered, every secret value ***', async () => {
    emu.seedDeployment({ name: 'agent', secrets: [{ name: 'OPENAI_API_KEY', value: SECRET }] });
    const run = await runCli(['list', '--json'], { env: env() });

    expect(run.exitCode).toBe(0);
    const listed = JSON.parse(run.stdout) as {
      name: string;
      secrets: unknown[];
      tenant_id: string;
    }[];
    expect(listed).toHaveLength(1);
    expect(listed[0]?.secrets).toEqual([{ name: 'OPENAI_API_KEY', value: '***' }]);
    expect(listed[0]?.tenant_id).toBe(emu.deployments[0]?.tenant_id);
    expectNoSecret([SECRET, KEY], run);
  });

  it('streams --all --json page by page as one JSON array: the same text as the whole array at once', async () => {
    emu.seedDeployments(250, (i) => ({
      name: `agent-${i}`,
      secrets: [{ name: 'OPENAI_API_KEY', value: `${SECRET}-${i}` }],
    }));
    const run = await runCli(['list', '--all', '--json'], { env: env() });

    expect(run.exitCode).toBe(0);
    expect(listings()).toHaveLength(3);
    const listed = JSON.parse(run.stdout) as { id: string; secrets: unknown[] }[];
    expect(listed.map((each) => each.id)).toEqual(emu.deployments.map((each) => each.id));
    expect(run.stdout).toBe(`${JSON.stringify(listed, null, 2)}\n`);
    expect(listed.every((each) => JSON.stringify(each.secrets).includes('"***"'))).toBe(true);
    expectNoSecret([SECRET, KEY], run);
  });

  it('says on stderr that nothing matches, and exits 0 with nothing on stdout (or [] with --json)', async () => {
    const run = await runCli(['list', '--name-contains', 'nothing'], { env: env() });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('no deployment matches');

    const json = await runCli(['list', '--json'], { env: env() });
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it('shows a tab or a line break in a name escaped, so that each deployment stays one line of seven fields', async () => {
    emu.seedDeployment({ name: 'agent\tname\nwith::break' });
    const run = await runCli(['list'], { env: env() });
    const rows = fields(run.stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.[0]).toBe('agent\\tname\\nwith::break');
  });

  it('fails with exit 1 on a service failure, naming the call and the status', async () => {
    emu.inject({ status: 503, times: Infinity });
    const run = await runCli(['list'], { env: env() });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/GET \/v2\/deployments.*503/);
    expect(run.stdout).toBe('');
  });

  it('writes a table with a header that fits the width of a terminal (a pseudo-terminal)', async () => {
    emu.seedDeployments(3, (i) => ({
      name: `a-rather-long-deployment-name-${i}`,
      image_version: '1.4.2',
    }));
    const folder = mkdtempSync(path.join(tmpdir(), 'fleet-tty-'));
    try {
      const script = path.join(folder, 'run.sh');
      writeFileSync(script, `stty cols 72 rows 40\nexec "${NODE24}" "${CLI}" list\n`);
      // Not a synchronous spawn: the emulator answers from this process.
      const child = promisify(execFile)('script', ['-qec', `bash ${script}`, '/dev/null'], {
        env: { PATH: process.env.PATH ?? '', HOME: folder, ...env() },
        encoding: 'utf8',
        timeout: 60_000,
      });
      child.child.stdin?.end();
      const screen = (await child).stdout;
      const lines = screen.split(/\r?\n/).filter((line) => line.trim() !== '');
      // The name and the id whole; the columns a person does not act on give way to them.
      expect(lines[0]).toMatch(/^NAME +ID\b/);
      expect(lines.slice(1)).toHaveLength(3);
      for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(72);
      expect(lines[1]).toMatch(/^a-rather-long-deployment-name-0 +[0-9a-f-]{36}\b/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('repos', () => {
  it('lists the integration’s repositories: lines when piped, --json, and a required --integration-id', async () => {
    emu.seedRepos(INTEGRATION, [{ name: 'agent', owner: 'acme', default_branch: 'main' }]);

    const run = await runCli(['repos', '--integration-id', INTEGRATION], { env: env() });
    expect(run.exitCode).toBe(0);
    const [row] = fields(run.stdout);
    expect(row?.slice(0, 2)).toEqual(['acme/agent', 'main']);
    expect(row).toHaveLength(4);

    const json = await runCli(['repos', '--json'], {
      env: env({ DEPLOY_INTEGRATION_ID: INTEGRATION }),
    });
    expect(JSON.parse(json.stdout)).toMatchObject([{ owner: 'acme', name: 'agent' }]);

    emu.requests.length = 0;
    const missing = await runCli(['repos'], { env: env() });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('--integration-id');
    expect(emu.requests).toEqual([]);
  });

  it('fails with exit 1 naming the integration the service does not know', async () => {
    const run = await runCli(['repos', '--integration-id', U1], { env: env() });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('404');
  });
});

describe('--help', () => {
  it('shows every filter of list, and repos its integration', async () => {
    const list = await runCli(['list', '--help'], {});
    for (const option of [
      '--name-contains',
      '--status',
      '--deployment-type',
      '--image-version',
      '--tag-value-ids ID,…',
      '--deployment-ids ID,…',
      '--remote-reconciled BOOLEAN',
      '--limit N',
      '--all',
      '--json',
    ]) {
      expect(list.stdout).toContain(option);
    }
    expect(list.stdout).not.toContain('--events');
    // The service's order, said as such: no order the command does not make (issue 46).
    expect(list.stdout).not.toMatch(/newest|oldest/i);
    expect(list.stdout.replace(/\s+/g, ' ')).toContain('in the order the service answers them');
    const repos = await runCli(['repos', '--help'], {});
    expect(repos.stdout).toContain('--integration-id');
  });
});
