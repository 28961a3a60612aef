/**
 * The bundle's start, shared by every entry of the action: the runner starts
 * dist/index.js for action.yml and dist/plan.js (which only imports this
 * bundle) for plan/action.yml; the file it started says which entry runs.
 * No top-level await: it would keep the bundler from joining the modules
 * into one scope, which costs start-up (bench/RESULTS.md). A rejection still
 * ends the process with an error.
 */
import { run as deploy } from './main.js';
import { run as plan } from './plan.js';

void (/[\\/]plan\.js$/.test(process.argv[1] ?? '') ? plan() : deploy());
