/**
 * The manifests the tests of several agents deploy, from acme/agent (fixtures.ts) at
 * MAIN_HEAD, and the step and the command that deploy one: written once, so that a test
 * says only what differs.
 */
import { INTEGRATION } from './fixtures.ts';

/** `main`'s head in the tests of several agents. */
export const MAIN_HEAD = 'aaaa1111bbbb2222cccc3333dddd4444eeee5555';

/** A push of MAIN_HEAD to `main`, as the runner gives it. */
export const MAIN_PUSH = { name: 'push', ref: 'refs/heads/main', sha: MAIN_HEAD };

/** Where the action's tests put the manifest in the workspace. */
export const MANIFEST_PATH = 'deploy/agents.yaml';

/** Two agents: `support`, and `research` deployed as `research-assistant`. */
export const TWO_AGENTS = `agents:
  support:
    agent-config-path: apps/support/langgraph.json
  research:
    name: research-assistant
    agent-config-path: apps/research/langgraph.json
`;

/** TWO_AGENTS and `triage`. */
export const THREE_AGENTS = `${TWO_AGENTS}  triage:
    agent-config-path: apps/triage/langgraph.json
`;

/** Each agent's deployment name, by its key in TWO_AGENTS and THREE_AGENTS. */
export const DEPLOYMENT_NAMES: Readonly<Record<string, string>> = {
  support: 'support',
  research: 'research-assistant',
  triage: 'triage',
};

/** The action's inputs for the manifest at MANIFEST_PATH on the emulator at `emu.url`. */
export function manifestStep(
  emu: { url: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return { 'api-url': emu.url, 'integration-id': INTEGRATION, agents: MANIFEST_PATH, ...extra };
}

/** `deploy-agent deploy --agents FILE` of acme/agent at MAIN_HEAD, then `more`. */
export function deployAgentsArgs(file: string, ...more: string[]): string[] {
  return [
    'deploy',
    '--agents',
    file,
    '--integration-id',
    INTEGRATION,
    '--repository',
    'acme/agent',
    '--commit',
    MAIN_HEAD,
    ...more,
  ];
}
