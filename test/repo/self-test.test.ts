/**
 * The `self-test` job of .github/workflows/ci.yml, run here: the emulator's command line
 * (`npm run emulator`) as a child process, then the job's own steps in order. Each
 * `uses: ./` step runs dist/index.js with the step's `with:` values, and each `run:` step runs
 * its script under bash with its `env:`, as the runner would. The workflow is the one source of
 * the steps, so the job cannot test something else than this file does.
 *
 * Below that, `npm run local` (script/local.ts), the other way to run the bundle outside a
 * workflow, against an emulator in this process.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startEmulator } from '../emulator/emulator.ts';
import { actionYml, ROOT, WORKFLOW_REPOSITORY } from '../support/action.ts';
import { printed, startAction, type ActionRun } from '../support/run-action.ts';
import { INTEGRATION } from '../support/fixtures.ts';
import { expectNoSecret } from '../support/no-secret.ts';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  if?: string;
  'continue-on-error'?: boolean;
}

interface Job {
  env?: Record<string, string>;
  steps: Step[];
}

interface StepResult {
  outcome: 'success' | 'failure';
  outputs: Record<string, string>;
  /** The action's run, for `uses: ./` steps. */
  run?: ActionRun;
  log: string;
}

const workflow = parse(readFileSync(path.join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as {
  jobs: Record<string, Job>;
};
const job = workflow.jobs['self-test'];
if (job === undefined) throw new Error('ci.yml has no self-test job');
const jobEnv = job.env ?? {};

// The steps between starting and stopping the emulator: what runs locally. The ones before
// (checkout, setup-node, npm ci) are what this repository's test run already has.
const startIndex = job.steps.findIndex((step) => step.id === 'emulator');
const stopIndex = job.steps.findIndex((step) => step.id === 'stop-emulator');
if (startIndex < 0 || stopIndex < startIndex) {
  throw new Error("ci.yml's self-test job needs steps with id 'emulator' and 'stop-emulator'");
}
const steps = job.steps.slice(startIndex + 1, stopIndex);
const actionSteps = steps.filter((step) => step.uses === './');

/** What the runner sets for a push to the default branch. */
const RUN_CONTEXT = {
  GITHUB_EVENT_NAME: 'push',
  GITHUB_REF: 'refs/heads/main',
  GITHUB_SHA: 'c0ffee0123456789c0ffee0123456789c0ffee01',
};

const results = new Map<string, StepResult>();
let emulator: ChildProcess | undefined;
let emulatorLog = '';
let emulatorExit: Promise<number | null> | undefined;

/** `${{ }}` as the runner evaluates it, for the expressions that the job uses. */
function evaluate(text: string): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    let match = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (match !== null) return results.get(match[1] ?? '')?.outputs[match[2] ?? ''] ?? '';
    match = /^steps\.([\w-]+)\.outcome$/.exec(expression);
    if (match !== null) return results.get(match[1] ?? '')?.outcome ?? '';
    match = /^env\.(\w+)$/.exec(expression);
    if (match !== null) return jobEnv[match[1] ?? ''] ?? '';
    throw new Error(`test/self-test.test.ts cannot evaluate \${{ ${expression} }}: teach it`);
  });
}

async function runStep(step: Step): Promise<StepResult> {
  if (step.uses === './') {
    const inputs: Record<string, string> = {};
    for (const [name, value] of Object.entries(step.with ?? {})) {
      inputs[name] = evaluate(String(value));
    }
    const run = await startAction(inputs, { env: RUN_CONTEXT, killAfterMs: 30_000 }).finished;
    return {
      outcome: run.exitCode === 0 ? 'success' : 'failure',
      outputs: run.outputs,
      run,
      log: printed(run),
    };
  }
  if (step.run !== undefined) {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GITHUB_REPOSITORY: WORKFLOW_REPOSITORY,
      ...RUN_CONTEXT,
      ...jobEnv,
    };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = evaluate(value);
    const shell = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
      env,
      encoding: 'utf8',
    });
    return {
      outcome: shell.status === 0 ? 'success' : 'failure',
      outputs: {},
      log: `${shell.stdout}${shell.stderr}`,
    };
  }
  throw new Error(`step '${step.name}' is neither uses: ./ nor run:, which this test cannot run`);
}

