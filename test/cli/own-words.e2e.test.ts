/**
 * The command speaks its own words (issue 56, item 2; CLI-CONTRACT.md v1.6
 * "The command's own words"): dist/cli.js is run through situations that
 * end in errors, warnings and hints, and nothing it writes (stderr, stdout,
 * --events) names one of the action's inputs as the action does, "the
 * step", "the workflow" or "the secrets input".
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { ROOT } from '../support/action.ts';
import { runCli, type CliRun } from './run-cli.ts';
import { QUICK } from '../support/quick.ts';
import { KILL_AFTER_MS } from '../support/run-action.ts';

const KEY = 'own-words-service-key-0123456';
const DOCKER = ['--source', 'external_docker', '--image-uri', 'reg/agent:1'];
const GUID = '00000000-0000-4000-8000-000000000001';

/** action.yml's inputs. */
const INPUTS = Object.keys(
  (parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as { inputs: object }).inputs,
);

/**
 * What only the action says: an input's name with a hyphen where no `--`, `-`,
 * `.` (a manifest's key path), quote (a JSON key) or letter joins it, any input named "the X input"
 * or "input 'X'", the step, the workflow. A one-word input name alone (`name`,
 * `secrets`) is plain English, and is caught in the phrases above.
 */
const FORBIDDEN: readonly RegExp[] = [
  ...INPUTS.filter((input) => input.includes('-')).map(
    (input) => new RegExp(`(?<![-."\\w])${input}(?![-"\\w])`),
  ),
  ...INPUTS.map((input) => new RegExp(`\\b(the ${input} input|input '${input}')`)),
  /\bthe (step|workflow)('s)?\b/i,
];

/** Each line the run wrote that speaks the action's words. */
function actionWords(run: CliRun): string[] {
  const lines = [...run.stderr.split('\n'), ...run.stdout.split('\n')];
  return lines.filter((line) => FORBIDDEN.some((pattern) => pattern.test(line)));
}

interface Case {
  name: string;
  args: string[];
  env?: Record<string, string>;
  files?: Record<string, string>;
  /** The emulator's state before the run. */
  setup?: (emu: Emulator) => void;
  /** What the run must hold, so that the case reaches the message it sweeps. */
  says: string | RegExp;
}

const seedDocker =
  (image: string, extra: object = {}) =>
  (emu: Emulator) => {
    emu.seedDeployment({
      name: 'agent',
      source: 'external_docker',
      source_config: { resource_spec: { min_scale: 1 } },
      source_revision_config: { image_uri: image },
      ...extra,
    } as never);
  };

const MANIFEST = (entry: string) => ({ 'agents.yml': `agents:\n  support:\n${entry}` });

const CASES: Case[] = [
  {
    name: 'a bad --wait-timeout',
    args: ['deploy', '--name', 'a', ...DOCKER, '--wait-timeout', 'x'],
    says: /wait-timeout/,
  },
  {
    name: 'no image for docker',
    args: ['deploy', '--name', 'a', '--source', 'external_docker'],
    says: /image-uri/,
  },
  {
    name: 'codehost without integration or repository',
    args: ['deploy', '--name', 'a'],
    env: { CI: 'true' },
    says: /integration-id/,
  },
  {
    name: 'a sha with docker',
    args: ['deploy', '--name', 'a', ...DOCKER, '--commit', 'a'.repeat(40)],
    says: /commit/,
  },
  {
    name: 'a health header without a check',
    args: ['deploy', '--name', 'a', ...DOCKER, '--health-check-header', 'X-K'],
    env: { X_K: 'v' },
    says: /health/,
  },
  {
    name: 'a bad --on-drift',
    args: ['deploy', '--name', 'a', ...DOCKER, '--on-drift', 'maybe'],
    says: /on-drift/,
  },
  {
    name: 'a bad --config',
    args: ['deploy', '--name', 'a', ...DOCKER, '--config', '{"nope": 1}'],
    says: /config/,
  },
  {
    name: 'a bad --integration-id',
    args: ['deploy', '--name', 'a', '--integration-id', 'x'],
    says: /integration-id/,
  },
  {
    name: 'an unknown secret in a manifest',
    args: ['deploy', '--agents', 'agents.yml', ...DOCKER],
    files: MANIFEST('    secrets: [OPENAI_API_KEY]\n'),
    says: /OPENAI_API_KEY/,
  },
  {
    name: 'a manifest without repository, CI=true',
    args: ['deploy', '--agents', 'agents.yml', '--integration-id', GUID],
    env: { CI: 'true' },
    files: MANIFEST('    source: codehost\n'),
    says: 'agents.support.repository (for every agent: --repository or DEPLOY_REPOSITORY)',
  },
  {
    name: 'a bad value in a manifest',
    args: ['deploy', '--agents', 'agents.yml', ...DOCKER],
    files: MANIFEST('    wait-timeout: soon\n'),
    says: /wait-timeout/,
  },
  {
    name: 'drift, warned',
    args: [
      'deploy',
      '--name',
      'agent',
      ...DOCKER,
      '--config',
      'source_config: { resource_spec: { min_scale: 3 } }',
    ],
    setup: seedDocker('reg/agent:1'),
    says: /drift/,
  },
  {
    name: 'drift, failed',
    args: [
      'deploy',
      '--name',
      'agent',
      ...DOCKER,
      '--on-drift',
      'fail',
      '--config',
      'source_config: { resource_spec: { min_scale: 3 } }',
    ],
    setup: seedDocker('reg/agent:1'),
    says: /differs/,
  },
  {
    name: 'an image it will never run, waited',
    args: ['deploy', '--name', 'agent', ...DOCKER, '--wait'],
    setup: seedDocker('reg/agent:0'),
    says: /will not be/,
  },
  {
    name: 'an image it will never run, --events',
    args: ['deploy', '--name', 'agent', ...DOCKER, '--events'],
    setup: seedDocker('reg/agent:0'),
    says: /will not be/,
  },
  {
    name: 'a plan with a difference',
    args: ['plan', '--name', 'agent', ...DOCKER, '--on-change', 'fail'],
    setup: seedDocker('reg/agent:0'),
    says: /would not apply/,
  },
  {
    name: 'a deployment being deleted',
    args: ['deploy', '--name', 'agent', ...DOCKER],
    setup: seedDocker('reg/agent:1', { status: 'AWAITING_DELETE' }),
    says: /AWAITING_DELETE/,
  },
  {
    name: 'a wait that times out',
    args: ['deploy', '--name', 'new', ...DOCKER, '--wait', '--wait-timeout', '1'],
    says: /not live after/,
  },
  {
    name: 'a health check not answering, no wait',
    args: ['status', '--name', 'agent', '--health-check', '/ok'],
    setup: (emu) => {
      seedDocker('reg/agent:1', { status: 'READY' })(emu);
      emu.serveAddress('agent', { slowStartRequests: 5 });
    },
    says: /does not answer its health check/,
  },
  {
    name: 'a status the command does not know',
    args: ['list', '--status', 'SCALED'],
    says: /SCALED/,
  },
];

describe("the command's messages name its own options, never the action's inputs", () => {
  let emu: Emulator;
  beforeEach(async () => {
    emu = await startEmulator({ apiKey: KEY, addresses: true, readyAfterPolls: 1_000 });
  });
  afterEach(async () => {
    await emu.close();
  });

  it.each(CASES)('$name', async ({ args, env = {}, files, setup, says }) => {
    setup?.(emu);
    const run = await runCli(args, {
      env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, ...QUICK, ...env },
      ...(files === undefined ? {} : { files }),
      killAfterMs: KILL_AFTER_MS,
    });

    expect(`${run.stderr}\n${run.stdout}`).toMatch(says);
    expect(actionWords(run)).toEqual([]);
  });
});
