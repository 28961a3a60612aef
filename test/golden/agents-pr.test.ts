/**
 * Golden files of the deploy step (dist/index.js) with a manifest of three agents on a pull
 * request, one of them failing, with GitHub's emulator: what a run writes, asks of the service
 * and tells GitHub (the records and their statuses, the one comment), once with one
 * environment for the manifest and once with one per agent; under test/golden/agents/.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import { type Emulator } from '../emulator/emulator.ts';
import { type GitHubEmulator } from '../emulator/github.ts';
import { AGENT_REPO_URL, INTEGRATION } from '../support/fixtures.ts';
import { PR_HEAD, gitHubStep, pullRequestEvent } from '../support/github-step.ts';
import { actionParts, expectGolden, gitHubParts, serviceChanges } from '../support/golden.ts';
import { MANIFEST_PATH, THREE_AGENTS, manifestStep } from '../support/manifests.ts';
import { startPullRequestWorld } from '../support/pull-request-world.ts';
import { QUICK } from '../support/quick.ts';
import { runAction, type ActionRun } from '../support/run-action.ts';
import { API_KEY, OPENAI } from './action-world.ts';

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  ({ emu, gh } = await startPullRequestWorld(API_KEY, { readyAfterPolls: 1 }));
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

/** The preview `name` of the manifest's agent at `configPath`, live on the pull request's head. */
function preview(name: string, configPath: string) {
  return emu.seedDeployment({
    name,
    source: 'codehost',
    source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
    source_revision_config: {
      repo_ref: 'feature',
      agent_config_path: configPath,
      repo_commit_sha: PR_HEAD,
    },
    secrets: [{ name: 'OPENAI_API_KEY', value: OPENAI }],
  } as never);
}

/**
 * The manifest's deploy on pull request 7 into `environment`, support's and research's
 * previews live, the create of triage's refused.
 */
async function deploy(environment: string): Promise<ActionRun> {
  preview('support-pr-7', 'apps/support/langgraph.json');
  preview('research-assistant-pr-7', 'apps/research/langgraph.json');
  emu.inject({
    method: 'POST',
    path: '/v2/deployments',
    status: 422,
    body: { detail: 'quota exceeded: 3 deployments on this plan' },
  });
  const [given, options] = gitHubStep(
    gh,
    manifestStep(emu, {
      'api-key': API_KEY,
      name: '{agent}-pr-7',
      'repo-ref': 'feature',
      secrets: `OPENAI_API_KEY=${OPENAI}`,
      'wait-for-ready': 'true',
      'wait-timeout': '60',
    }),
    { environment, 'pr-comment': 'true' },
    { event: pullRequestEvent(), env: QUICK, files: { [MANIFEST_PATH]: THREE_AGENTS } },
  );
  return runAction(given, options);
}

describe('deploy, a manifest of three agents on a pull request, one failing', () => {
  it('with one environment for the manifest: one record, one comment', async () => {
    const run = await deploy('preview-pr-7');
    expectGolden(
      'agents/pr-shared-environment.txt',
      actionParts(run) + serviceChanges(emu) + gitHubParts(gh),
    );
  });

  it('with an environment per agent: a record each, one comment', async () => {
    const run = await deploy('preview-pr-7-{agent}');
    expectGolden(
      'agents/pr-environment-per-agent.txt',
      actionParts(run) + serviceChanges(emu) + gitHubParts(gh),
    );
  });
});
