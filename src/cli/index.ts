#!/usr/bin/env node
/** The command's entry (dist/cli.js, the package's bin): wires the process to `main`, nothing else. */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from './main.js';

/** The package's version: dist/cli.js sits one level below package.json, in the repository and in the package. */
function version(): string {
  try {
    // Joined at run time: a path the bundler can work out would be copied into dist/ instead.
    const file = [dirname(fileURLToPath(import.meta.url)), '..', 'package.json'].join(sep);
    const manifest: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const found = (manifest as { version?: unknown }).version;
    return typeof found === 'string' ? found : 'unknown';
  } catch {
    return 'unknown';
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

process.exitCode = await main({
  args: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
  readFile: (path) => readFileSync(path, 'utf8'),
  writeFile: (path, text) => writeFileSync(path, text),
  version: version(),
  onSignal: (handler) => {
    for (const signal of SIGNALS) process.on(signal, handler);
    return () => {
      for (const signal of SIGNALS) process.off(signal, handler);
    };
  },
  exit: (code) => process.exit(code),
});
