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
import { GITHUB_ACTIONS_BOT, startGitHubEmulator } from '../test/emulator/github.ts';
import { WORKFLOW_REPOSITORY } from '../test/support/action.ts';
import {
  GITHUB_TOKEN,
  PR_HEAD,
  gitHubStep,
  pullRequestEvent,
} from '../test/support/github-step.ts';
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

/** A manifest of `size` agents, `agent-1` to `agent-N`, each its own config path (and `paths`). */
function manifest(size: number, paths = false): string {
  const entries = Array.from({ length: size }, (_, i) => {
    const entry = `  agent-${i + 1}:\n    agent-config-path: apps/agent-${i + 1}/langgraph.json`;
    return paths ? `${entry}\n    paths: [apps/agent-${i + 1}/**]` : entry;
  });
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

/**
 * A pull request that changes one agent of `size`, each with `paths`: the service sees the
 * requests of that one agent alone; GitHub, the pull request's files listed once.
 */
async function pullRequestOfOne(size: number, single: Measured): Promise<string[]> {
  const [emu, gh] = await Promise.all([freshEmulator(), startGitHubEmulator()]);
  emu.setHead(REPO, 'feature', PR_HEAD);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
  gh.setPullRequestFiles(WORKFLOW_REPOSITORY, 7, ['apps/agent-1/graph.py', 'README.md']);
  try {
    const inputs = { ...step(emu), agents: 'deploy/agents.yaml', name: '{agent}-pr-7' };
    const [given, options] = gitHubStep(gh, { ...inputs, 'repo-ref': 'feature' }, {}, {});
    const run = await runBundle(given, {
      ...(options.env === undefined ? {} : { env: options.env }),
      event: pullRequestEvent(),
      nodeArgs: ['--import', peakMemoryHook()],
      files: { 'deploy/agents.yaml': manifest(size, true) },
    });
    const failed = failureNote(run);
    const deployed = emu.deployments.map((deployment) => deployment.name).join(', ');
    const listings = gh.requests.filter((request) => request.path.endsWith('/files')).length;
    const ok =
      failed === '' && deployed === 'agent-1-pr-7' && emu.requests.length <= single.requests + 1;
    return [
      `${count(size)}, a pull request changing 1`,
      `${count(emu.requests.length)} to the service (one agent alone: ${count(single.requests)}; deployed: ${deployed}), ${gh.requests.length} to GitHub (${listings} files listing) ${judge(ok && gh.requests.length === 1, `a pull request changing 1 of ${size}: the requests of one agent`)}${failed === '' ? '' : ` ${failed}`}`,
      '—',
      sec(run.elapsedMs),
      mb(run.peakRssKb),
    ];
  } finally {
    await Promise.all([emu.close(), gh.close()]);
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
  progress(`agents: a pull request changing 1 of ${SIZES.at(-1)}`);
  rows.push(await pullRequestOfOne(SIZES.at(-1) ?? 1, single));
  return [
    '## Several agents in one step',
    '',
    `Each agent created and waited for (READY ${READY_AFTER_MS / 1000} s after it is stored); the floor is the listing once, a look-up, a create and a look-up after it for each agent, and the checks one agent alone needs. The last row: every agent with \`paths\`, on a pull request that changes one of them.`,
    '',
    table(['Agents', 'Requests', 'Most checks in a minute', 'Wall time', 'Peak RSS'], rows),
    ...notes,
  ].join('\n');
}

runAlone(import.meta.url, agentsSection);
