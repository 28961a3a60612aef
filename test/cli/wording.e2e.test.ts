/**
 * dist/cli.js speaks the command's words, not the action's (issue 25, point
 * 7): its help, a 401's remedy, `--version` with extra words, and the
 * columns of the top-level help.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { runCli } from './run-cli.ts';
import { expectNoSecret } from '../support/no-secret.ts';

const KEY = 'cli-api-key-0123456789';
const DOCKER = ['--name', 'agent', '--source', 'external_docker', '--image-uri', 'reg/agent:1'];

describe('the help', () => {
  it("says where --repository's default comes from for the command, not the workflow", async () => {
    const run = await runCli(['deploy', '--help']);

    expect(run.exitCode).toBe(0);
    const help = run.stdout.replace(/\s+/g, ' ');
    expect(help).toContain("Defaults to the CI system's project slug");
    expect(help).not.toMatch(/workflow|the step\b|api-key input/);
    expect(help).toContain('Credential sent in the header named by --api-key-header');
  });

  it('aligns the columns of the top-level help, within 80 characters', async () => {
    const run = await runCli(['--help']);

    expect(run.exitCode).toBe(0);
    const lines = run.stdout.split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    const commands = lines.slice(
      lines.indexOf('Commands:') + 1,
      lines.indexOf('', lines.indexOf('Commands:')),
    );
    expect(
      commands.filter((line) => /^ {2}\S/.test(line)).map((line) => line.slice(0, 10)),
    ).toEqual(['  deploy  ', '  status  ', '  plan    ', '  list    ', '  repos   ']);
    // Every line of a command's text starts in one column.
    const starts = commands.map((line) => /^( {2}\S+ +| +)/.exec(line)?.[0].length);
    expect(new Set(starts)).toEqual(new Set([10]));
  });
});

describe('--version', () => {
  it('refuses anything after it as a usage error (exit 2), without echoing it', async () => {
    const run = await runCli(['--version', 'extra-word-42']);

    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'deploy-agent: --version takes no arguments (1 given); see deploy-agent --help\n',
    );
  });
});

describe('a 401', () => {
  let emu: Emulator;
  beforeEach(async () => {
    emu = await startEmulator({ apiKey: KEY });
  });
  afterEach(async () => {
    await emu.close();
  });

  it("names the command's ways to give the key, not the action's input", async () => {
    const run = await runCli(['deploy', ...DOCKER], {
      env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: 'wrong-key-123456' },
    });

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('401');
    expect(run.stderr).toContain(
      'Check DEPLOY_API_KEY or --api-key-file (and --api-key-header, if the service expects another header).',
    );
    expect(run.stderr).not.toContain('api-key input');
    expectNoSecret(['wrong-key-123456'], run);
  });
});

describe("the core's remedies in the command's words", () => {
  let emu: Emulator;

  beforeEach(async () => {
    emu = await startEmulator();
  });

  afterEach(async () => {
    await emu.close();
  });

  const service = () => ({ DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: 'key-0123456789' });

  it('a timeout says to raise --wait-timeout', async () => {
    const run = await runCli(['deploy', ...DOCKER, '--wait', '--wait-timeout', '1'], {
      env: service(),
    });

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/is not live after 1\.0 s .*Raise --wait-timeout, or look/);
    expect(run.stderr).not.toContain('Raise wait-timeout');
  });

  it('drift with --on-drift fail names the option', async () => {
    emu.seedDeployment({
      name: 'agent',
      source: 'external_docker',
      source_config: { resource_spec: { min_scale: 1 } },
      source_revision_config: { image_uri: 'reg/agent:1' },
    } as never);

    const run = await runCli(
      ['deploy', ...DOCKER, '--config', 'source_config: { resource_spec: { min_scale: 3 } }'],
      { env: { ...service(), DEPLOY_ON_DRIFT: 'fail' } },
    );

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('differs from what the command asks for (--on-drift fail)');
  });

  it('an image the deployment will never take fails --wait at once, and says what to do', async () => {
    emu.seedDeployment({
      name: 'agent',
      source: 'external_docker',
      source_revision_config: { image_uri: 'reg/agent:0' },
    } as never);

    const waited = await runCli(['deploy', ...DOCKER, '--wait', '--json'], { env: service() });
    const notWaited = await runCli(['deploy', ...DOCKER, '--json'], { env: service() });

    expect(waited.exitCode).toBe(1);
    expect(waited.stderr).toContain(
      "Deployment 'agent' is not live and will not be: source_revision_config.image_uri is reg/agent:0 and the command asks for reg/agent:1.",
    );
    expect(waited.stderr).toContain(
      'change the deployment in the service, or deploy under a new name',
    );
    expect(JSON.parse(waited.stdout)).toMatchObject({ live: false });
    expect(notWaited.exitCode).toBe(0);
    expect(JSON.parse(notWaited.stdout)).toMatchObject({ live: false });
    expect(notWaited.stderr).toContain("Deployment 'agent' is not live and will not be");
  });

  it('a 404 of the web framework says to check --api-url', async () => {
    emu.inject({ status: 404, body: { detail: 'Not Found' }, times: Infinity });

    const run = await runCli(['deploy', ...DOCKER], { env: service() });

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('Check --api-url (DEPLOY_API_URL) first: ');
    expect(run.stderr).not.toContain('Check api-url');
  });
});
