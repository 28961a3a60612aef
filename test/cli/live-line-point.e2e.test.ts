/**
 * What a person acts on, in an 80-column terminal (issue 56, items 3, 4 and
 * 8), through dist/cli.js in a pseudo-terminal against the service emulator
 * and its agents' addresses: the live line starts with the answer of the
 * health check, or with how many agents are live and what each waiting one
 * waits on, and keeps its elapsed time; no line breaks inside a word (an
 * id); no live line stays on screen once the run is over, above `error:`
 * or anywhere; and in CI the shared status checks of several agents never
 * blame the service for the time a check waits its turn.
 */
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import { runInTerminal } from '../support/terminal.ts';
import { runCli } from './run-cli.ts';
import { QUICK } from '../support/quick.ts';

const KEY = 'live-point-api-key-0123456789';
const COLUMNS = 80;
const ERASE_LINE = '\r\u001b[2K';
const AGENTS = '{"agents": {"support": {}, "research": {}, "triage": {}}}';
const MANIFEST = [
  '--agents',
  AGENTS,
  '--integration-id',
  INTEGRATION,
  '--repository',
  'acme/agent',
];
const DOCKER = ['--name', 'agent', '--source', 'external_docker', '--image-uri', 'reg/agent:1'];

let emu: Emulator;

afterEach(async () => {
  await emu.close();
});

/** The service's variables, the shipped pace of the checks unless `extra` says otherwise. */
const env = (extra: Record<string, string> = {}) => ({
  DEPLOY_API_URL: emu.url,
  DEPLOY_API_KEY: KEY,
  ...extra,
});

/** Each draw of the live line as the terminal showed it (before whatever line replaced it). */
function liveDraws(screen: string): string[] {
  return screen
    .split(ERASE_LINE)
    .slice(1)
    .map((draw) => stripVTControlCharacters(draw.split('\r\n')[0] ?? ''))
    .filter((row) => row.startsWith('… '));
}

/** The rows left on the screen at the end, as a terminal keeps them: what a row erase cleared is gone. */
function rowsLeft(screen: string): string[] {
  const rows = screen
    .split('\r\n')
    .map((row) => stripVTControlCharacters(row.split(ERASE_LINE).at(-1) ?? ''));
  return rows.at(-1) === '' ? rows.slice(0, -1) : rows;
}

/** Every draw fits the 80 columns (one short of the edge) and ends with the elapsed time. */
function expectFitting(draws: string[]): void {
  expect(draws.length).toBeGreaterThan(0);
  for (const draw of draws) {
    expect(stringWidth(draw), draw).toBeLessThan(COLUMNS);
    expect(draw, draw).toMatch(/ \(\d+ s\)$/u);
  }
}

/** No live line is left on the screen, and none right above `error:`. */
function expectNoLiveLineLeft(screen: string): void {
  const rows = rowsLeft(screen);
  for (const row of rows) expect(row).not.toMatch(/^… /u);
  const error = rows.findIndex((row) => row.startsWith('error:'));
  expect(error).toBeGreaterThan(0);
  expect(rows[error - 1]).not.toMatch(/waiting until live|\d+ of \d+ live/u);
}

describe('the health check in an 80-column terminal', () => {
  beforeEach(async () => {
    emu = await startEmulator({ apiKey: KEY, addresses: true, readyAfterPolls: 1 });
  });

  it('shows the answer (503) before the address, keeps the time, and leaves no live line above error:', async () => {
    emu.setOptions({ addressBehaviour: { slowStartMs: 3_600_000 } });

    const { screen, exitCode } = await runInTerminal(
      ['deploy', ...DOCKER, '--wait', '--wait-timeout', '3', '--health-check', '/ok'],
      { columns: COLUMNS, env: env(QUICK) },
    );
    expect(exitCode).toBe(1);

    const health = liveDraws(screen).filter((draw) => draw.includes('health check'));
    expectFitting(health);
    for (const draw of health) {
      expect(draw).toMatch(/^… waiting until live: health check: 503 Service Unavailable from /u);
    }
    expectNoLiveLineLeft(screen);
  });

  it('shows the refusal (401) in view, and clears the live line when the wait gives up', async () => {
    emu.setOptions({ addressBehaviour: { requireHeader: { name: 'X-Agent-Key', value: 'k' } } });

    const { screen, exitCode } = await runInTerminal(
      ['deploy', ...DOCKER, '--wait', '--wait-timeout', '30', '--health-check', '/ok'],
      { columns: COLUMNS, env: env(QUICK) },
    );
    expect(exitCode).toBe(1);

    const health = liveDraws(screen).filter((draw) => draw.includes('health check'));
    expectFitting(health);
    for (const draw of health) expect(draw).toContain('health check: 401 Unauthorized from ');
    expectNoLiveLineLeft(screen);
  });
});

