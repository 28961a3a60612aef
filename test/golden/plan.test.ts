/**
 * Golden files of the plan step (plan/action.yml, dist/plan.js) on pull request 7, with
 * GitHub's emulator: one deployment, and a manifest of three agents, each with its plan
 * comment; what a run writes, asks of the service (nothing but reads) and tells GitHub,
 * recorded under test/golden/plan/.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import { GITHUB_TOKEN, gitHubStep, pullRequestEvent } from '../support/github-step.ts';
import { actionParts, expectGolden, gitHubParts, serviceChanges } from '../support/golden.ts';
import { TENANT_ID } from '../support/ids.ts';
import { MANIFEST_PATH, THREE_AGENTS } from '../support/manifests.ts';
import { runAction, type ActionRun } from '../support/run-action.ts';
import { API_KEY, OPENAI } from './action-world.ts';

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  [emu, gh] = await Promise.all([
    startEmulator({ tenantId: TENANT_ID, apiKey: API_KEY }),
    startGitHubEmulator(),
  ]);
  seedAgentRepository(emu);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

/** The deployment `name` as an earlier deploy left it, from `agentConfigPath`. */
function deployed(name: string, agentConfigPath: string) {
  return emu.seedDeployment({
    name,
    source: 'codehost',
    source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
    source_revision_config: { repo_ref: 'main', agent_config_path: agentConfigPath },
    secrets: [{ name: 'OPENAI_API_KEY', value: OPENAI }],
  } as never);
}

/** The plan step of pull request 7 with `inputs`, the workspace holding the manifest. */
function plan(inputs: Record<string, string>): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    {
      'api-url': emu.url,
      'api-key': API_KEY,
      'integration-id': INTEGRATION,
      secrets: `OPENAI_API_KEY=${OPENAI}`,
      ...inputs,
    },
    {},
    {
      event: pullRequestEvent(),
      action: 'plan/action.yml',
      files: { [MANIFEST_PATH]: THREE_AGENTS },
    },
  );
  return runAction(given, options);
}

const everything = (run: ActionRun) => actionParts(run) + serviceChanges(emu) + gitHubParts(gh);

describe('plan on a pull request', () => {
  it('of one deployment: a difference the deploy would not apply, in the plan comment', async () => {
    deployed('my-agent', 'agent.json');

    const run = await plan({ name: 'my-agent', 'agent-config-path': 'agent-v2.json' });

    expectGolden('plan/one-deployment.txt', everything(run));
  });

  it('of a manifest: one agent reused with a difference, one created, one unchanged', async () => {
    deployed('support', 'apps/support/old.json');
    deployed('triage', 'apps/triage/langgraph.json');

    const run = await plan({ agents: MANIFEST_PATH });

    expectGolden('plan/manifest.txt', everything(run));
  });
});
