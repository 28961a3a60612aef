/**
 * Section 4, waiting until live, on a fake clock: the action's own wait code (`wait-cost.ts`)
 * counts what a wait of 60 s and of 5 min costs, and sweeps the live moment across the wait for
 * the worst delay to the check that sees it. **Budgets: ≤ 30 checks in any minute; seen ≤ 2 s after the
 * live moment, at any length of wait.** Alone: `node script/node24.mjs
 * bench/fake-clock.ts [--quick]`.
 */
import { judge, progress, runAlone, seconds3, table } from './common.ts';
import { allowSourceImports } from './source-hooks.ts';

/** The waits whose request cost is computed on the fake clock. */
const WAIT_COSTS_MS = [60_000, 300_000];

/** The schedule and what waits cost, with the real wait code on a fake clock (no real minutes). */
export async function waitingOnFakeClock(): Promise<string> {
  progress('wait: costs and worst cases on a fake clock');
  allowSourceImports();
  const { waitOnFakeClock, DEFAULT_WAIT } = await import('./wait-cost.ts');
  const costRows: string[][] = [];
  for (const waitMs of WAIT_COSTS_MS) {
    const live = await waitOnFakeClock(waitMs, waitMs + 120_000);
    const timedOut = await waitOnFakeClock(undefined, waitMs);
    const most = Math.max(live.pollsInAMinute, timedOut.pollsInAMinute);
    // It ends at the first check at or after the live moment: at most one interval later.
    const ok =
      live.live &&
      live.endedAfterMs >= waitMs &&
      live.endedAfterMs - waitMs <= DEFAULT_WAIT.maxIntervalMs &&
      !timedOut.live;
    costRows.push([
      waitMs < 120_000 ? `${waitMs / 1000} s` : `${waitMs / 60_000} min`,
      String(live.polls),
      String(timedOut.polls),
      String(2 + live.polls),
      String(most),
      '≤ 30',
      judge(
        most <= 30 && ok,
        `waiting (fake clock): a wait of ${waitMs / 1000} s makes ${most} checks in a minute (budget ≤ 30)${ok ? '' : ', and did not end as set up'}`,
      ) + (ok ? '' : ' (the wait did not end as set up)'),
    ]);
  }

  // Live moments just after each whole step (+1 ms): the worst cases sit just after a check.
  // One check at most 2 s after the last, at any length of wait: seen within 2 s, always.
  const bands = [
    { what: 'under 10 s (every 0.25 s, +1 ms)', from: 0, to: 10_000, step: 250, budget: 2_000 },
    {
      what: '10 s to 5 min (every 1 s, +1 ms)',
      from: 10_000,
      to: 300_000,
      step: 1_000,
      budget: 2_000,
    },
  ];
  const checks = new Set<number>();
  const sweepRows: string[][] = [];
  for (const band of bands) {
    let worst = { delay: -Infinity, at: NaN };
    let runs = 0;
    for (let at = band.from + 1; at < band.to; at += band.step) {
      const result = await waitOnFakeClock(at, at + 60_000);
      runs++;
      checks.add(result.endedAfterMs);
      const delay = result.endedAfterMs - at;
      if (!result.live) worst = { delay: Infinity, at };
      else if (delay > worst.delay) worst = { delay, at };
    }
    sweepRows.push([
      band.what,
      String(runs),
      `**${seconds3(worst.delay)}**`,
      seconds3(worst.at),
      `≤ ${band.budget / 1000} s`,
      judge(
        worst.delay <= band.budget,
        `waiting (fake clock): a revision that goes live ${band.what.replace(/ \(.*/, '')} into the wait can be seen up to ${seconds3(worst.delay)} later (live at ${seconds3(worst.at)}, seen at the check at ${seconds3(worst.at + worst.delay)}; budget ≤ ${band.budget / 1000} s)`,
      ),
    ]);
  }
  const schedule = [...checks]
    .sort((a, b) => a - b)
    .slice(0, 8)
    .map((t) => t / 1000)
    .join(', ');
  return [
    '### On a fake clock',
    '',
    'The action’s own wait code (`waitUntilLive` with `DEFAULT_WAIT` from `src/run/ports/pace.ts`: first ' +
      `interval ${DEFAULT_WAIT.initialIntervalMs / 1000} s, ×${DEFAULT_WAIT.growth}, cap ` +
      `${DEFAULT_WAIT.maxIntervalMs / 1000} s), in the bench process, with \`Service\` and ` +
      '`ServiceClient` over real HTTP to an emulator whose `now` is the same fake clock as the ' +
      'wait’s, so minutes of waiting take no real time. Each wait is the one a codehost reuse ' +
      'runs after a push: the revision of the pushed commit goes live `buildMs` after the wait ' +
      'starts (or never). Requests take no time on this clock, so the delays below hold no ' +
      'round trip and no process exit (the real-time table has those).',
    '',
    `Checks come at ${schedule} … s after the wait starts.`,
    '',
    table(
      [
        'Wait',
        'Status checks (revision live at the end)',
        'Status checks (never live, wait-timeout reached)',
        'Requests for the step (codehost reuse: 2 + checks)',
        'Most checks in any minute',
        'Budget',
        'Verdict',
      ],
      costRows,
    ),
    '',
    'Worst delay from the live moment to the check that sees it, over live moments swept across ' +
      'the wait (the budget is about the step’s end, which comes a round trip and an exit later):',
    '',
    table(
      [
        'Live moment after the wait starts',
        'Waits',
        'Worst delay',
        'at live moment',
        'Budget',
        'Verdict',
      ],
      sweepRows,
    ),
  ].join('\n');
}

runAlone(import.meta.url, waitingOnFakeClock);
