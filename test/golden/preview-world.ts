/**
 * What the golden files of retire and the sweep share: pull request 7's previews of the three
 * agents, as the deploy step makes them (per-agent environments, the one comment), before the
 * step recorded.
 */
import { expect } from 'vitest';
import type { Emulator } from '../emulator/emulator.ts';
import type { GitHubEmulator } from '../emulator/github.ts';
import { INTEGRATION } from '../support/fixtures.ts';
import { gitHubStep, pullRequestEvent } from '../support/github-step.ts';
import { MANIFEST_PATH, THREE_AGENTS } from '../support/manifests.ts';
import { printed, runAction } from '../support/run-action.ts';

/** The dashboard's address template the preview steps are given. */
export const DASHBOARD = 'https://console.example/o/{tenant_id}/deployments/{id}';

/** Who writes the comments GitHub shows: the workflow's token. */
export const BOT = { login: 'github-actions[bot]', type: 'Bot' as const };

/** Deploys every agent's preview of pull request 7, then forgets the service's requests. */
export async function deployPreviews(
  emu: Emulator,
  gh: GitHubEmulator,
  apiKey: string,
): Promise<void> {
  const [given, options] = gitHubStep(
    gh,
    {
      'api-url': emu.url,
      'api-key': apiKey,
      'integration-id': INTEGRATION,
      name: '{agent}-pr-7',
      agents: MANIFEST_PATH,
    },
    { 'pr-comment': 'true', environment: 'preview-pr-7-{agent}' },
    { event: pullRequestEvent(), files: { [MANIFEST_PATH]: THREE_AGENTS } },
  );
  const deployed = await runAction(given, options);
  expect(deployed.exitCode, printed(deployed)).toBe(0);
  emu.requests.length = 0;
}
