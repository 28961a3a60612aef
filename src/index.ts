/**
 * The bundle's start, shared by every entry of the action: the runner starts
 * dist/index.js for action.yml, dist/plan.js for plan/action.yml,
 * dist/retire.js for retire/action.yml and dist/sweep.js for
 * sweep/action.yml (each only imports this bundle); the file it started
 * says which entry runs.
 * No top-level await: it would keep the bundler from joining the modules
 * into one scope, which costs start-up (bench/RESULTS.md). A rejection still
 * ends the process with an error.
 */
import { run as deploy } from './main.js';
import { run as plan } from './plan.js';
import { run as retire } from './retire.js';
import { run as sweep } from './sweep.js';

/** The file the runner started: `index.js`, `plan.js`, `retire.js` or `sweep.js`. */
const file = /[^\\/]*$/.exec(process.argv[1] ?? '')?.[0];
const entries: Readonly<Record<string, () => Promise<void>>> = {
  'plan.js': plan,
  'retire.js': retire,
  'sweep.js': sweep,
};
const entry = entries[file ?? ''] ?? deploy;

void entry();
