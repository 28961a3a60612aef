/**
 * Golden files of the retire step (retire/action.yml, dist/retire.js) on a merged pull request,
 * with GitHub's emulator: one deployment's preview, and a manifest's previews after the deploy
 * step made them; what the retire run writes, asks of the service (nothing but reads) and
 * leaves in GitHub (records and statuses, the comment), recorded under test/golden/retire/.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import { type Emulator } from '../emulator/emulator.ts';
import { type GitHubEmulator } from '../emulator/github.ts';
import { gitHubStep, pullRequestEvent } from '../support/github-step.ts';
import { actionParts, expectGolden, gitHubParts, serviceChanges } from '../support/golden.ts';
import { MANIFEST_PATH, THREE_AGENTS } from '../support/manifests.ts';
import { startPullRequestWorld } from '../support/pull-request-world.ts';
import { runAction, type ActionRun } from '../support/run-action.ts';
import { DASHBOARD, BOT, deployPreviews } from './preview-world.ts';
import { API_KEY } from './action-world.ts';

const files = { [MANIFEST_PATH]: THREE_AGENTS };

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  ({ emu, gh } = await startPullRequestWorld(API_KEY));
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

/** The retire step with `inputs` and `environment`, once pull request 7 is merged. */
function retire(inputs: Record<string, string>, environment: string): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    { 'api-url': emu.url, 'api-key': API_KEY, 'dashboard-url': DASHBOARD, ...inputs },
    { environment },
    { event: pullRequestEvent(undefined, undefined, 'merged'), files, action: 'retire/action.yml' },
  );
  return runAction(given, options);
}

const everything = (run: ActionRun) => actionParts(run) + serviceChanges(emu) + gitHubParts(gh);

describe('retire on a merged pull request', () => {
  it("of one deployment: its environment's records inactive, its comment rewritten", async () => {
    emu.seedDeployment({ name: 'my-agent-pr-7', status: 'DEPLOYED' });
    gh.seedDeployments('acme/agent', 'preview-pr-7', 2);
    gh.seedDeployments('acme/agent', 'production', 1);
    gh.seedComment(
      'acme/agent',
      7,
      '<!-- deploy-agent:my%2Dagent%2Dpr%2D7 -->\n### 🟢 `my-agent-pr-7` is live\n',
      BOT,
    );

    const run = await retire({ name: 'my-agent-pr-7' }, 'preview-pr-7');

    expectGolden('retire/one-deployment.txt', everything(run));
  });

  it("of a manifest the deploy step made: each agent's environment inactive, the one comment rewritten", async () => {
    await deployPreviews(emu, gh, API_KEY);

    const run = await retire(
      { name: '{agent}-pr-7', agents: MANIFEST_PATH },
      'preview-pr-7-{agent}',
    );

    expectGolden('retire/manifest.txt', everything(run));
  });
});
