/**
 * Golden files of the sweep step (sweep/action.yml, dist/sweep.js) on a schedule, with
 * GitHub's emulator: one deployment's previews across open, closed and merged pull requests,
 * and a manifest's previews after the deploy step made them on a pull request since merged;
 * what the sweep writes, asks of the service (nothing but reads) and leaves in GitHub,
 * recorded under test/golden/sweep/.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import { type Emulator } from '../emulator/emulator.ts';
import { type GitHubEmulator } from '../emulator/github.ts';
import { gitHubStep } from '../support/github-step.ts';
import { actionParts, expectGolden, gitHubParts, serviceChanges } from '../support/golden.ts';
import { MANIFEST_PATH, THREE_AGENTS } from '../support/manifests.ts';
import { startPullRequestWorld } from '../support/pull-request-world.ts';
import { runAction, type ActionRun } from '../support/run-action.ts';
import { DASHBOARD, BOT, deployPreviews } from './preview-world.ts';
import { API_KEY } from './action-world.ts';

const REPO = 'acme/agent';
const files = { [MANIFEST_PATH]: THREE_AGENTS };
const marker = (name: string) => `<!-- deploy-agent:${name.replaceAll('-', '%2D')} -->`;

let emu: Emulator;
let gh: GitHubEmulator;

beforeEach(async () => {
  ({ emu, gh } = await startPullRequestWorld(API_KEY));
});

afterEach(async () => {
  await Promise.all([emu.close(), gh.close()]);
});

/** The sweep on a schedule with `inputs`. */
function sweep(inputs: Record<string, string>): Promise<ActionRun> {
  const [given, options] = gitHubStep(
    gh,
    { 'api-url': emu.url, 'api-key': API_KEY, 'dashboard-url': DASHBOARD, ...inputs },
    {},
    {
      event: { name: 'schedule', ref: 'refs/heads/main', sha: 'a'.repeat(40), payload: {} },
      action: 'sweep/action.yml',
      files,
    },
  );
  return runAction(given, options);
}

const everything = (run: ActionRun) => actionParts(run) + serviceChanges(emu) + gitHubParts(gh);

describe('the sweep on a schedule', () => {
  it('of one deployment: the previews of the closed and merged pull requests retired', async () => {
    gh.seedPullRequest(REPO, 1, 'open');
    gh.seedPullRequest(REPO, 2, 'closed', '2026-11-02T10:00:00Z');
    gh.seedPullRequest(REPO, 3, 'merged', '2026-11-01T10:00:00Z');
    for (const number of [1, 2, 3]) {
      emu.seedDeployment({ name: `my-agent-pr-${number}` });
      gh.seedDeployments(REPO, `preview-pr-${number}`, 1);
      gh.seedComment(REPO, number, `${marker(`my-agent-pr-${number}`)}\n### live`, BOT);
    }
    emu.seedDeployment({ name: 'my-agent' });

    const run = await sweep({
      'name-pattern': 'my-agent-pr-{number}',
      'environment-pattern': 'preview-pr-{number}',
    });

    expectGolden('sweep/one-deployment.txt', everything(run));
  });

  it("of a manifest the deploy step made: every agent's preview of the merged pull request retired", async () => {
    await deployPreviews(emu, gh, API_KEY);
    gh.seedPullRequest(REPO, 7, 'merged', '2026-11-02T10:00:00Z');

    const run = await sweep({
      agents: MANIFEST_PATH,
      'name-pattern': '{agent}-pr-{number}',
      'environment-pattern': 'preview-pr-{number}-{agent}',
    });

    expectGolden('sweep/manifest.txt', everything(run));
  });
});
