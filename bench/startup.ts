/**
 * Section 1, start-up against the ECS deploy action: rounds of bare `node -e 0`, our bundle and
 * the ECS anchor failing on no inputs, the bundle of BEFORE_COMMIT, and spawn → first request of
 * a reuse run, alternating under the same Node 24 binary; the sub-actions' entries (plan, retire,
 * sweep) fail the same way. **Budget: ours / ECS ≤ 1.0** (failing on missing inputs, ratio of the
 * medians), each sub-action / ECS ≤ 0.90. Alone: `node script/node24.mjs bench/startup.ts
 * [--quick]`.
 */
import { startEmulator } from '../test/emulator/emulator.ts';
import {
  API_KEY,
  BEFORE_COMMIT,
  QUICK,
  beforeBundle,
  failureNote,
  judge,
  median,
  ms,
  pause,
  progress,
  quantile,
  runAlone,
  seedImage,
  table,
} from './common.ts';
import { ANCHOR, runBareNode, runBundle, runScript } from './spawn.ts';

const WARM_UPS = QUICK ? 1 : 3;
const STARTUP_RUNS = QUICK ? 5 : 30;

/** One kind of process timed in each round: how to run it, and what to keep. */
interface StartUpKind {
  key: string;
  run: () => Promise<Partial<Record<string, number>>>;
}

