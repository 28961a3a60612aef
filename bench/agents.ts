/**
 * Section 9, several agents in one step: dist/index.js with a manifest of 1, 5 and 20 codehost
 * agents of one integration, each created and waited for until live (the emulator makes a
 * created deployment READY 6 s after it is stored), against a fresh emulator; beside it, one
 * agent deployed by a step of its own, the slowest single agent. **Budgets: the request floor
 * (the listing once, for each agent a look-up, a create and the look-up after it, and one
 * status request a check for every waiting agent: no more checks than one agent alone needs,
 * plus one); at most 30 checks in any minute; the wall time within 1.2× the single agent's, not
 * the sum.** Peak RSS is shown. Alone: `node script/node24.mjs bench/agents.ts [--quick]`.
 */
import { startEmulator, type Emulator } from '../test/emulator/emulator.ts';
import { INTEGRATION } from '../test/support/ids.ts';
import {
  NEW_SHA,
  QUICK,
  REPO,
  base,
  count,
  failureNote,
  isPoll,
  judge,
  mb,
  progress,
  pushEvent,
  runAlone,
  sec,
  table,
} from './common.ts';
import { peakMemoryHook, runBundle, type Timed } from './spawn.ts';

const SIZES = QUICK ? [1, 5] : [1, 5, 20];
const READY_AFTER_MS = 6_000;

async function freshEmulator(): Promise<Emulator> {
  const emu = await startEmulator({
    apiKey: 'bench-api-key-0123456789',
    readyAfterMs: READY_AFTER_MS,
  });
  emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent', url: REPO, default_branch: 'main' }]);
  emu.setHead(REPO, 'main', NEW_SHA);
  return emu;
}

const step = (emu: Emulator) => ({
  ...base(emu),
  'integration-id': INTEGRATION,
  'wait-for-ready': 'true',
  'wait-timeout': '120',
});

/** A manifest of `size` agents, `agent-1` to `agent-N`, each its own config path. */
function manifest(size: number): string {
  const entries = Array.from(
    { length: size },
    (_, i) => `  agent-${i + 1}:\n    agent-config-path: apps/agent-${i + 1}/langgraph.json`,
  );
  return `agents:\n${entries.join('\n')}\n`;
}

/** The most requests that started within any 60 s. */
function mostInAMinute(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let start = 0, end = 0; end < sorted.length; end++) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= 60_000) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

interface Measured {
  run: Timed;
  requests: number;
  listings: number;
  polls: number;
  mostPollsInAMinute: number;
}

async function measure(
  inputs: (emu: Emulator) => Record<string, string>,
  files?: Record<string, string>,
): Promise<Measured> {
  const emu = await freshEmulator();
  try {
    const run = await runBundle(inputs(emu), {
      event: pushEvent(NEW_SHA),
      nodeArgs: ['--import', peakMemoryHook()],
      ...(files === undefined ? {} : { files }),
    });
    const polls = emu.requests.filter(isPoll);
    return {
      run,
      requests: emu.requests.length,
      listings: emu.requests.filter((r) => r.path.endsWith('/repos')).length,
      polls: polls.length,
      mostPollsInAMinute: mostInAMinute(polls.map((r) => r.arrivedAt)),
    };
  } finally {
    await emu.close();
  }
}

export async function agentsSection(): Promise<string> {
  progress('agents: one agent alone');
  const single = await measure((emu) => ({
    ...step(emu),
    name: 'agent-1',
    'agent-config-path': 'apps/agent-1/langgraph.json',
  }));
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const size of SIZES) {
    progress(`agents: a manifest of ${size}`);
    const many = await measure((emu) => ({ ...step(emu), agents: 'deploy/agents.yaml' }), {
      'deploy/agents.yaml': manifest(size),
    });
    const floor = 1 + size * 3 + single.polls;
    const ratio = many.run.elapsedMs / single.run.elapsedMs;
    const failed = failureNote(many.run);
    if (failed !== '') notes.push(`\n${size} agents: ${failed}`);
    rows.push([
      count(size),
      `${count(many.requests)} (floor ${count(floor)}: listings ${many.listings}, checks ${many.polls} vs ${single.polls} alone) ${judge(many.listings === 1 && many.requests <= floor + 1, `${size} agents: requests at the floor`)}`,
      `${many.mostPollsInAMinute} ${judge(many.mostPollsInAMinute <= 30, `${size} agents: at most 30 checks a minute`)}`,
      `${sec(many.run.elapsedMs)} (${ratio.toFixed(2)}× one agent's ${sec(single.run.elapsedMs)}) ${judge(ratio <= 1.2, `${size} agents: wall time within 1.2× one agent's`)}`,
      mb(many.run.peakRssKb),
    ]);
  }
  return [
    '## Several agents in one step',
    '',
    `Each agent created and waited for (READY ${READY_AFTER_MS / 1000} s after it is stored); the floor is the listing once, a look-up, a create and a look-up after it for each agent, and the checks one agent alone needs.`,
    '',
    table(['Agents', 'Requests', 'Most checks in a minute', 'Wall time', 'Peak RSS'], rows),
    ...notes,
  ].join('\n');
}

runAlone(import.meta.url, agentsSection);
