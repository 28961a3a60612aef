/**
 * What dist/cli.js writes when the service's text holds characters that a
 * terminal takes for more than text: the bidirectional controls of
 * Unicode's `Bidi_Control` property (U+061C ARABIC LETTER MARK among them),
 * which reorder what a person sees. Every form of output keeps them escaped.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { runCli, type CliRun } from './run-cli.ts';

const KEY = 'line-readers-api-key-0123456789';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
});
afterEach(async () => {
  await emu.close();
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, ...extra };
}

/** Every character the command must never write raw, whatever the form. */
const RAW = /[\u0080-\u009f\u2028\u2029\p{Bidi_Control}]/u;

function expectNothingRawOn(run: CliRun): void {
  expect(run.stderr).not.toMatch(RAW);
  expect(run.stdout).not.toMatch(RAW);
}

describe("Unicode's Bidi_Control, U+061C included, never raw", () => {
  it('list when piped: the name is shown escaped, one line of tab-separated fields', async () => {
    const seeded = emu.seedDeployment({ name: 'agent\u061cname', status: 'READY\u2067' });

    const run = await runCli(['list'], { env: env() });

    expect(run.exitCode).toBe(0);
    expectNothingRawOn(run);
    expect(run.stdout).toBe(
      `${['agent\\u061cname', seeded.id, 'READY\\u2067'].join('\t')}\t${seeded.source}\t\t\t${seeded.updated_at}\n`,
    );
  });

  it('the log: a name the service answered with is shown escaped', async () => {
    emu.inject({
      method: 'POST',
      path: '/v2/deployments',
      bodyTransform: (body) => ({ ...(body as object), name: 'agent\u061c' }),
    });

    const run = await runCli(
      ['deploy', '--name', 'agent', '--source', 'external_docker', '--image-uri', 'reg/agent:1'],
      { env: env() },
    );

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("as 'agent\\u061c', not 'agent'");
    expectNothingRawOn(run);
  });
});
