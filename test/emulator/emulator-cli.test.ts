/**
 * The emulator as a process of its own (`npm run emulator`, test/emulator/emulator-cli.ts)
 * behind the Node 24 launcher (script/node24.mjs): the heads it sets, and that it stops
 * with whatever started it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../support/action.ts';
import { runCli } from '../cli/run-cli.ts';
import { INTEGRATION } from '../support/ids.ts';
import { QUICK } from '../support/quick.ts';

const MAIN_SHA = 'a'.repeat(40);
const FEATURE_SHA = 'b'.repeat(40);

interface Started {
  process: ChildProcess;
  url: string;
  /** Everything printed so far. */
  log: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: Started[] = [];

afterEach(async () => {
  // SIGTERM, which the launcher passes on: SIGKILL would leave the emulator running.
  const running = started.splice(0).filter(({ process: child }) => child.exitCode === null);
  for (const { process: child } of running) child.kill('SIGTERM');
  await Promise.all(running.map(({ exited }) => exited));
});

/** Runs `command` and waits for the EMULATOR_URL line. */
async function start(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in 15 s:\n${log}`)), 15_000);
    child.stdout.on('data', () => {
      const match = /^EMULATOR_URL=(\S+)$/m.exec(log);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve(match[1]);
    });
    void exited.then(({ code }) => reject(new Error(`exited (${code}):\n${log}`)));
  });
  const run = { process: child, url, log: () => log, exited };
  started.push(run);
  return run;
}

const launcher = (...args: string[]) => [
  path.join(ROOT, 'script/node24.mjs'),
  path.join(ROOT, 'test/emulator/emulator-cli.ts'),
  '--port',
  '0',
  ...args,
];

/** Whether anything answers at `url` (a refused connection is false). */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/v2/deployments`, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => Promise<boolean>, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

/** The commit a create tracking `branch` starts from. */
async function headOf(url: string, branch: string): Promise<unknown> {
  const repos = (await (
    await fetch(`${url}/v1/integrations/forge/codehost/${INTEGRATION}/repos`)
  ).json()) as { url: string }[];
  const answer = await fetch(`${url}/v2/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `on-${branch}`,
      source: 'codehost',
      source_config: { integration_id: INTEGRATION, repo_url: repos[0]?.url },
      source_revision_config: { repo_ref: branch },
      secrets: [],
    }),
  });
  const created = (await answer.json()) as { source_revision_config: { repo_commit_sha: unknown } };
  return created.source_revision_config.repo_commit_sha;
}

describe('npm run emulator', () => {
  it('sets the head of main and of any other branch with --head-sha', async () => {
    const { url, log } = await start(
      process.execPath,
      launcher('--head-sha', MAIN_SHA, '--head-sha', `feature/x=${FEATURE_SHA}`),
    );

    expect(log()).toContain(`HEAD_SHA=${MAIN_SHA}`);
    expect(await headOf(url, 'main')).toBe(MAIN_SHA);
    expect(await headOf(url, 'feature/x')).toBe(FEATURE_SHA);
  });

  it.each([['abc'], ['=' + MAIN_SHA], [`feature=${'g'.repeat(40)}`]])(
    'refuses --head-sha %s',
    async (value) => {
      const child = spawn(process.execPath, launcher('--head-sha', value), { cwd: ROOT });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code).toBe(2);
      expect(stderr).toContain('--head-sha must be [BRANCH=]SHA');
    },
  );

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'the launcher passes %s on to the emulator and ends as it does',
    async (signal) => {
      const run = await start(process.execPath, launcher());

      run.process.kill(signal);

      expect(await run.exited).toEqual({ code: 0, signal: null });
      expect(run.log()).toContain(`stopped on ${signal}`);
      expect(await answers(run.url)).toBe(false);
    },
  );

  it('stops when the npm process that started it is killed', async () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const run = await start(npm, ['run', '--silent', 'emulator', '--', '--port', '0']);

    run.process.kill('SIGTERM');
    await run.exited;

    // npm passes the signal to its shell only; the launcher sees the shell go.
    expect(await until(async () => !(await answers(run.url)), 5_000)).toBe(true);
  });
});

/** `npm run emulator -- push ARGS` as a person types it in another terminal: its exit, its output. */
async function pushTo(...args: string[]) {
  const child = spawn(process.execPath, [...launcher().slice(0, 2), 'push', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  return { code, output };
}

describe('a second push with npm run emulator (issue 46)', () => {
  const KEY = 'local-key';
  const B = 'b'.repeat(40);

  /** `deploy-agent deploy` of my-agent at `commit` from a terminal, waiting until live. */
  const deploy = (url: string, commit: string) =>
    runCli(
      [
        'deploy',
        '--name',
        'my-agent',
        '--integration-id',
        INTEGRATION,
        '--repository',
        'acme/agent',
        '--commit',
        commit,
        '--wait',
        '--json',
      ],
      {
        env: { DEPLOY_API_URL: url, DEPLOY_API_KEY: KEY, ...QUICK },
      },
    );

  it("builds the checkout's commit on the first create, then a pushed commit goes live", async () => {
    const checkedOut = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
    const A = checkedOut.trim();
    const { url, log } = await start(process.execPath, launcher('--api-key', KEY), {
      GITHUB_SHA: '',
      GITHUB_REPOSITORY: '',
    });
    expect(log()).toContain(`HEAD_SHA=${A}`);

    const first = await deploy(url, A);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ created: true, live: true, 'commit-sha': A });
    expect(first.stderr).not.toContain('superseded');

    const pushed = await pushTo('--sha', B, '--url', url);
    expect(pushed.code, pushed.output).toBe(0);
    expect(pushed.output).toContain(`pushed ${B} to acme/agent main: a revision for it on `);

    const second = await deploy(url, B);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.json).toMatchObject({ created: false, live: true, 'commit-sha': B });
    expect(second.stderr).not.toContain('superseded');
  });

  it('refuses a create on a branch whose head it does not know, saying to push one', async () => {
    const { url } = await start(process.execPath, launcher('--head-sha', MAIN_SHA));

    const answer = await fetch(`${url}/v2/deployments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'preview',
        source: 'codehost',
        source_config: { integration_id: INTEGRATION, repo_url: 'https://github.com/acme/agent' },
        source_revision_config: { repo_ref: 'feature/y' },
        secrets: [],
      }),
    });
    expect(answer.status).toBe(422);
    expect(JSON.stringify(await answer.json())).toContain(
      'push one first (npm run emulator -- push --ref feature/y --sha SHA)',
    );

    const pushed = await pushTo('--ref', 'feature/y', '--sha', FEATURE_SHA, '--url', url);
    expect(pushed.code, pushed.output).toBe(0);
    expect(await headOf(url, 'feature/y')).toBe(FEATURE_SHA);
  });

  it('push says where no emulator answers, and refuses a short sha', async () => {
    const short = await pushTo('--sha', 'abc123', '--url', 'http://127.0.0.1:9');
    expect(short.code).toBe(2);
    expect(short.output).toContain('--sha must be a full 40-hex commit sha');
    const nobody = await pushTo('--sha', B, '--url', 'http://127.0.0.1:9');
    expect(nobody.code).toBe(1);
    expect(nobody.output).toContain('no emulator answers at http://127.0.0.1:9');
  });
});

