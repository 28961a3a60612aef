/**
 * `npm run bench` (`npm run bench -- --quick` to try it out: fewer start-up runs, no 30 s wait,
 * RESULTS.md left alone). Runs the bundled action under Node 24 against the emulator (loopback
 * only) and prints one markdown report, also written to bench/RESULTS.md. Informational: budgets
 * are shown with a verdict but never fail the bench; it exits 0 unless something crashes.
 *
 * The sections live one a file (startup.ts, requests.ts, search.ts, live.ts, fake-clock.ts,
 * github.ts, fleet.ts, sweep.ts, agents.ts, over common.ts); each also runs alone. This file runs them in
 * order.
 */
import { writeFileSync } from 'node:fs';
import { QUICK, composeReport, type Section } from './common.ts';
import { agentsSection } from './agents.ts';
import { waitingOnFakeClock } from './fake-clock.ts';
import { fleetList } from './fleet.ts';
import { gitHubSection } from './github.ts';
import { waitingInRealTime } from './live.ts';
import { requestsPerRun } from './requests.ts';
import { searchCost } from './search.ts';
import { startUp } from './startup.ts';
import { sweepSection } from './sweep.ts';

/** `--only=startup,github`: just those sections (RESULTS.md is then left alone). */
const ONLY = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const RESULTS = new URL('./RESULTS.md', import.meta.url);

/** Every section, in the report's order, under the name `--only` knows it by. */
const SECTIONS: [string, Section][] = [
  ['startup', startUp],
  ['requests', requestsPerRun],
  ['search', searchCost],
  ['live', waitingInRealTime],
  ['fake-clock', waitingOnFakeClock],
  ['github', gitHubSection],
  ['fleet', fleetList],
  ['sweep', sweepSection],
  ['agents', agentsSection],
];

const report = await composeReport(
  SECTIONS.filter(([name]) => ONLY === undefined || ONLY.includes(name)).map(
    ([, section]) => section,
  ),
);
process.stdout.write(report);
if (!QUICK && ONLY === undefined) writeFileSync(RESULTS, report);
