/**
 * Section 4, waiting until live, as a user feels it, in real time: for a spread of delays from
 * 1 s to 120 s, a `wait-for-ready` codehost reuse for a push whose revision goes live that long
 * after the push, just before the step starts. The figure is the time from the moment the
 * emulator turns the revision live to the step's exit, for our schedule and, in the same run,
 * for a constant 1-second poller (the reference: the vendor's own client polls every second).
 * **Goal: median ≤ 1.3 s and worst ≤ 2.5 s over the delays, ≤ 30 checks a minute.**
 * Alone: `node script/node24.mjs bench/live.ts [--quick]`.
 */
import { startEmulator } from '../test/emulator/emulator.ts';
import { INTEGRATION } from '../test/support/ids.ts';
import {
  API_KEY,
  NEW_SHA,
  OLD_SHA,
  QUICK,
  REPO,
  base,
  failureNote,
  isPoll,
  judge,
  median,
  pause,
  progress,
  pushEvent,
  runAlone,
  sec,
  seedCodehost,
  since,
  table,
} from './common.ts';
import { runBundle } from './spawn.ts';

/**
 * How long after the push each revision goes live: spread from 1 s to 120 s, each moved within
 * its 2 s so that the moments fall evenly across any 1 s or 2 s cycle of checks (a real build's
 * end falls at any moment of it; whole seconds would all meet a schedule at the same phase).
 */
const DELAYS_MS = ((count: number) =>
  Array.from({ length: count }, (_, k) => {
    const spread = 1_000 * 120 ** (k / (count - 1));
    const phase = Math.round(((2 * k + 1) * 2_000) / (2 * count));
    return 1_000 + 2_000 * Math.floor((spread - 1_000) / 2_000) + phase;
  }))(QUICK ? 4 : 16);
/** The cases start this far apart, so that their processes do not start all at once. */
const STAGGER_MS = 1_500;
const NAME = 'bench-live';
const GOAL = { medianMs: 1_300, worstMs: 2_500, checksPerMinute: 30 };

interface Seen {
  /** From the live moment to the step's exit (ours) or to the answer that showed it live. */
  lateMs: number;
  checks: number;
  /** The most checks in any 60 s of the wait. */
  checksInAMinute: number;
  problem: string;
}

interface Case {
  delayMs: number;
  ours: Seen;
  reference: Seen;
}

/** An emulator with a deployment live on OLD_SHA and a push of NEW_SHA that goes live `delayMs` after it. */
async function pushed(delayMs: number) {
  const emu = await startEmulator({ apiKey: API_KEY, buildMs: delayMs });
  const deployment = seedCodehost(emu, NAME, OLD_SHA);
  // One read before the push: the emulator counts a build from the later of the push and the
  // moment it first read the deployment READY; read now, the build counts from the push.
  const warm = await fetch(`${emu.url}/v2/deployments?name_contains=${NAME}`, {
    headers: { 'x-api-key': API_KEY },
  });
  await warm.text();
  emu.push(REPO, 'main', NEW_SHA);
  const revision = emu.revisions(deployment.id).at(-1);
  return { emu, deployment, revision, liveAt: (revision?.queuedAt ?? NaN) + delayMs };
}

/** The most of `times` (ms) that fall in any 60 s. */
function mostInAMinute(times: number[]): number {
  return Math.max(
    0,
    ...times.map((from) => times.filter((t) => t >= from && t < from + 60_000).length),
  );
}

/** Our step, spawned as the runner does. */
async function ours(delayMs: number): Promise<Seen> {
  const { emu, deployment, revision, liveAt } = await pushed(delayMs);
  const from = emu.requests.length;
  const run = await runBundle(
    {
      ...base(emu),
      name: NAME,
      'integration-id': INTEGRATION,
      'wait-for-ready': 'true',
      'wait-timeout': String(Math.ceil(delayMs / 1000) + 120),
    },
    { event: pushEvent(NEW_SHA), killAfterMs: delayMs + 180_000 },
  );
  const final = emu.revisions(deployment.id).find((r) => r.id === revision?.id);
  await emu.close();
  const checks = since(emu, from).filter(isPoll);
  const problem = [
    failureNote(run),
    final?.state === 'live' ? '' : `the revision is ${final?.state ?? 'gone'}`,
    run.exitCode === 0 && run.outputs['commit-sha'] !== NEW_SHA ? 'not live on the push' : '',
    run.spawnedAt >= liveAt ? 'live before the step started' : '',
  ]
    .filter(Boolean)
    .join('; ');
  return {
    lateMs: run.exitedAt - liveAt,
    checks: checks.length,
    checksInAMinute: mostInAMinute(checks.map((check) => check.time)),
    problem,
  };
}

