/**
 * Never two deployments from one name through the command (`dist/cli.js deploy --agents`),
 * on an emulator that allows duplicate names as the service does: every create of a
 * manifest takes effect and answers 502 or resets, with a listing that lags; and two
 * commands at once on a service with unique names. Judged by the deployments stored per
 * name, the POSTs and the `--json` entries.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type Fault } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, seedAgentRepository } from '../support/fixtures.ts';
import { expectOnePerName } from '../support/one-per-name.ts';
import { QUICK } from '../support/quick.ts';
import { runCli, type CliRun } from './run-cli.ts';
import { DEPLOYMENT_NAMES, deployAgentsArgs, MAIN_HEAD, TWO_AGENTS } from '../support/manifests.ts';

const API_KEY = 'never-two-cli-key-0123456789abc';
const KEYS = ['support', 'research'];
const NAMES = KEYS.map((key) => DEPLOYMENT_NAMES[key] ?? key);

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: API_KEY });
  seedAgentRepository(emu);
  emu.setHead(AGENT_REPO_URL, 'main', MAIN_HEAD);
});

afterEach(async () => {
  await emu.close();
});

const posts = () => emu.requests.filter((request) => request.method === 'POST');
const idOf = (name: string) => emu.deployments.find((d) => d.name === name)?.id;

function deployAgents(): Promise<CliRun> {
  return runCli(deployAgentsArgs('agents.yaml', '--json'), {
    env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: API_KEY, ...QUICK },
    files: { 'agents.yaml': TWO_AGENTS },
    killAfterMs: 18_000,
  });
}

type Entries = Record<string, { 'deployment-id'?: string; created?: boolean }>;
const entriesOf = (run: CliRun) => (run.json?.deployments ?? {}) as Entries;

describe('deploy --agents: every create may have taken effect, the listing lags two reads', () => {
  it.each<[string, Fault]>([
    ['answers 502', { method: 'POST', statusAfter: 502 }],
    ['resets the connection', { method: 'POST', drop: 'after' }],
  ])('%s: one deployment per name, one POST each, each entry created', async (_said, fault) => {
    emu.setOptions({ listingLagReads: 2 });
    emu.inject({ ...fault, times: NAMES.length });

    const run = await deployAgents();

    expect(run.exitCode, run.stderr).toBe(0);
    expectOnePerName(emu, NAMES);
    expect(
      posts()
        .map((post) => (post.body as { name: string }).name)
        .sort(),
    ).toEqual([...NAMES].sort());
    for (const key of KEYS) {
      const name = DEPLOYMENT_NAMES[key] ?? key;
      expect(entriesOf(run)[key]).toMatchObject({ 'deployment-id': idOf(name), created: true });
      expect(run.stderr).toContain(`may or may not have created '${name}'`);
    }
  });
});

describe('two commands at once, on a service with unique names', () => {
  it('one deployment per name, each created by exactly one of them', async () => {
    emu.setOptions({ uniqueNames: true, createBarrier: 2 * NAMES.length });

    const runs = await Promise.all([deployAgents(), deployAgents()]);

    expect(runs.map((run) => run.exitCode)).toEqual([0, 0]);
    expectOnePerName(emu, NAMES);
    for (const key of KEYS) {
      const name = DEPLOYMENT_NAMES[key] ?? key;
      const entries = runs.map((run) => entriesOf(run)[key]);
      expect(entries.map((entry) => entry?.['deployment-id'])).toEqual([idOf(name), idOf(name)]);
      expect(entries.map((entry) => entry?.created).sort()).toEqual([false, true]);
    }
  });
});