function result(id: string): StepResult {
  const found = results.get(id);
  if (found === undefined) throw new Error(`step '${id}' did not run`);
  return found;
}

/** The emulator's request log lines: arrival time, method and target. */
function requestsBetween(from: number, to: number): string[] {
  return emulatorLog
    .split('\n')
    .map((line) => /^request: (\S+) (\S+ \S+)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .filter((match) => {
      const time = Date.parse(match[1] ?? '');
      return time >= from && time <= to;
    })
    .map((match) => match[2] ?? '');
}

function during(run: ActionRun | undefined): string[] {
  if (run === undefined) throw new Error('no run');
  return requestsBetween(run.spawnedAt, run.exitedAt);
}

beforeAll(async () => {
  // The same command line as the job's "Start the emulator" step, with the repository and
  // commit that the steps here are for (not this machine's $GITHUB_REPOSITORY or $GITHUB_SHA).
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'script/node24.mjs'),
      path.join(ROOT, 'test/emulator/emulator-cli.ts'),
      '--port',
      '0',
      '--api-key',
      jobEnv.EMULATOR_API_KEY ?? '',
      '--repository',
      WORKFLOW_REPOSITORY,
      '--head-sha',
      RUN_CONTEXT.GITHUB_SHA,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  emulator = child;
  emulatorExit = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (emulatorLog += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (emulatorLog += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in 10 s:\n${emulatorLog}`)), 10_000);
    const look = (): void => {
      const match = /^EMULATOR_URL=(\S+)$/m.exec(emulatorLog);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve(match[1]);
    };
    child.stdout.on('data', look);
    void emulatorExit?.then((code) =>
      reject(new Error(`emulator exited (${code}):\n${emulatorLog}`)),
    );
  });
  results.set('emulator', { outcome: 'success', outputs: { url }, log: emulatorLog });
});

afterAll(async () => {
  if (emulator !== undefined && emulator.exitCode === null && emulator.signalCode === null) {
    emulator.kill('SIGKILL');
    await emulatorExit;
  }
});

describe("ci.yml's self-test job, run locally against `npm run emulator`", () => {
  it('runs three uses: ./ steps: create, the same step again, and a bad input', () => {
    expect(actionSteps.map((step) => step.id)).toEqual(['create', 'reuse', 'bad-input']);
    expect(actionSteps[1]?.with).toEqual(actionSteps[0]?.with);
    expect(actionSteps[2]?.['continue-on-error']).toBe(true);
    // Outputs reach the checks through env:, never through ${{ }} inside a script.
    for (const step of steps) expect(step.run ?? '').not.toContain('${{');
    // runStep runs every step: a condition would need evaluating.
    expect(steps.filter((step) => step.if !== undefined)).toEqual([]);
  });

  for (const step of steps) {
    it(`step: ${step.name ?? step.id}`, async () => {
      const outcome = await runStep(step);
      if (step.id !== undefined) results.set(step.id, outcome);
      if (step['continue-on-error'] !== true) {
        expect(outcome.outcome, outcome.log).toBe('success');
      }
    });
  }

  it('create: made the deployment, waited until live, sent one POST', () => {
    const create = result('create');
    expect(create.outputs).toMatchObject({
      created: 'true',
      status: 'READY',
      live: 'true',
      'repo-url': `https://github.com/${WORKFLOW_REPOSITORY}`,
      'repo-ref': 'main',
    });
    expect(create.outputs['deployment-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(during(create.run).filter((r) => r.startsWith('POST '))).toEqual([
      'POST /v2/deployments',
    ]);
  });

  it('reuse: found the same deployment, created=false, no drift, no POST', () => {
    const reuse = result('reuse');
    expect(reuse.outputs).toMatchObject({
      'deployment-id': result('create').outputs['deployment-id'],
      created: 'false',
      status: 'READY',
      live: 'true',
      drift: '[]',
    });
    expect(during(reuse.run).filter((r) => r.startsWith('POST '))).toEqual([]);
  });

  it('bad input: failed the step naming wait-timeout, before any request', async () => {
    const bad = result('bad-input');
    expect(bad.outcome).toBe('failure');
    expect(bad.run?.exitCode).toBe(1);
    expect(bad.run?.error).toContain("'wait-timeout'");
    expect(bad.outputs['deployment-id'] ?? '').toBe('');
    // Stopping flushes the emulator's request log, so every request is in it now.
    emulator?.kill('SIGTERM');
    expect(await emulatorExit).toBe(0);
    expect(emulatorLog).toMatch(/^stopped on SIGTERM after \d+ requests$/m);
    expect(during(bad.run)).toEqual([]);
  });
});

