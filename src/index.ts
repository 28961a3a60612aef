/**
 * The bundle's start for every entry: the file the runner started (dist/plan.js, …, each only
 * importing this bundle) says which runs. No top-level await: it would keep the bundler from
 * joining the modules into one scope, which costs start-up (bench/RESULTS.md).
 */
import { run as deploy } from './main.js';
import { run as plan } from './plan.js';
import { run as retire } from './retire.js';
import { run as sweep } from './sweep.js';

const file = /[^\\/]*$/.exec(process.argv[1] ?? '')?.[0] ?? '';
const entries: Readonly<Record<string, () => Promise<void>>> = {
  'plan.js': plan,
  'retire.js': retire,
  'sweep.js': sweep,
};

void (entries[file] ?? deploy)();
