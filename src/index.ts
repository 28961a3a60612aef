/**
 * The bundle's start, shared by every entry of the action: the runner starts
 * dist/index.js for action.yml and dist/plan.js (which only imports this
 * bundle) for plan/action.yml; the file it started says which entry runs.
 */
import { basename } from 'node:path';
import { run as deploy } from './main.js';
import { run as plan } from './plan.js';

await (basename(process.argv[1] ?? '') === 'plan.js' ? plan() : deploy());