describe('npm run local', () => {
  const SECRET = 'local-secret-value-0123';

  /** Async: the emulator answers from this process, so it must not be blocked. */
  async function runLocal(
    envText: string,
  ): Promise<{ status: number | null; stdout: string; stderr: string }> {
    const directory = mkdtempSync(path.join(tmpdir(), 'local-test-'));
    try {
      writeFileSync(path.join(directory, 'test.env'), envText);
      const child = spawn(
        process.execPath,
        [path.join(ROOT, 'script/node24.mjs'), path.join(ROOT, 'script/local.ts'), 'test.env'],
        // As npm runs it: in the package's folder, INIT_CWD where the user typed the command.
        { cwd: ROOT, env: { ...process.env, INIT_CWD: directory }, timeout: 30_000 },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const status = await new Promise<number | null>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', resolve);
      });
      return { status, stdout, stderr };
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }

  it('.env.example lists every input of action.yml, as the runner names it', () => {
    const listed = [
      ...readFileSync(path.join(ROOT, '.env.example'), 'utf8').matchAll(
        /^(?:# )?(INPUT_[^=\s]+)=/gm,
      ),
    ].map((match) => match[1]);
    const declared = Object.keys(actionYml().inputs).map(
      (name) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`,
    );
    expect([...listed].sort()).toEqual([...declared].sort());
  });

  it('runs the action with the INPUT_* and GITHUB_* of a dotenv file, then prints the outputs', async () => {
    const emu = await startEmulator({ apiKey: 'local-key' });
    try {
      emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent' }]);
      const run = await runLocal(
        [
          `INPUT_API-URL=${emu.url}`,
          'INPUT_API-KEY=local-key',
          'INPUT_NAME=local-agent',
          `INPUT_INTEGRATION-ID=${INTEGRATION}`,
          `INPUT_SECRETS="LOCAL_SECRET=${SECRET}\\nOTHER_SECRET=other-value-4567"`,
          '# a comment',
          'GITHUB_REPOSITORY=acme/agent',
          'GITHUB_SHA=0123456789abcdef0123456789abcdef01234567',
          'GITHUB_REF=refs/heads/main',
          'GITHUB_EVENT_NAME=push',
          'UNRELATED=1',
        ].join('\n'),
      );
      expect(run.status, run.stderr).toBe(0);
      const created = emu.deployments[0];
      expect(created?.secrets).toEqual([
        { name: 'LOCAL_SECRET', value: SECRET },
        { name: 'OTHER_SECRET', value: 'other-value-4567' },
      ]);
      expect(run.stdout).toContain('Ignored (neither INPUT_* nor GITHUB_*): UNRELATED');
      expect(run.stdout).toContain(`deployment-id: ${created?.id}`);
      expect(run.stdout).toContain('created: true');
      expect(run.stdout).toContain('<h2>');
      expect(run.stdout).toMatch(/Succeeded\n$/);
      // The ::add-mask:: commands that carry the values are hidden, as the runner hides them.
      expect(run.stdout).toContain('::add-mask::***');
      expectNoSecret([SECRET, 'other-value-4567', 'local-key'], run);
    } finally {
      await emu.close();
    }
  });

  it('rejects an INPUT_ name that is not an input, and names the one it resembles', async () => {
    const run = await runLocal('INPUT_API_URL=https://deploy.example.com\nINPUT_NAME=x\n');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('INPUT_API_URL');
    expect(run.stderr).toContain('did you mean INPUT_API-URL?');
  });

  it("exits with the action's exit code", async () => {
    const run = await runLocal('INPUT_API-URL=http://deploy.example.com\nINPUT_NAME=x\n');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("'api-url'");
    expect(run.stdout).toMatch(/Failed \(exit 1\)\n$/);
  });
});
