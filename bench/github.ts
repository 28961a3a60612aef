/**
 * Section 5, GitHub: each GitHub flow once against fresh emulators of the service and of GitHub,
 * a deployment already live on the run's commit, the GitHub requests counted; then the pull
 * request flow under a GitHub that never answers, against the same step with no token.
 * **Budgets: each flow's floor of GitHub requests; a hanging GitHub adds ≤ 15 s, the step
 * green.** Alone: `node script/node24.mjs bench/github.ts [--quick]`.
 */
import { startEmulator, type Emulator } from '../test/emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../test/emulator/github.ts';
import { INTEGRATION } from '../test/support/ids.ts';
import {
  GITHUB_TOKEN,
  PR_HEAD,
  gitHubStep,
  pullRequestEvent,
  type GitHubInputs,
} from '../test/support/github-step.ts';
import {
  API_KEY,
  NEW_SHA,
  OLD_SHA,
  QUICK,
  base,
  failureNote,
  judge,
  median,
  progress,
  pushEvent,
  runAlone,
  sec,
  seedCodehost,
  table,
} from './common.ts';
import { runBundle, type SpawnOptions } from './spawn.ts';

interface GitHubFlow {
  name: string;
  floor: number;
  floorWhy: string;
  github: GitHubInputs;
  event: SpawnOptions['event'];
  /** Seeds both emulators; returns the core's inputs. */
  setUp: (emu: Emulator, gh: GitHubEmulator) => Record<string, string>;
  /** A sub-action's flow (the plan's, the retire's). */
  action?: SpawnOptions['action'];
}

const HANG_RUNS = QUICK ? 1 : 3;

/** The bot's own comment for `bench-agent`, as an earlier run left it. */
const OWN_COMMENT = '<!-- deploy-agent:bench%2Dagent -->\nan earlier run';

/** A codehost step whose deployment is already live on the commit the run is for. */
function liveStep(emu: Emulator, ref: string, sha: string): Record<string, string> {
  seedCodehost(emu, 'bench-agent', sha, ref);
  return {
    ...base(emu),
    name: 'bench-agent',
    'integration-id': INTEGRATION,
    'repo-ref': ref,
    'wait-for-ready': 'true',
  };
}

const PREVIEW: GitHubInputs = { environment: 'preview-pr-7', 'pr-comment': 'true' };

const GITHUB_FLOWS: GitHubFlow[] = [
  {
    name: 'push, no GitHub feature asked for',
    floor: 0,
    floorWhy: 'none: Octokit is not even loaded',
    github: {},
    event: pushEvent(NEW_SHA),
    setUp: (emu) => liveStep(emu, 'main', NEW_SHA),
  },
  {
    name: 'push, `environment: production`',
    floor: 3,
    floorWhy: 'the deployment, its in_progress status, its final status',
    github: { environment: 'production' },
    event: pushEvent(NEW_SHA),
    setUp: (emu) => liveStep(emu, 'main', NEW_SHA),
  },
  {
    name: 'pull request, `environment` + `pr-comment`, no comment yet',
    floor: 7,
    floorWhy: 'deployment, status, viewer, 1 comment page, create, final status, update (2 writes)',
    github: PREVIEW,
    event: pullRequestEvent(),
    setUp: (emu) => liveStep(emu, 'feature', PR_HEAD),
  },
  {
    name: 'pull request, its comment already there',
    floor: 7,
    floorWhy: 'the same, the first write an update',
    github: PREVIEW,
    event: pullRequestEvent(),
    setUp: (emu, gh) => {
      gh.seedComment('acme/agent', 7, OWN_COMMENT, GITHUB_ACTIONS_BOT);
      return liveStep(emu, 'feature', PR_HEAD);
    },
  },
  {
    name: 'pull request with 250 other comments, its own last',
    floor: 9,
    floorWhy: 'the same with 3 comment pages, each read once',
    github: PREVIEW,
    event: pullRequestEvent(),
    setUp: (emu, gh) => {
      gh.seedComments('acme/agent', 7, 250);
      gh.seedComment('acme/agent', 7, OWN_COMMENT, GITHUB_ACTIONS_BOT);
      return liveStep(emu, 'feature', PR_HEAD);
    },
  },
  {
    name: 'plan on a pull request, no plan comment yet',
    floor: 3,
    floorWhy: 'viewer, 1 comment page, create: one walk, one write',
    github: {},
    event: pullRequestEvent(),
    action: 'plan/action.yml',
    setUp: (emu) => {
      seedCodehost(emu, 'bench-agent', NEW_SHA);
      return { ...base(emu), name: 'bench-agent', 'integration-id': INTEGRATION };
    },
  },
  {
    name: 'plan on a pull request, its plan comment and a preview comment there',
    floor: 3,
    floorWhy: 'viewer, 1 comment page, update: one walk, one write',
    github: {},
    event: pullRequestEvent(),
    action: 'plan/action.yml',
    setUp: (emu, gh) => {
      gh.seedComment('acme/agent', 7, OWN_COMMENT, GITHUB_ACTIONS_BOT);
      gh.seedComment(
        'acme/agent',
        7,
        '<!-- deploy-agent-plan:bench%2Dagent -->\nan earlier plan',
        GITHUB_ACTIONS_BOT,
      );
      seedCodehost(emu, 'bench-agent', NEW_SHA);
      return { ...base(emu), name: 'bench-agent', 'integration-id': INTEGRATION };
    },
  },
  {
    name: 'retire on a merged pull request: 2 GitHub deployments, its preview comment',
    floor: 8,
    floorWhy:
      "1 page of deployments, each one's latest status and 1 inactive status each, viewer, 1 comment page, 1 write (and 1 service look-up)",
    github: { environment: 'preview-pr-7' },
    event: pullRequestEvent(undefined, undefined, 'merged'),
    action: 'retire/action.yml',
    setUp: (emu, gh) => {
      gh.seedDeployments('acme/agent', 'preview-pr-7', 2);
      gh.seedComment('acme/agent', 7, OWN_COMMENT, GITHUB_ACTIONS_BOT);
      emu.seedDeployment({ name: 'bench-agent' });
      return { ...base(emu), name: 'bench-agent' };
    },
  },
  {
    name: 're-run of an old commit, a newer one live (commit order)',
    floor: 1,
    floorWhy: '1 compare',
    github: {},
    event: pushEvent(OLD_SHA),
    setUp: (emu, gh) => {
      gh.chain(OLD_SHA, NEW_SHA);
      return liveStep(emu, 'main', NEW_SHA);
    },
  },
];

