/**
 * Section 2, requests per run: each flow (codehost and internal_docker, create and reuse, a
 * commit already live, reuse among 10,000 partial name matches) once against a fresh emulator,
 * its requests counted. **Budget: each flow's floor.** Alone: `node script/node24.mjs
 * bench/requests.ts [--quick]`.
 */
import { startEmulator, type Emulator } from '../test/emulator/emulator.ts';
import { pullRequestEvent } from '../test/support/github-step.ts';
import { INTEGRATION } from '../test/support/ids.ts';
import {
  API_KEY,
  NEW_SHA,
  PAGE_LIMIT,
  base,
  count,
  describeRequests,
  failureNote,
  judge,
  progress,
  pushEvent,
  runAlone,
  searchInputs,
  imageStep,
  seedCodehost,
  seedImage,
  seedSearch,
  table,
} from './common.ts';
import { runBundle, type SpawnOptions } from './spawn.ts';

interface Flow {
  name: string;
  floor: number;
  floorWhy: string;
  /** Outputs the run must set (e.g. created, live). */
  outputs: Record<string, string>;
  setUp: (emu: Emulator) => Record<string, string>;
  event?: SpawnOptions['event'];
  /** A sub-action's flow (the plan's, the retire's). */
  action?: SpawnOptions['action'];
}

const FLOWS: Flow[] = [
  {
    name: 'codehost, create',
    floor: 4,
    floorWhy: 'repos, 1 list page, POST, 1 list page: the name looked up again',
    outputs: { created: 'true' },
    setUp: (emu) => {
      emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent' }, { name: 'website' }]);
      return { ...base(emu), name: 'bench-agent', 'integration-id': INTEGRATION };
    },
  },
  {
    name: 'codehost, reuse',
    floor: 2,
    floorWhy: 'repos, 1 list page',
    outputs: { created: 'false' },
    setUp: (emu) => {
      emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent' }]);
      emu.seedDeployment({ name: 'bench-agent', source: 'codehost' });
      return { ...base(emu), name: 'bench-agent', 'integration-id': INTEGRATION };
    },
  },
  {
    name: 'codehost, reuse, commit already live, `wait-for-ready: true`',
    floor: 2,
    floorWhy: 'repos, 1 list page; no status check',
    outputs: { created: 'false', live: 'true', 'commit-sha': NEW_SHA },
    event: pushEvent(NEW_SHA),
    setUp: (emu) => {
      seedCodehost(emu, 'bench-agent', NEW_SHA);
      return {
        ...base(emu),
        name: 'bench-agent',
        'integration-id': INTEGRATION,
        'wait-for-ready': 'true',
      };
    },
  },
  {
    name: 'internal_docker (image-uri), create',
    floor: 3,
    floorWhy: '1 list page, POST, 1 list page: the name looked up again',
    outputs: { created: 'true' },
    setUp: (emu) => imageStep(emu, 'bench-agent'),
  },
  {
    name: 'internal_docker (image-uri), reuse',
    floor: 1,
    floorWhy: '1 list page',
    outputs: { created: 'false' },
    setUp: (emu) => seedImage(emu, 'bench-agent'),
  },
  // The plan (plan/action.yml): the requests of the deploy step's dry run, no more.
  {
    name: 'plan, codehost, would create',
    floor: 2,
    floorWhy: 'repos, 1 list page: a dry run of the create',
    outputs: { action: 'create' },
    action: 'plan/action.yml',
    setUp: (emu) => {
      emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent' }]);
      return { ...base(emu), name: 'bench-agent', 'integration-id': INTEGRATION };
    },
  },
  {
    name: 'plan, codehost, would reuse (1 difference)',
    floor: 2,
    floorWhy: 'repos, 1 list page: a dry run of the reuse',
    outputs: { action: 'reuse', changes: '1' },
    action: 'plan/action.yml',
    setUp: (emu) => {
      seedCodehost(emu, 'bench-agent', NEW_SHA);
      return {
        ...base(emu),
        name: 'bench-agent',
        'integration-id': INTEGRATION,
        'agent-config-path': 'agent-v2.json',
      };
    },
  },
  {
    name: 'plan, internal_docker, would reuse',
    floor: 1,
    floorWhy: '1 list page',
    outputs: { action: 'reuse', changes: '0' },
    action: 'plan/action.yml',
    setUp: (emu) => seedImage(emu, 'bench-agent'),
  },
  // The retire (retire/action.yml): the preview looked up by name, read-only.
  {
    name: 'retire, the preview exists',
    floor: 1,
    floorWhy: '1 list page: the look-up by exact name, GET only',
    outputs: { status: 'READY', retired: '0' },
    action: 'retire/action.yml',
    event: pullRequestEvent(undefined, undefined, 'merged'),
    setUp: (emu) => {
      emu.seedDeployment({ name: 'bench-agent-pr-7', status: 'READY' });
      return { ...base(emu), name: 'bench-agent-pr-7' };
    },
  },
];

export async function requestsPerRun(): Promise<string> {
  const rows: string[][] = [];
  const flows: Flow[] = [...FLOWS];
  let searchFloor = 0;
  flows.push({
    name: 'reuse among 10,000 partial name matches, exact one last',
    floor: NaN, // set in setUp, from where the match is
    floorWhy: '',
    outputs: { created: 'false' },
    setUp: (emu) => {
      searchFloor = seedSearch(emu, 10_000);
      return searchInputs(emu);
    },
  });
  for (const flow of flows) {
    progress(`requests: ${flow.name}`);
    const emu = await startEmulator({ apiKey: API_KEY });
    const inputs = flow.setUp(emu);
    const run = await runBundle(inputs, {
      killAfterMs: 120_000,
      event: flow.event,
      ...(flow.action === undefined ? {} : { action: flow.action }),
    });
    await emu.close();
    const floor = Number.isNaN(flow.floor) ? searchFloor : flow.floor;
    const why = flow.floorWhy || `⌈10,001 matches to the exact one / ${PAGE_LIMIT}⌉ list pages`;
    const n = emu.requests.length;
    const wrong = Object.entries(flow.outputs)
      .filter(([output, value]) => run.outputs[output] !== value)
      .map(([output]) => `${output}=${run.outputs[output] ?? '(unset)'}`);
    const problems = [failureNote(run), run.exitCode === 0 ? wrong.join(', ') : ''].filter(Boolean);
    const ok = n <= floor && problems.length === 0;
    rows.push([
      flow.name,
      count(n),
      `${count(floor)} (${why})`,
      describeRequests(emu.requests),
      judge(
        ok,
        `requests: ${flow.name}: ${count(n)} requests, floor ${count(floor)}${problems.length > 0 ? `; ${problems.join('; ')}` : ''}`,
      ) +
        (n > floor ? ' above floor' : '') +
        (problems.length > 0 ? ` ${problems.join('; ')}` : ''),
    ]);
  }
  return [
    '## 2. Requests per run',
    '',
    'Counted from `emu.requests` (one fresh emulator per flow). Pages are `limit=100`. After a ' +
      'create the action looks the exact name up once more (the service does not enforce unique ' +
      'names). The “commit already live” flow runs for a push to main of the commit the ' +
      'deployment already has live, so `wait-for-ready` needs no status check. The plan flows ' +
      'run plan/action.yml (dist/plan.js): the requests of a dry run of the deploy step, GET only.',
    '',
    table(['Flow', 'Requests', 'Budget: floor', 'Sequence', 'Verdict'], rows),
  ].join('\n');
}

runAlone(import.meta.url, requestsPerRun);
