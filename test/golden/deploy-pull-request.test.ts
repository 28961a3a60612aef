/**
 * Golden files of the deploy step (dist/index.js) on a pull request, one deployment, with
 * GitHub's emulator: what the run wrote, what the service was asked to change, and what GitHub
 * was told (the deployment record with its statuses, the pull request comment), recorded under
 * test/golden/deploy/.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import type { Emulator } from '../emulator/emulator.ts';
import type { GitHubEmulator } from '../emulator/github.ts';
import { AGENT_REPO_URL, codehostStep } from '../support/fixtures.ts';
import { PR_HEAD, gitHubStep, pullRequestEvent } from '../support/github-step.ts';
import { actionParts, expectGolden, gitHubParts, serviceChanges } from '../support/golden.ts';
import { startPullRequestWorld } from '../support/pull-request-world.ts';
import { QUICK } from '../support/quick.ts';
import { runAction } from '../support/run-action.ts';
import { API_KEY, OPENAI } from './action-world.ts';

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  ({ emu, gh } = await startPullRequestWorld(API_KEY, { readyAfterPolls: 1 }));
  emu.setHead(AGENT_REPO_URL, 'feature', PR_HEAD);
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

/** The deploy step of pull request 7's preview, recorded and commented on, waiting. */
function step() {
  const [inputs, options] = gitHubStep(
    gh,
    codehostStep(emu, {
      'api-key': API_KEY,
      name: 'my-agent-pr-7',
      'repo-ref': 'feature',
      secrets: `OPENAI_API_KEY=${OPENAI}`,
      'wait-for-ready': 'true',
      'wait-timeout': '60',
    }),
    { environment: 'preview-pr-7', 'pr-comment': 'true' },
    { env: QUICK, event: pullRequestEvent() },
  );
  return runAction(inputs, options);
}

describe('deploy, one deployment, on a pull request', () => {
  it('creates the preview, records it in its environment and comments; then reuses it', async () => {
    const first = await step();
    expectGolden(
      'deploy/pull-request-create.txt',
      actionParts(first) + serviceChanges(emu) + gitHubParts(gh),
    );
    emu.requests.length = 0;
    const second = await step();
    expectGolden(
      'deploy/pull-request-reuse.txt',
      actionParts(second) + serviceChanges(emu) + gitHubParts(gh),
    );
  });
});