/** One run of a flow against fresh emulators; `hang`: GitHub never answers. */
async function gitHubRun(flow: GitHubFlow, github: GitHubInputs, hang = false) {
  const [emu, gh] = await Promise.all([startEmulator({ apiKey: API_KEY }), startGitHubEmulator()]);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
  if (hang) gh.inject({ hang: true, times: Infinity });
  const [given, options] = gitHubStep(gh, flow.setUp(emu, gh), github, { event: flow.event });
  const run = await runBundle(given, {
    event: options.event,
    env: options.env ?? {},
    ...(flow.action === undefined ? {} : { action: flow.action }),
  });
  const requests = gh.requests.map(
    (r) => `${r.method} ${r.path.replace(/^\/repos\/acme\/agent/, '')}`,
  );
  await Promise.all([emu.close(), gh.close()]);
  return { run, requests };
}

export async function gitHubSection(): Promise<string> {
  const rows: string[][] = [];
  for (const flow of GITHUB_FLOWS) {
    progress(`github: ${flow.name}`);
    const { run, requests } = await gitHubRun(flow, flow.github);
    const ok = run.exitCode === 0 && requests.length <= flow.floor;
    rows.push([
      flow.name,
      String(requests.length),
      `${flow.floor} (${flow.floorWhy})`,
      requests.join(', ') || '(none)',
      judge(
        ok,
        `GitHub requests, ${flow.name}: ${requests.length} (floor ${flow.floor})${failureNote(run) ? `; ${failureNote(run)}` : ''}`,
      ),
    ]);
  }
  // Added time: the pull request flow with GitHub hanging on every request, against the same
  // step with no token (no GitHub work at all).
  const flow = GITHUB_FLOWS.find((candidate) => candidate.github === PREVIEW);
  if (flow === undefined) throw new Error('no pull request flow');
  const without: number[] = [];
  const hanging: number[] = [];
  const hangRequests: number[] = [];
  let hangNote = '';
  for (let round = 0; round < HANG_RUNS; round++) {
    progress(`github: hanging GitHub, round ${round + 1} of ${HANG_RUNS}`);
    without.push((await gitHubRun(flow, { ...flow.github, 'github-token': '' })).run.elapsedMs);
    const hung = await gitHubRun(flow, flow.github, true);
    if (hung.run.exitCode !== 0) hangNote = failureNote(hung.run);
    hanging.push(hung.run.elapsedMs);
    hangRequests.push(hung.requests.length);
  }
  const added = median(hanging) - median(without);
  return [
    '## 5. GitHub',
    '',
    'Each flow runs once against fresh emulators of the service and of GitHub (`GITHUB_API_URL`), ' +
      'the token a GITHUB_TOKEN; the deployment is already live on the commit the run is for ' +
      '(`wait-for-ready: true`), so the GitHub requests are the only variable. Requests are ' +
      'counted by the GitHub emulator, every attempt included.',
    '',
    table(['Flow', 'GitHub requests', 'Budget: floor', 'Sequence', 'Verdict'], rows),
    '',
    `**Added time under a hanging GitHub**: the pull request flow (record + comment) with every ` +
      `GitHub request left unanswered, against the same step with an empty \`github-token\` (no ` +
      `GitHub work), ${HANG_RUNS} run${HANG_RUNS === 1 ? '' : 's'} each, medians, the bundle's real ` +
      'limits (2 attempts within 10 s a call, 15 s for all the GitHub work of a run).',
    '',
    table(
      ['Measure', 'Value', 'Budget', 'Verdict'],
      [
        ['step, no GitHub work: spawn → exit', sec(median(without)), 'reference', '—'],
        ['step, GitHub hanging: spawn → exit', sec(median(hanging)), 'reference', '—'],
        [
          '**added by the hanging GitHub**',
          `**${sec(added)}**`,
          '≤ 15 s',
          judge(
            added <= 15_000 && hangNote === '',
            `a hanging GitHub added ${sec(added)}${hangNote ? ` (${hangNote})` : ''} (budget ≤ 15 s, the deploy green)`,
          ),
        ],
        ['GitHub requests sent (median)', String(median(hangRequests)), 'reference', '—'],
      ],
    ),
  ].join('\n');
}

runAlone(import.meta.url, gitHubSection);
