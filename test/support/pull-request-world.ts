/**
 * Both emulators as an end-to-end test of a pull request's step needs them: the
 * service (with the agent repository seeded, under `apiKey`) and GitHub's API (the
 * workflow's token known, the pull request's head chained), started together.
 */
import { startEmulator, type Emulator, type EmulatorOptions } from '../emulator/emulator.ts';
import {
  GITHUB_ACTIONS_BOT,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../emulator/github.ts';
import { seedAgentRepository } from './fixtures.ts';
import { GITHUB_TOKEN, PR_HEAD } from './github-step.ts';
import { TENANT_ID } from './ids.ts';

export async function startPullRequestWorld(
  apiKey: string,
  options: EmulatorOptions = {},
): Promise<{ emu: Emulator; gh: GitHubEmulator }> {
  const [emu, gh] = await Promise.all([
    startEmulator({ tenantId: TENANT_ID, apiKey, ...options }),
    startGitHubEmulator(),
  ]);
  seedAgentRepository(emu);
  gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
  gh.chain(PR_HEAD);
  return { emu, gh };
}