describe('several agents in an 80-column terminal', () => {
  beforeEach(async () => {
    emu = await startEmulator({ apiKey: KEY });
    seedAgentRepository(emu);
  });

  it('says how many are live and which agent waits on what, each agent in view', async () => {
    const { screen, exitCode } = await runInTerminal([...deployAll('3')], {
      columns: COLUMNS,
      env: env(),
    });
    expect(exitCode).toBe(1);

    const draws = liveDraws(screen);
    expectFitting(draws);
    // While all three wait on the same status, one part names them all.
    const all = draws.filter((draw) => /^… 0 of 3 live · \w+, \w+, \w+: /u.test(draw));
    expect(all.length).toBeGreaterThan(0);
    for (const draw of all) {
      expect(draw).toMatch(/^… 0 of 3 live · \w+, \w+, \w+: AWAITING_DATABASE \(\d+ s\)$/u);
      for (const agent of ['support', 'research', 'triage']) expect(draw).toContain(agent);
    }
    expectNoLiveLineLeft(screen);
    // The error's long lines break between words: each row fits, each id stays whole on one.
    const rows = rowsLeft(screen);
    for (const row of rows) expect(stringWidth(row), row).toBeLessThanOrEqual(COLUMNS);
    for (const { id } of emu.deployments) {
      expect(rows.filter((row) => row.includes(id)).length).toBeGreaterThanOrEqual(2);
    }
  });

  it('counts the agents live and names the one still waiting: 2 of 3 live · research: AWAITING_DATABASE', async () => {
    seedReady(['support', 'triage']);

    const { screen, exitCode } = await runInTerminal([...deployAll('3')], {
      columns: COLUMNS,
      env: env(),
    });
    expect(exitCode).toBe(1);

    const draws = liveDraws(screen);
    expectFitting(draws);
    expect(draws.at(-1)).toMatch(/^… 2 of 3 live · research: AWAITING_DATABASE \(\d+ s\)$/u);
    expectNoLiveLineLeft(screen);
  });

  it('names together the agents whose health checks get the same answer, without their addresses', async () => {
    await emu.close();
    emu = await startEmulator({ apiKey: KEY, addresses: true, readyAfterPolls: 1 });
    seedAgentRepository(emu);
    emu.setOptions({ addressBehaviour: { slowStartMs: 3_600_000 } });

    const { screen, exitCode } = await runInTerminal([...deployAll('3'), '--health-check', '/ok'], {
      columns: COLUMNS,
      env: env(QUICK),
    });
    expect(exitCode).toBe(1);

    const draws = liveDraws(screen).filter((draw) => draw.includes('health'));
    expectFitting(draws);
    for (const draw of draws) expect(draw).not.toContain('127.0.0.1');
    expect(draws).toContainEqual(
      expect.stringMatching(
        /^… 0 of 3 live · \w+, \w+, \w+: health 503 Service Unavailable \(\d+ s\)$/u,
      ),
    );
    expectNoLiveLineLeft(screen);
  });

  it('writes the lines with ids within 80 columns', async () => {
    const seeded = seedReady(['support', 'research', 'triage']);

    const { screen, exitCode } = await runInTerminal([...deployAll('3')], {
      columns: COLUMNS,
      env: env(),
    });
    expect(exitCode).toBe(0);

    const rows = rowsLeft(screen);
    for (const row of rows) expect(stringWidth(row), row).toBeLessThanOrEqual(COLUMNS);
    for (const { id, name } of seeded) {
      expect(rows).toContainEqual(`[${name}] reused '${name}': ${id} (READY)`);
    }
  });
});

describe('the shared status checks of several agents, in CI', () => {
  beforeEach(async () => {
    emu = await startEmulator({ apiKey: KEY });
    seedAgentRepository(emu);
  });

  const silent = / the service has not answered a status check for (\d+\.\d) s/u;

  it("does not blame the service for a check's turn in the shared queue", async () => {
    // One agent's create answers half a second late: its checks come between the shared
    // requests, and wait their turn for the next one while its heartbeat is due.
    emu.inject({ method: 'POST', path: '/v2/deployments', delayMs: 500 });
    const run = await runCli(deployAll('4'), { env: env({ DEPLOY_AGENT_HEARTBEAT_MS: '300' }) });

    expect(run.exitCode).toBe(1);
    const waiting = run.stderr.split('\n').filter((line) => line.includes('waiting until live:'));
    // The heartbeat is due many times while the checks wait their turn: a line each, no blame.
    for (const agent of ['support', 'research', 'triage']) {
      expect(waiting.filter((line) => line.startsWith(`[${agent}] `)).length).toBeGreaterThan(3);
    }
    expect(waiting.filter((line) => silent.test(line))).toEqual([]);
  });

  it('still says so when the service does not answer a request that left', async () => {
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      query: { deployment_ids: /./u },
      delayMs: Infinity,
    });

    const run = await runCli(deployAll('4'), { env: env({ DEPLOY_AGENT_HEARTBEAT_MS: '300' }) });

    expect(run.exitCode).toBe(1);
    const blamed = run.stderr.split('\n').filter((line) => silent.test(line));
    expect(blamed.length).toBeGreaterThan(0);
    for (const line of blamed) {
      expect(Number(silent.exec(line)?.[1])).toBeGreaterThanOrEqual(1);
    }
  });
});

/** A READY deployment of each of `names`, from acme/agent, as an earlier run left it. */
function seedReady(names: string[]): { id: string; name: string }[] {
  return names.map((name) =>
    emu.seedDeployment({
      name,
      status: 'READY',
      source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL },
    }),
  );
}

/** The deploy of the three agents, waiting `timeout` seconds. */
function deployAll(timeout: string): string[] {
  return ['deploy', ...MANIFEST, '--wait', '--wait-timeout', timeout];
}