export async function startUp(): Promise<string> {
  progress('start-up');
  const BEFORE = beforeBundle();
  const beforePath = typeof BEFORE === 'string' ? undefined : BEFORE.path;
  const emu = await startEmulator({ apiKey: API_KEY });
  const reuse = seedImage(emu, 'bench-startup');
  const notes = new Set<string>();
  /** A step with no `with:`: every input at its action.yml default, required ones empty. */
  const failing = (what: string, script: string | undefined) => async () => {
    const from = emu.requests.length;
    const run =
      script === 'plan' || script === 'retire' || script === 'sweep'
        ? await runBundle({}, { action: `${script}/action.yml` })
        : script === undefined
          ? await runBundle({})
          : await runScript(script, {});
    if (run.exitCode !== 1 || run.error === undefined) {
      notes.add(`${what} did not fail with an error: ${failureNote(run) || 'exit 0'}`);
    }
    if (emu.requests.length !== from) notes.add(`${what} sent requests`);
    return { [what]: run.elapsedMs };
  };
  const firstRequest = (what: string, script: string | undefined) => async () => {
    const from = emu.requests.length;
    const run = script === undefined ? await runBundle(reuse) : await runScript(script, reuse);
    if (run.exitCode !== 0) notes.add(`${what} reuse run failed: ${failureNote(run)}`);
    const first = emu.requests[from];
    return {
      [`${what} first`]: first === undefined ? undefined : first.time - run.spawnedAt,
      [`${what} exit`]: run.elapsedMs,
    };
  };
  const kinds: StartUpKind[] = [
    { key: 'bare', run: async () => ({ bare: (await runBareNode()).elapsedMs }) },
    { key: 'ours', run: failing('ours', undefined) },
    { key: 'ours first', run: firstRequest('ours', undefined) },
    { key: 'plan', run: failing('plan', 'plan') },
    { key: 'retire', run: failing('retire', 'retire') },
    { key: 'sweep', run: failing('sweep', 'sweep') },
  ];
  if (ANCHOR !== undefined) kinds.push({ key: 'ecs', run: failing('ecs', ANCHOR) });
  if (beforePath !== undefined) {
    kinds.push({ key: 'before', run: failing('before', beforePath) });
    kinds.push({ key: 'before first', run: firstRequest('before', beforePath) });
  }
  const samples = new Map<string, number[]>();
  /** ours / ECS and before / ECS in the same round: robust to drift over the run. */
  const paired = {
    ours: [] as number[],
    before: [] as number[],
    plan: [] as number[],
    retire: [] as number[],
    sweep: [] as number[],
  };
  for (let round = 0; round < WARM_UPS + STARTUP_RUNS; round++) {
    // Alternating: each round runs every kind once, in an order rotated by one each round, so
    // that no kind always follows the same one; a short pause before each lets the previous
    // process's teardown finish.
    const got: Partial<Record<string, number>> = {};
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[(round + k) % kinds.length];
      if (kind === undefined) continue;
      await pause(100);
      Object.assign(got, await kind.run());
    }
    if (round < WARM_UPS) continue;
    for (const [key, value] of Object.entries(got)) {
      if (value !== undefined) samples.set(key, [...(samples.get(key) ?? []), value]);
    }
    if (got.ecs !== undefined && got.ours !== undefined) paired.ours.push(got.ours / got.ecs);
    if (got.ecs !== undefined && got.before !== undefined) paired.before.push(got.before / got.ecs);
    if (got.ecs !== undefined && got.plan !== undefined) paired.plan.push(got.plan / got.ecs);
    if (got.ecs !== undefined && got.retire !== undefined) {
      paired.retire.push(got.retire / got.ecs);
    }
    if (got.ecs !== undefined && got.sweep !== undefined) paired.sweep.push(got.sweep / got.ecs);
  }
  await emu.close();

  const values = (key: string) => samples.get(key) ?? [];
  const bare = median(values('bare'));
  const toBare = (key: string) => median(values(key)) / bare;
  const times = (n: number) => (Number.isNaN(n) ? 'n/a' : `${n.toFixed(2)}×`);
  const row = (what: string, key: string) => [
    what,
    String(values(key).length),
    ms(median(values(key))),
    ms(quantile(values(key), 0.9)),
    key === 'bare' ? '1.00×' : times(toBare(key)),
  ];
  const before = `before (${BEFORE_COMMIT})`;
  const timeRows = [
    row('bare `node -e 0`: spawn → exit', 'bare'),
    row('**ours, no inputs: spawn → exit (fails)**', 'ours'),
    row('**ECS deploy action, no inputs: spawn → exit (fails)**', 'ecs'),
    row('**plan (dist/plan.js), no inputs: spawn → exit (fails)**', 'plan'),
    row('**retire (dist/retire.js), no inputs: spawn → exit (fails)**', 'retire'),
    row('**sweep (dist/sweep.js), no inputs: spawn → exit (fails)**', 'sweep'),
    row(`ours ${before}, no inputs: spawn → exit (fails)`, 'before'),
    row('ours: spawn → first request', 'ours first'),
    row(`ours ${before}: spawn → first request`, 'before first'),
    row('ours, reuse (1 request): spawn → exit', 'ours exit'),
    row(`ours ${before}, reuse (1 request): spawn → exit`, 'before exit'),
  ].filter((r) => r[1] !== '0');
  const ecs = median(values('ecs'));
  const oursToEcs = median(values('ours')) / ecs;
  const beforeToEcs = median(values('before')) / ecs;
  const firstToBare = toBare('ours first');
  /**
   * A sub-action's entry (dist/plan.js, dist/retire.js, dist/sweep.js) against ECS: the same
   * bundle, ≤ 0.90×.
   */
  const subActionRow = (entry: 'plan' | 'retire' | 'sweep') => {
    const ratio = median(values(entry)) / ecs;
    return [
      `**${entry} / ECS, failing on missing inputs** (ratio of the medians)`,
      'n/a',
      `**${times(ratio)}**`,
      '≤ 0.90',
      Number.isNaN(ratio)
        ? 'n/a'
        : judge(
            ratio <= 0.9,
            `start-up: ${entry} / ECS failing on missing inputs is ${times(ratio)} (budget ≤ 0.90)`,
          ),
    ];
  };
  const ratioRows = [
    [
      '**ours / ECS, failing on missing inputs** (ratio of the medians)',
      times(beforeToEcs),
      `**${times(oursToEcs)}**`,
      '≤ 1.0',
      Number.isNaN(oursToEcs)
        ? 'n/a'
        : judge(
            oursToEcs <= 1,
            `start-up: ours / ECS failing on missing inputs is ${times(oursToEcs)} (budget ≤ 1.0)`,
          ),
    ],
    ...(['plan', 'retire', 'sweep'] as const).map((entry) => subActionRow(entry)),
    [
      'the same, median of the ratios within each round',
      times(median(paired.before)),
      times(median(paired.ours)),
      'reference',
      '—',
    ],
    [
      'ours, failing on missing inputs / bare Node',
      times(toBare('before')),
      times(toBare('ours')),
      'reference',
      '—',
    ],
    [
      'ECS, failing on missing inputs / bare Node',
      times(toBare('ecs')),
      times(toBare('ecs')),
      'reference',
      '—',
    ],
    [
      'ours: spawn → first request / bare Node',
      times(toBare('before first')),
      times(firstToBare),
      // Issue 9 replaced the old ≤ 4× budget by the side-by-side one above.
      'reference',
      '—',
    ],
  ];
  if (ANCHOR === undefined) notes.add('no ECS anchor bundle next to this checkout: no comparison');
  if (typeof BEFORE === 'string') notes.add(`no "before" bundle: ${BEFORE}`);
  return [
    '## 1. Start-up',
    '',
    `${STARTUP_RUNS} measured rounds after ${WARM_UPS} warm-up${WARM_UPS === 1 ? '' : 's'}, all ` +
      'under the same Node 24 binary. Each round runs every process below once, alternating (the ' +
      'order rotates by one each round), 100 ms apart. Spawn → exit is `performance.now()` ' +
      'around the child process; the first request is the emulator’s arrival time ' +
      '(`Date.now()`, 1 ms resolution) of a reuse run’s first `GET /v2/deployments` ' +
      '(internal_docker, so no repository look-up), minus the time just before `spawn()`. ' +
      '**No inputs** = a step with no `with:`, in the same runner environment for every process: ' +
      'our bundles get their action.yml defaults (the required inputs empty) and fail on them ' +
      '(the sub-actions `plan/`, `retire/` and `sweep/` their own action.yml’s, each run from the ' +
      'entry its `runs.main` names: dist/plan.js, dist/retire.js, dist/sweep.js); ' +
      'the ECS deploy action’s bundle (`../shared/reference/anchors/ecs-deploy-task-definition.dist.js`) ' +
      'finds none of its own inputs and fails on `task-definition`. ' +
      `**Before** = \`dist/index.js\` of commit ${BEFORE_COMMIT} (before \`@actions/github\` came ` +
      'back), written to a temporary folder for this run.',
    '',
    table(['Process', 'Runs', 'Median', 'p90', '× bare Node'], timeRows),
    '',
    table(['Ratio', before, 'now', 'Budget', 'Verdict'], ratioRows),
    ...[...notes].map((note) => `\n⚠️ ${note}`),
  ].join('\n');
}

runAlone(import.meta.url, startUp);