describe('addresses with npm run emulator (issue 49)', () => {
  it('serves a created deployment at its custom_url: 401 without the key, slow to start, then live', async () => {
    const { url, log } = await start(
      process.execPath,
      launcher(
        '--head-sha',
        MAIN_SHA,
        '--ready-after-ms',
        '0',
        '--addresses',
        '--address-slow-ms',
        // Long enough that the first keyed request falls inside it however busy the machine.
        '1500',
        '--address-header',
        'X-Agent-Key',
      ),
      // As deploy-agent's --header: the value from the variable, never on npm's echoed line.
      { X_AGENT_KEY: 'agent-secret' },
    );
    await headOf(url, 'main'); // creates on-main
    const listed = (await (await fetch(`${url}/v2/deployments?name_contains=on-main`)).json()) as {
      resources: { id: string; status: string; source_config: { custom_url?: string } }[];
    };
    const [created] = listed.resources;
    const address = created?.source_config.custom_url ?? '';
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/on-main$/);
    await fetch(`${url}/v2/deployments?deployment_ids=${created?.id ?? ''}`); // READY and live

    expect((await fetch(`${address}/ok`)).status).toBe(401);
    const keyed = { headers: { 'x-agent-key': 'agent-secret' } };
    const first = await fetch(`${address}/ok`, keyed);
    expect(first.status).toBe(503);
    // Judged by the answers' order (503 while starting, then 200), not by the time between them.
    const answers = [first.status];
    while (answers.at(-1) !== 200 && answers.length < 100) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answers.push((await fetch(`${address}/ok`, keyed)).status);
    }
    expect(answers.at(-1)).toBe(200);
    expect(new Set(answers)).toEqual(new Set([503, 200]));
    expect(answers.indexOf(200)).toBe(answers.length - 1);
    expect(await until(() => Promise.resolve(log().includes('GET /on-main/ok')), 5_000)).toBe(true);
    expect(log()).toMatch(/^address: \S+ GET \/on-main\/ok$/m);
    expect(log()).not.toContain('agent-secret');
  });

  it.each([
    [['--address-slow-ms', '5'], '--address-slow-ms and --address-header need --addresses'],
    [
      ['--addresses', '--address-header', 'X-Agent-Key: agent-secret'],
      '--address-header wants a header name (letters, digits and -), its value in a variable',
    ],
    [
      ['--addresses', '--address-header', 'X-Agent-Key'],
      '--address-header X-Agent-Key: set the variable X_AGENT_KEY',
    ],
    [['--addresses', '--address-slow-ms', 'soon'], '--address-slow-ms must be a whole number'],
  ])('refuses %j', async (args, message) => {
    const env = { ...process.env, X_AGENT_KEY: '' };
    const child = spawn(process.execPath, launcher(...args), { cwd: ROOT, env });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).not.toContain('agent-secret');
  });
});