/** The reference: a check every second until the pushed revision is the active one. */
async function everySecond(delayMs: number): Promise<Seen> {
  const { emu, deployment, revision, liveAt } = await pushed(delayMs);
  const times: number[] = [];
  let seenAt = NaN;
  const deadline = Date.now() + delayMs + 120_000;
  while (Date.now() < deadline) {
    times.push(Date.now());
    const answer = await fetch(`${emu.url}/v2/deployments?deployment_ids=${deployment.id}`, {
      headers: { 'x-api-key': API_KEY },
    });
    const body = (await answer.json()) as {
      resources: { status: string; active_revision_id: string | null }[];
    };
    const found = body.resources[0];
    if (found?.status === 'READY' && found.active_revision_id === revision?.id) {
      seenAt = Date.now();
      break;
    }
    await pause(1_000);
  }
  await emu.close();
  return {
    lateMs: seenAt - liveAt,
    checks: times.length,
    checksInAMinute: mostInAMinute(times),
    problem: Number.isNaN(seenAt) ? 'never saw it live' : '',
  };
}

async function measure(delayMs: number, index: number): Promise<Case> {
  await pause(index * STAGGER_MS);
  const [mine, theirs] = await Promise.all([ours(delayMs), everySecond(delayMs)]);
  progress(`wait: revision live after ${sec(delayMs)} done`);
  return { delayMs, ours: mine, reference: theirs };
}

export async function waitingInRealTime(): Promise<string> {
  progress(
    `wait: ${DELAYS_MS.length} delays from ${sec(DELAYS_MS[0] ?? 0)} to ${sec(DELAYS_MS.at(-1) ?? 0)}, ours and a 1-second poller, concurrently (real time)`,
  );
  const cases = await Promise.all(DELAYS_MS.map(measure));
  const late = (pick: (c: Case) => Seen) => cases.map((c) => pick(c).lateMs);
  const worst = (values: number[]) => Math.max(...values);
  const oursLate = late((c) => c.ours);
  const theirsLate = late((c) => c.reference);
  const oursRate = Math.max(...cases.map((c) => c.ours.checksInAMinute));
  const theirsRate = Math.max(...cases.map((c) => c.reference.checksInAMinute));
  const problems = cases.flatMap((c) =>
    [c.ours.problem, c.reference.problem]
      .filter(Boolean)
      .map((problem) => `live after ${sec(c.delayMs)}: ${problem}`),
  );
  const summary = table(
    ['Measure', 'Ours (1 s, then every 2 s)', 'A check every 1 s (reference)', 'Goal', 'Verdict'],
    [
      [
        '**median, live → step end**',
        `**${sec(median(oursLate))}**`,
        sec(median(theirsLate)),
        `≤ ${sec(GOAL.medianMs)}`,
        judge(
          median(oursLate) <= GOAL.medianMs,
          `waiting: the step ends a median ${sec(median(oursLate))} after the revision goes live (goal ≤ ${sec(GOAL.medianMs)})`,
        ),
      ],
      [
        '**worst, live → step end**',
        `**${sec(worst(oursLate))}**`,
        sec(worst(theirsLate)),
        `≤ ${sec(GOAL.worstMs)}`,
        judge(
          worst(oursLate) <= GOAL.worstMs,
          `waiting: the step ends up to ${sec(worst(oursLate))} after the revision goes live (goal ≤ ${sec(GOAL.worstMs)})`,
        ),
      ],
      [
        'most checks in any minute',
        String(oursRate),
        String(theirsRate),
        `≤ ${GOAL.checksPerMinute}`,
        judge(
          oursRate <= GOAL.checksPerMinute,
          `waiting: ${oursRate} checks in a minute (goal ≤ ${GOAL.checksPerMinute})`,
        ),
      ],
      [
        'checks, all delays together',
        String(cases.reduce((n, c) => n + c.ours.checks, 0)),
        String(cases.reduce((n, c) => n + c.reference.checks, 0)),
        'reference',
        '—',
      ],
      [
        'result',
        problems.length === 0 ? 'every step: exit 0, live on the push' : problems.join('; '),
        '',
        'exit 0, live on the pushed commit',
        judge(problems.length === 0, `waiting: ${problems.join('; ')}`),
      ],
    ],
  );
  const perDelay = table(
    ['Live after the push', 'Ours: live → step end', 'checks', 'Reference: live → seen', 'checks'],
    cases.map((c) => [
      sec(c.delayMs),
      sec(c.ours.lateMs),
      String(c.ours.checks),
      sec(c.reference.lateMs),
      String(c.reference.checks),
    ]),
  );
  return [
    '## 4. Waiting until live',
    '',
    '### Waiting as a user feels it (real time)',
    '',
    'Each delay is one `wait-for-ready: true` step (codehost, reuse) for a push to main, against ' +
      'its own emulator with `buildMs`: the deployment is live on an older commit, the bench ' +
      'pushes the new one just before it spawns the step, and the emulator lets the revision go ' +
      'live `buildMs` after the push. **Live moment** = the revision’s `queuedAt` + `buildMs`; ' +
      '**live → step end** runs from it to the exit of the step’s process. The reference, in the ' +
      'same run against an emulator of its own with the same delay, checks every second from the ' +
      'push until an answer shows the revision active (in the bench process: no start-up, no ' +
      `exit). The delays ran concurrently, started ${sec(STAGGER_MS)} apart.`,
    '',
    summary,
    '',
    perDelay,
    QUICK ? '\n(--quick: three delays only.)' : '',
  ].join('\n');
}

runAlone(import.meta.url, waitingInRealTime);
