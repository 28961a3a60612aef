/**
 * The world of the command's golden files (test/golden/cli*.test.ts): an emulator that lists
 * acme/agent with main at MAIN_HEAD, its deployments READY after one check, and the
 * environment a CI job gives dist/cli.js (service address, key, a secret's value, QUICK pace).
 */
import { startEmulator, type Emulator, type EmulatorOptions } from '../emulator/emulator.ts';
import { runCli, type CliOptions, type CliRun } from '../cli/run-cli.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import { cliParts, serviceChanges } from '../support/golden.ts';
import { MAIN_HEAD } from '../support/manifests.ts';
import { QUICK } from '../support/quick.ts';

export const API_KEY = 'golden-cli-key-0123456789abcdef';
export const OPENAI = 'sk-golden-cli-openai-0123456789';

/** An emulator with acme/agent listed and main at MAIN_HEAD; deployments READY after one check. */
export async function startWorld(options: EmulatorOptions = {}): Promise<Emulator> {
  const emu = await startEmulator({ apiKey: API_KEY, readyAfterPolls: 1, ...options });
  seedAgentRepository(emu);
  emu.setHead(AGENT_REPO_URL, 'main', MAIN_HEAD);
  return emu;
}

/** The variables a CI job sets: the service, its key, the secret's value, the quick pace. */
export function serviceEnv(emu: Emulator, extra: Record<string, string> = {}) {
  return {
    DEPLOY_API_URL: emu.url,
    DEPLOY_API_KEY: API_KEY,
    OPENAI_API_KEY: OPENAI,
    DEPLOY_AGENT_RETRY_DELAY_MS: '1',
    ...QUICK,
    ...extra,
  };
}

/** `deploy` of `my-agent` from acme/agent at MAIN_HEAD, waiting until live, then `more`. */
export function deployArgs(...more: string[]): string[] {
  return [
    'deploy',
    '--name',
    'my-agent',
    '--integration-id',
    INTEGRATION,
    '--repository',
    'acme/agent',
    '--commit',
    MAIN_HEAD,
    '--secret',
    'OPENAI_API_KEY',
    '--wait',
    '--wait-timeout',
    '60',
    ...more,
  ];
}

/** Runs the command in the world's environment. */
export function cli(emu: Emulator, args: string[], options: CliOptions = {}): Promise<CliRun> {
  return runCli(args, { ...options, env: serviceEnv(emu, options.env) });
}

/** A golden file's text: what the run wrote, then what the service was asked to change. */
export function written(run: CliRun, emu: Emulator): string {
  return cliParts(run) + serviceChanges(emu);
}

/**
 * The whole seconds a wait's log line counts (`(0 s so far)`, `(0 s)`): the first check comes
 * within the first second, but on a loaded machine it may come after it. Only this count.
 */
export const WAIT_SECONDS = [
  [/\((\d+) s so far\)/g, '(<n> s so far)'],
  [/\((\d+) s\)/g, '(<n> s)'],
] as const;
