/**
 * End-to-end hardening (issue 8): the bundle under Node 24 as a hostile
 * service, a careless workflow and a corporate network would try it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { startProxy, type Proxy } from '../support/proxy.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { BUNDLE, printed, runAction, startAction, KILL_AFTER_MS } from '../support/run-action.ts';
import { runCli } from '../cli/run-cli.ts';

const INTEGRATION = '3f2b8a1e-6c4d-4e5f-8a9b-0c1d2e3f4a5b';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator();
  emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent' }]);
});

afterEach(async () => {
  await emu.close();
});

function step(extra: Record<string, string> = {}): Record<string, string> {
  return { 'api-url': emu.url, name: 'my-agent', 'integration-id': INTEGRATION, ...extra };
}

/** Lines the runner would take as commands (it ignores leading white space). */
const commandLines = (stdout: string) =>
  stdout.split('\n').filter((line) => line.trimStart().startsWith('::'));

describe('outputs are data', () => {
  it('keeps outputs whole when secret and header values are short, ordinary words', async () => {
    emu.setOptions({ requiredHeaders: { 'x-tenant': 'acme' } });

    const run = await runAction(
      step({ secrets: 'LANGSMITH_TRACING=true\nWEB_CONCURRENCY=4', headers: 'X-Tenant: acme' }),
    );

    expect(run.exitCode).toBe(0);
    const stored = emu.deployments[0];
    expect(run.outputs.created).toBe('true');
    expect(run.outputs['deployment-id']).toBe(stored?.id);
    expect(run.outputs['repo-url']).toBe('https://github.com/acme/agent');
    const deployment = JSON.parse(run.outputs.deployment ?? '{}') as { secrets: unknown };
    expect(deployment.secrets).toEqual([
      { name: 'LANGSMITH_TRACING', value: '***' },
      { name: 'WEB_CONCURRENCY', value: '***' },
    ]);
    const warnings = run.stdout.split('\n').filter((line) => line.includes('cannot be hidden'));
    expect(warnings).toHaveLength(2);
    expect(warnings.join('\n')).toContain('LANGSMITH_TRACING');
    expect(warnings.join('\n')).toContain('WEB_CONCURRENCY');
  });
});

describe('untrusted text from the service', () => {
  it.each([
    ['main\n::error title=injected::owned', '::error title=injected', 'main\\n::error'],
    ['main\r\n  ::stop-commands::tok', '::stop-commands::', 'main\\r\\n  ::stop'],
  ])(
    'cannot issue runner commands through a default_branch of %j',
    async (branch, command, shown) => {
      emu.repos.clear();
      emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent', default_branch: branch }]);

      const run = await runAction(step());

      expect(commandLines(run.stdout).some((line) => line.trimStart().startsWith(command))).toBe(
        false,
      );
      // The value is kept on one line, its line breaks escaped.
      expect(run.stdout).toContain(`(default branch ${shown}`);
    },
  );

  it("never echoes a cut listing, which carries other deployments' secrets", async () => {
    emu.seedDeployment({
      name: 'my-agent-staging',
      secrets: [{ name: 'TOKEN', value: 'stg-tok-0011223344556677' }],
    });
    emu.inject({ path: '/v2/deployments', method: 'GET', truncateAt: 300 });

    const run = await runAction(step());

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(
      /200 answer is not JSON \(application\/json, 300 bytes, it ends early\)/,
    );
    expectNoSecret(['stg-tok-0011223344556677'], run);
    // A cut can leave fewer characters of it than the helper looks for: not even its start.
    expect(printed(run)).not.toContain('stg-tok');
    expect(run.summary).not.toContain('stg-tok');
  });
});

describe('the network', () => {
  let proxy: Proxy;

  beforeEach(async () => {
    proxy = await startProxy();
  });

  afterEach(async () => {
    await proxy.close();
  });

  it.each(['HTTP_PROXY', 'http_proxy'])('sends every request through %s', async (variable) => {
    // Each answer closes its connection, so each request needs a way through the proxy of its own.
    emu.inject({ headers: { connection: 'close' }, times: Infinity });

    const run = await runAction(step(), { env: { [variable]: proxy.url } });

    expect(run.exitCode).toBe(0);
    const target = new URL(emu.url).host;
    const throughProxy = [...proxy.connects, ...proxy.requests];
    expect(throughProxy.length).toBeGreaterThan(0);
    expect(throughProxy).toHaveLength(emu.requests.length);
    expect(throughProxy.every((seen) => seen.includes(target))).toBe(true);
  });

  it('goes direct to a host in NO_PROXY', async () => {
    const run = await runAction(step(), {
      env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' },
    });

    expect(run.exitCode).toBe(0);
    expect([...proxy.connects, ...proxy.requests]).toEqual([]);
  });

  it('stops reading an endless answer and names the call and the cap', async () => {
    emu.inject({ path: '/v2/deployments', method: 'GET', endless: true });

    const run = await runAction(step());

    expect(run.exitCode).toBe(1);
    expect(run.error).toBe(
      'GET /v2/deployments failed: 200 answer is larger than 32 MiB; stopped reading it (is api-url the service?)',
    );
  });
});

