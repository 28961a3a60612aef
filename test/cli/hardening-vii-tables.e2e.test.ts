/**
 * Hardening VII, the command's tables and `--json`, through dist/cli.js
 * against the service emulator: in an 80-column terminal each line of the
 * `list` and `repos` tables fits, the id stays whole and a name too long
 * for both is cut in the middle (its start and its end kept); and
 * `list --json` that fails on a later page still writes
 * one valid JSON array of what it listed, exit 1, the error on stderr (and
 * exit 130 when interrupted while it waits for that page).
 */
import stringWidth from 'string-width';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { INTEGRATION } from '../support/fixtures.ts';
import { runInTerminal } from '../support/terminal.ts';
import { runCli, startCli } from './run-cli.ts';

const KEY = 'tables-api-key-0123456789';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
});
afterEach(async () => {
  await emu.close();
});

const env = () => ({
  DEPLOY_API_URL: emu.url,
  DEPLOY_API_KEY: KEY,
  DEPLOY_AGENT_RETRY_DELAY_MS: '1',
});

/** The table's lines as the terminal received them. */
function tableLines(screen: string): string[] {
  return screen.split('\r\n').filter((line) => line.trim() !== '');
}

/** A table line's cells: the text between runs of two spaces or more. */
const cells = (line: string) => line.split(/ {2,}/);

describe('a table in an 80-column terminal: the line fits, the id whole, the name cut in the middle', () => {
  it('list: a 46-column name and its id make lines within 80 columns', async () => {
    const long = 'checkout-assistant-preview-environment-pr-4711';
    expect(long).toHaveLength(46);
    const [cut, whole] = emu.seedDeployments(2, (i) => ({
      name: i === 0 ? long : 'short-agent',
    }));

    const { screen, exitCode } = await runInTerminal(['list'], { columns: 80, env: env() });
    expect(exitCode).toBe(0);
    const lines = tableLines(screen);

    expect(lines).toHaveLength(3);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    const row = lines.find((line) => line.includes(cut?.id ?? '-'));
    const [name, id] = cells(row ?? '');
    expect(id).toBe(cut?.id);
    expect(name).toMatch(/^checkout-assistant-.*….*-pr-4711$/);
    expect(stringWidth(name ?? '')).toBeLessThan(46);
    // A name that fits beside its id is not cut.
    expect(cells(lines.find((line) => line.includes(whole?.id ?? '-')) ?? '')).toEqual([
      'short-agent',
      whole?.id,
    ]);
  });

  it('list: a name of 200 kB is one row of at most 80 columns, never 200 kB of one', async () => {
    const huge = `start-${'x'.repeat(200_000)}-end`;
    const [deployment] = emu.seedDeployments(1, () => ({ name: huge }));

    const { screen, exitCode } = await runInTerminal(['list'], { columns: 80, env: env() });
    expect(exitCode).toBe(0);

    expect(screen.length).toBeLessThan(1_000);
    const lines = tableLines(screen);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    const [name, id] = cells(lines[1] ?? '');
    expect(id).toBe(deployment?.id);
    expect(name).toMatch(/^start-x+…x+-end$/);
  });

  it('list: wide characters are counted in screen columns, the cut keeps whole characters', async () => {
    // 30 characters of two columns each: 60 columns.
    const wide = `${'エ'.repeat(14)}-本番-${'東'.repeat(12)}`;
    const [deployment] = emu.seedDeployments(1, () => ({ name: wide }));

    const { screen, exitCode } = await runInTerminal(['list'], { columns: 80, env: env() });
    expect(exitCode).toBe(0);
    const lines = tableLines(screen);

    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    const [name, id] = cells(lines[1] ?? '');
    expect(id).toBe(deployment?.id);
    expect(name).toMatch(/^エ+…東+$/u);
    expect(name).not.toContain('\uFFFD');
  });

  it('repos: a repository too long for its line is cut in the middle, its id whole', async () => {
    const owner = 'acme-corporation-platform-engineering';
    const name = 'checkout-assistant-agent-monorepo-production';
    emu.seedRepos(INTEGRATION, [{ owner, name }]);

    const { screen, exitCode } = await runInTerminal(['repos', '--integration-id', INTEGRATION], {
      columns: 80,
      env: env(),
    });
    expect(exitCode).toBe(0);
    const lines = tableLines(screen);

    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    const row = lines.find((line) => line.startsWith('acme-corporation-platform'));
    expect(row).toMatch(/^acme-corporation-platform.*….*-monorepo-production +\d+$/);
  });
});

describe('list --json that fails on a later page', () => {
  it('closes the array of what it listed: stdout is valid JSON, exit 1, the error on stderr', async () => {
    const seeded = emu.seedDeployments(150, (i) => ({ name: `agent-${i}` }));
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      query: { offset: '100' },
      status: 200,
      body: '<!doctype html><html><body><h1>Sign in</h1></body></html>',
      headers: { 'content-type': 'text/html; charset=utf-8' },
      times: Infinity,
    });

    const run = await runCli(['list', '--all', '--json'], { env: env() });

    expect(run.exitCode).toBe(1);
    const listed = JSON.parse(run.stdout) as { id: string; name: string }[];
    expect(listed.map((deployment) => deployment.id)).toEqual(
      seeded.slice(0, 100).map((deployment) => deployment.id),
    );
    expect(run.stderr).toMatch(/GET \/v2\/deployments/);
    // The page that failed was asked for.
    expect(
      emu.requests.some(
        (request) => request.path === '/v2/deployments' && request.query.offset === '100',
      ),
    ).toBe(true);
  });

  it('closes the array when interrupted while a later page is awaited: valid JSON, exit 130', async () => {
    const seeded = emu.seedDeployments(150, (i) => ({ name: `agent-${i}` }));
    // Page 2 never answers: the run waits for it until interrupted.
    emu.inject({ method: 'GET', path: '/v2/deployments', query: { offset: '100' }, delayMs: 1e12 });
    const started = startCli(['list', '--all', '--json'], { env: env() });
    const { child } = started;
    // Once the first page is written.
    const lastOfPage = seeded[99]?.id ?? '-';
    await new Promise<void>((resolve) => {
      let seen = '';
      const reader = (chunk: string) => {
        seen += chunk;
        if (!seen.includes(lastOfPage)) return;
        child.stdout?.off('data', reader);
        resolve();
      };
      child.stdout?.on('data', reader);
    });
    child.kill('SIGINT');
    const run = await started.finished;

    expect(run.exitCode).toBe(130);
    const listed = JSON.parse(run.stdout) as { id: string }[];
    expect(listed.map((deployment) => deployment.id)).toEqual(
      seeded.slice(0, 100).map((deployment) => deployment.id),
    );
    expect(run.stderr).toContain('list was interrupted');
  });
});
