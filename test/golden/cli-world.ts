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

/**
 * The lines of a run of agents at once, grouped by agent (in `keys`' order), each agent's own
 * lines in the order it wrote them. The agents run at once, so how their lines interleave
 * varies from run to run (support's `created …` before or after research's `… is live`);
 * what each agent wrote, and in what order, does not. `agentOf` names a line's agent, or
 * undefined for a line of the run as a whole: those before the first agent's line stay first,
 * those after the last stay last, any other goes with the agent line before it.
 */
export function byAgent(
  text: string,
  keys: readonly string[],
  agentOf: (line: string) => string | undefined,
): string {
  const lines = text.split('\n');
  const end = lines.at(-1) === '' ? lines.pop() : undefined;
  const agents = lines.map(agentOf);
  const first = agents.findIndex((agent) => agent !== undefined);
  if (first === -1) return text;
  const last = agents.findLastIndex((agent) => agent !== undefined);
  const groups = new Map<string, string[]>(keys.map((key) => [key, []]));
  let current = agents[first] ?? '';
  for (let index = first; index <= last; index += 1) {
    current = agents[index] ?? current;
    const group = groups.get(current) ?? [];
    groups.set(current, [...group, lines[index] ?? '']);
  }
  const grouped = [
    ...lines.slice(0, first),
    ...[...groups.values()].flat(),
    ...lines.slice(last + 1),
  ];
  return grouped.join('\n') + (end === undefined ? '' : '\n');
}

/** A log line's agent: its `[key] ` prefix. */
function logAgent(line: string): string | undefined {
  return /^\[([a-z0-9_-]+)\] /.exec(line)?.[1];
}

/** An --events line's agent: its `agent` field. */
function eventAgent(line: string): string | undefined {
  try {
    const agent = (JSON.parse(line) as { agent?: unknown }).agent;
    return typeof agent === 'string' ? agent : undefined;
  } catch {
    return undefined;
  }
}

/** The run with its log (and its --events stream) grouped by agent: see byAgent. */
export function groupedByAgent(run: CliRun, keys: readonly string[]): CliRun {
  return {
    ...run,
    stdout: byAgent(run.stdout, keys, eventAgent),
    stderr: byAgent(run.stderr, keys, logAgent),
  };
}