describe('time', () => {
  it('keeps the wait deadline when the wall clock steps back an hour', async () => {
    emu.setOptions({ initialStatus: 'AWAITING_DATABASE' });
    // From the fourth reading on, the wall clock is an hour behind.
    const stepBack =
      'data:text/javascript,' +
      encodeURIComponent(
        'const real = Date.now; let reads = 0; Date.now = () => real() - (++reads > 3 ? 3600000 : 0);',
      );

    const run = await runAction(step({ 'wait-for-ready': 'true', 'wait-timeout': '3' }), {
      argv: ['--import', stepBack, BUNDLE],
      killAfterMs: 30_000,
    });

    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/is not live after 3\.0 s/);
    expect(run.stdout).not.toMatch(/-\d+\.\d s so far/);
  });
});

/** Every line as the runner reads it: it ends a line at LF, CRLF and a lone CR alike. */
const runnerLines = (stdout: string) => stdout.split(/\r\n|\r|\n/);

describe('hardening, round three', () => {
  it('a carriage return in a status cannot forge a runner command', async () => {
    emu.seedDeployment({
      name: 'my-agent',
      status:
        'READY\r::error title=Deploy approved::forged\n::warning ::forged too\u0085::notice::x',
    });

    const run = await runAction(step());

    expect(run.exitCode).toBe(0);
    const forged = runnerLines(run.stdout).filter((line) =>
      /^\s*::(error title=Deploy approved|warning ::forged too|notice::x)/.test(line),
    );
    expect(forged).toEqual([]);
    expect(run.stdout).toContain('(READY\\r::error title=Deploy approved::forged\\n::warning');
  });

  it('service text cannot break out of the summary into Markdown', async () => {
    emu.seedDeployment({
      name: 'my-agent',
      status:
        'READY\n\n![x](http://tracker.example/pixel.png) [Re-authenticate here](http://phish.example)',
    });

    const run = await runAction(step());

    expect(run.exitCode).toBe(0);
    expect(run.summary).toContain('Re-authenticate here');
    // A blank line would end the HTML block; GitHub would then render the rest as Markdown.
    expect(run.summary).not.toMatch(/\n[ \t]*\n/);
    expect(run.summary).not.toContain('![');
    expect(run.summary).not.toContain('](');
  });

  it('a secret the service echoes form-encoded is not printed', async () => {
    const secret = 'sk live (key)! 0123';
    const echoed = new URLSearchParams({ name: 'OPENAI_API_KEY', value: secret }).toString();
    const python = 'value=sk+live+%28key%29%21+0123';
    emu.inject({
      method: 'POST',
      path: '/v2/deployments',
      status: 422,
      body: { detail: `could not read the form body: ${echoed} (as sent: ${python})` },
    });

    const run = await runAction(step({ secrets: `OPENAI_API_KEY=${secret}` }));

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain('could not read the form body');
    expectNoSecret([secret], run);
    // The start of each form, shorter than the pieces the helper looks for.
    for (const form of ['sk+live', 'sk%20live']) {
      expect(printed(run)).not.toContain(form);
      expect(run.summary).not.toContain(form);
    }
  });

  it.each([
    ['a 400 of one tag and a million <', 400, 'text/plain', `<a>${'<'.repeat(1_000_000)}`],
    ['a 200 page of <title repeated', 200, 'text/html', '<title'.repeat(500_000)],
  ])('answers %s with a failure, not minutes of work', async (_, status, type, body) => {
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      status,
      body,
      headers: { 'content-type': type },
    });

    // The safety net kills a run that is still busy; a run that fails by itself exits 1.
    const run = await runAction(step(), { killAfterMs: KILL_AFTER_MS });

    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(1);
    expect(run.error).toContain(`${status}`);
    expect(run.error).toContain('GET /v2/deployments');
  });

  it('is cancelled at once after a hostile answer arrives', async () => {
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      status: 503,
      body: `<a>${'<'.repeat(1_000_000)}`,
      headers: { 'retry-after': '20' },
      times: Infinity,
    });
    const started = startAction(step(), { killAfterMs: KILL_AFTER_MS });
    const answered = () =>
      emu.requests.some(
        (request) => request.answeredAt !== undefined && request.path === '/v2/deployments',
      );
    for (let i = 0; i < 500 && !answered(); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 500));
    started.child.kill('SIGTERM');

    const run = await started.finished;

    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/cancelled/);
  });
});

