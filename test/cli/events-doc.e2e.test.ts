/**
 * The tool's loop docs/command.md shows for `--events` works as written: the
 * script is taken from the page, and run as a user runs it, with a
 * `deploy-agent` on PATH (dist/cli.js) and the service emulator behind it.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { ROOT } from '../support/action.ts';
import { NODE24 } from '../support/run-action.ts';
import { CLI, runCli } from './run-cli.ts';
import { QUICK } from '../support/quick.ts';

const KEY = 'events-doc-api-key-0123456789';

let emu: Emulator;
let folder: string;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
  folder = mkdtempSync(path.join(tmpdir(), 'events-doc-'));
});
afterEach(async () => {
  await emu.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The first `js` block of docs/command.md's `--events` section. */
function documentedScript(): string {
  const page = readFileSync(path.join(ROOT, 'docs', 'command.md'), 'utf8');
  const section = page.split('\n## `--events`: a stream for tools\n')[1]?.split('\n## ')[0] ?? '';
  const script = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  expect(script, 'no js block in the --events section of docs/command.md').toBeDefined();
  return script ?? '';
}

it("docs/command.md's tool loop reads a deploy's events to its result", async () => {
  emu.setOptions({ readyAfterPolls: 2 });
  writeFileSync(path.join(folder, 'watch-deploy.mjs'), documentedScript());
  // `deploy-agent` as the package's bin puts it on PATH.
  const bin = path.join(folder, 'deploy-agent');
  writeFileSync(bin, `#!/bin/sh\nexec '${NODE24}' '${CLI}' "$@"\n`);
  chmodSync(bin, 0o755);

  const run = await runCli(
    ['--name', 'agent', '--source', 'external_docker', '--image-uri', 'reg/agent:1', '--wait'],
    {
      command: [NODE24, path.join(folder, 'watch-deploy.mjs')],
      env: {
        PATH: `${folder}${path.delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`,
        DEPLOY_API_URL: emu.url,
        DEPLOY_API_KEY: KEY,
        ...QUICK,
      },
    },
  );

  expect(run.exitCode).toBe(0);
  const id = emu.deployments[0]?.id ?? '';
  expect(run.stdout.trim().split('\n')).toEqual([
    "step find: Looking for deployment 'agent'",
    "step create: Creating deployment 'agent'",
    "step wait: Waiting until 'agent' is live",
    'status AWAITING_DATABASE',
    'status READY',
    `result: succeeded ${id}`,
  ]);
  // The log went where the script left it: stderr.
  expect(run.stderr).toContain("'agent' is live");
});
