/**
 * Never two deployments from one name (docs/how-it-works.md), through the bundled
 * action, on an emulator that allows duplicate names as the service does: a create
 * that takes effect and answers 502 or resets, a listing that lags, and parallel
 * runs, for one deployment and for a manifest. Judged by the deployments stored per
 * name, the POSTs, the outputs and what is printed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type Fault } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, codehostStep, seedAgentRepository } from '../support/fixtures.ts';
import { deploymentsPerName, expectOnePerName } from '../support/one-per-name.ts';
import { printed, runAction, type ActionRun, KILL_AFTER_MS } from '../support/run-action.ts';
import { QUICK } from '../support/quick.ts';
import {
  DEPLOYMENT_NAMES,
  MAIN_HEAD,
  MANIFEST_PATH,
  manifestStep,
  THREE_AGENTS,
} from '../support/manifests.ts';

const API_KEY = 'never-two-key-0123456789abcdef';
const NAMES = Object.values(DEPLOYMENT_NAMES);
/** Each deployment name's agent key in THREE_AGENTS. */
const KEYS = Object.fromEntries(Object.entries(DEPLOYMENT_NAMES).map(([key, name]) => [name, key]));

/** A create that takes effect, then answers 502 or never answers (the connection resets). */
const FAULTS: [string, Fault][] = [
  ['answers 502', { method: 'POST', statusAfter: 502 }],
  ['resets the connection', { method: 'POST', drop: 'after' }],
];
/** Listings that do not show a created deployment at once, within the 6 s look-up window. */
const LAGS = [
  ['a listing that is current', {}],
  ['a listing that lags two reads', { listingLagReads: 2 }],
  ['a listing that lags 2 s', { listingLagMs: 2_000 }],
] as const;

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
const options = { env: QUICK, killAfterMs: KILL_AFTER_MS };

function single(): Promise<ActionRun> {
  return runAction(codehostStep(emu, { 'api-key': API_KEY }), options);
}

function manifest(): Promise<ActionRun> {
  return runAction(manifestStep(emu, { 'api-key': API_KEY }), {
    ...options,
    files: { [MANIFEST_PATH]: THREE_AGENTS },
  });
}

type Entries = Record<string, { 'deployment-id'?: string; created?: boolean }>;
const entriesOf = (run: ActionRun) => JSON.parse(run.outputs.deployments ?? '{}') as Entries;
const idOf = (name: string) => emu.deployments.find((d) => d.name === name)?.id;

describe('one deployment: a create that may have taken effect', () => {
  for (const [lagged, lag] of LAGS) {
    it.each(FAULTS)(`%s, with ${lagged}: uses it, one POST, created`, async (_said, fault) => {
      emu.setOptions(lag);
      emu.inject(fault);

      const run = await single();

      expect(run.exitCode, printed(run)).toBe(0);
      expectOnePerName(emu, ['my-agent']);
      expect(posts()).toHaveLength(1);
      expect(run.outputs['deployment-id']).toBe(idOf('my-agent'));
      expect(run.outputs.created).toBe('true');
      expect(run.stdout).toMatch(/may or may not have created 'my-agent'/);
      expect(run.stdout).toContain(`'my-agent' exists (${idOf('my-agent') ?? ''}): using it`);
      expect(run.stdout).not.toContain('deployments are now named');
    });
  }
});

describe('a manifest: every agent creating at once, each create may have taken effect', () => {
  for (const [lagged, lag] of LAGS.slice(0, 2)) {
    it.each(FAULTS)(`%s, with ${lagged}: one per name, one POST each`, async (_said, fault) => {
      emu.setOptions(lag);
      emu.inject({ ...fault, times: NAMES.length });

      const run = await manifest();

      expect(run.exitCode, printed(run)).toBe(0);
      expectOnePerName(emu, NAMES);
      expect(
        posts()
          .map((post) => (post.body as { name: string }).name)
          .sort(),
      ).toEqual([...NAMES].sort());
      const entries = entriesOf(run);
      for (const name of NAMES) {
        expect(entries[KEYS[name] ?? '']).toMatchObject({
          'deployment-id': idOf(name),
          created: true,
        });
        expect(run.stdout).toMatch(new RegExp(`may or may not have created '${name}'`));
      }
      expect(run.stdout).not.toContain('deployments are now named');
    });
  }
});

describe('parallel runs', () => {
  it('one deployment, unique names: the loser reuses after 409, one deployment', async () => {
    emu.setOptions({ uniqueNames: true, createBarrier: 2 });

    const runs = await Promise.all([single(), single()]);

    expect(runs.map((run) => run.exitCode)).toEqual([0, 0]);
    expectOnePerName(emu, ['my-agent']);
    expect(posts()).toHaveLength(2);
    const id = idOf('my-agent');
    expect(runs.map((run) => run.outputs['deployment-id'])).toEqual([id, id]);
    expect(runs.map((run) => run.outputs.created).sort()).toEqual(['false', 'true']);
    expect(runs.filter((run) => run.stdout.includes('answered 409'))).toHaveLength(1);
  });

  it('one deployment, duplicates allowed: two are made, and each run warns with both ids', async () => {
    emu.setOptions({ createBarrier: 2 });

    const runs = await Promise.all([single(), single()]);

    expect(runs.map((run) => run.exitCode)).toEqual([0, 0]);
    expect(deploymentsPerName(emu)).toEqual({ 'my-agent': 2 });
    expect(runs.map((run) => run.outputs.created)).toEqual(['true', 'true']);
    expectWarnedWithEveryId(runs, 'my-agent');
  });

  it('a manifest, unique names: one per name, each created by exactly one run', async () => {
    emu.setOptions({ uniqueNames: true, createBarrier: 2 * NAMES.length });

    const runs = await Promise.all([manifest(), manifest()]);

    expect(runs.map((run) => run.exitCode)).toEqual([0, 0]);
    expectOnePerName(emu, NAMES);
    expect(posts()).toHaveLength(2 * NAMES.length);
    for (const name of NAMES) {
      const entries = runs.map((run) => entriesOf(run)[KEYS[name] ?? '']);
      expect(entries.map((entry) => entry?.['deployment-id'])).toEqual([idOf(name), idOf(name)]);
      expect(entries.map((entry) => entry?.created).sort()).toEqual([false, true]);
    }
  });

  it('a manifest, duplicates allowed: two per name, and each run warns with both ids of each', async () => {
    emu.setOptions({ createBarrier: 2 * NAMES.length });

    const runs = await Promise.all([manifest(), manifest()]);

    expect(runs.map((run) => run.exitCode)).toEqual([0, 0]);
    expect(deploymentsPerName(emu)).toEqual(Object.fromEntries(NAMES.map((name) => [name, 2])));
    for (const name of NAMES) expectWarnedWithEveryId(runs, name);
  });
});

/** Each run printed a warning that `name` now has two deployments, naming both stored ids. */
function expectWarnedWithEveryId(runs: ActionRun[], name: string): void {
  const ids = emu.deployments.filter((d) => d.name === name).map((d) => d.id);
  for (const run of runs) {
    const warning = run.stdout
      .split('\n')
      .find((line) => line.startsWith('::warning') && line.includes(`named '${name}'`));
    expect(warning, run.stdout).toContain(`2 deployments are now named '${name}'`);
    for (const id of ids) expect(warning).toContain(id);
  }
}