describe('hardening IV: what the service answers is passed on only as what it claims to be', () => {
  it.each(['$(id)', '`id`', 'abc1234'])(
    'a repo_commit_sha of %s is no commit: commit-sha is empty, with one warning',
    async (sha) => {
      emu.seedDeployment({
        name: 'my-agent',
        source_config: { integration_id: INTEGRATION, repo_url: 'https://github.com/acme/agent' },
        source_revision_config: { repo_ref: 'main', repo_commit_sha: sha },
      });

      const run = await runAction(step());

      expect(run.exitCode).toBe(0);
      expect(run.outputs['commit-sha']).toBe('');
      const deployment = JSON.parse(run.outputs.deployment ?? '{}') as {
        source_revision_config: { repo_commit_sha: unknown };
      };
      expect(deployment.source_revision_config.repo_commit_sha).toBeNull();
      const warnings = run.stdout
        .split('\n')
        .filter((line) => line.startsWith('::warning::') && line.includes('repo_commit_sha'));
      expect(warnings).toEqual([
        `::warning::the service's repo_commit_sha of 'my-agent' is not a 40-hex commit (${sha}): it is not passed on`,
      ]);
    },
  );
});

describe('files read from a user path are bounded (issue 25)', () => {
  it('refuses a config file larger than 1 MiB as an input error, before any request', async () => {
    const huge = `{"source_config": {"build_on_push": true}}${' '.repeat(2 * 1024 * 1024)}`;

    const run = await runAction(step({ config: 'huge.json' }), {
      files: { 'huge.json': huge },
      killAfterMs: KILL_AFTER_MS,
    });

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(
      /Invalid input 'config': file 'huge\.json' cannot be read: it is larger than 1 MiB/,
    );
    expect(emu.requests).toEqual([]);
  });
});

describe('a config path that is there but is not a regular file in the workspace', () => {
  /** A workspace with a FIFO nobody writes to, a directory, and links out of it. */
  function workspaceWithOddPaths(): string {
    const root = mkdtempSync(path.join(tmpdir(), 'odd-config-'));
    const workspace = path.join(root, 'workspace');
    mkdirSync(path.join(workspace, 'dir.yaml'), { recursive: true });
    execFileSync('mkfifo', [path.join(workspace, 'fifo.yaml')]);
    symlinkSync('/dev/zero', path.join(workspace, 'zero.yaml'));
    writeFileSync(path.join(root, 'outside.json'), '{}');
    symlinkSync(path.join(root, 'outside.json'), path.join(workspace, 'outside.json'));
    return workspace;
  }

  const cases = [
    ['fifo.yaml', /file 'fifo\.yaml' is not a regular file \(a FIFO\)/],
    ['dir.yaml', /file 'dir\.yaml' is not a regular file \(a directory\)/],
    ['zero.yaml', /file 'zero\.yaml' is outside the workspace: a symbolic link leads out of it/],
    [
      'outside.json',
      /file 'outside\.json' is outside the workspace: a symbolic link leads out of it/,
    ],
  ] as const;

  it.each(cases)(
    'the deploy step says what %s is, at once, before any request',
    async (config, said) => {
      const workspace = workspaceWithOddPaths();
      try {
        const run = await runAction(step({ config }), {
          env: { GITHUB_WORKSPACE: workspace },
          killAfterMs: KILL_AFTER_MS,
        });

        // A FIFO is not opened at all: no wait for a writer (which never comes: it would be killed).
        expect(run.signal).toBeNull();
        expect(run.exitCode).toBe(1);
        expect(run.error).toMatch(new RegExp(`^Invalid input 'config': ${said.source}`));
        expect(run.error).not.toContain('not found');
        expect(emu.requests).toEqual([]);
      } finally {
        rmSync(path.dirname(workspace), { recursive: true, force: true });
      }
    },
  );

  it('the command says the same of --config', async () => {
    const workspace = workspaceWithOddPaths();
    try {
      const run = await runCli(
        ['deploy', '--name', 'agent', '--source', 'internal_template', '--config', 'fifo.yaml'],
        {
          env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: 'cli-api-key-0123456789' },
          cwd: workspace,
          killAfterMs: KILL_AFTER_MS,
        },
      );

      expect(run.signal).toBeNull();
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(/--config: file 'fifo\.yaml' is not a regular file \(a FIFO\)/);
      expect(emu.requests).toEqual([]);
    } finally {
      rmSync(path.dirname(workspace), { recursive: true, force: true });
    }
  });
});
