#!/usr/bin/env node
/** The command's entry (dist/cli.js, the package's bin): wires the process to `main`, nothing else. */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBounded } from '../inputs/bounded-read.js';
import { main } from './main.js';
import { quietWhenReaderGoes } from './world.js';

/** dist/.. (package.json, action.yml); joined at run time, else the bundler would copy the files into dist/. */
const PACKAGE_DIR = [dirname(fileURLToPath(import.meta.url)), '..'].join(sep);

function version(): string {
  try {
    const file = [PACKAGE_DIR, 'package.json'].join(sep);
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

process.exitCode = await main({
  args: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  // A reader that goes away (`| head`) ends output quietly, not with a stack trace.
  stdout: quietWhenReaderGoes(process.stdout),
  stderr: quietWhenReaderGoes(process.stderr),
  readFile: (path, cap) => readBounded(path, { cap }),
  writeFile: (path, text) => writeFileSync(path, text),
  version,
  packageDir: PACKAGE_DIR,
  onSignal: (handler) => {
    for (const signal of SIGNALS) process.on(signal, handler);
    return () => {
      for (const signal of SIGNALS) process.off(signal, handler);
    };
  },
  exit: (code) => process.exit(code),
});
