/**
 * What many tests share: a deployment as the service answers it, and the
 * inputs of an end-to-end step against the emulator. The ids are in ids.ts.
 */
import { DeploymentSchema, type Deployment } from '../../src/service/schemas.ts';
import { DEPLOYMENT_ID, INTEGRATION, OLD_SHA, TENANT_ID } from './ids.ts';

export * from './ids.ts';

/**
 * A READY codehost deployment named `app` as the service answers it, tracking
 * `main` at `OLD_SHA`, with no revision ids; `fields` over it.
 */
export function aDeployment(fields: Partial<Deployment> = {}): Deployment {
  return DeploymentSchema.parse({
    name: 'app',
    source: 'codehost',
    source_config: {},
    source_revision_config: { repo_ref: 'main', repo_commit_sha: OLD_SHA },
    secrets: [],
    secret_references: null,
    id: DEPLOYMENT_ID,
    tenant_id: TENANT_ID,
    created_at: '2026-11-22T05:00:00Z',
    updated_at: '2026-11-22T05:00:00Z',
    status: 'READY',
    latest_revision_id: null,
    active_revision_id: null,
    ...fields,
  });
}

/**
 * The inputs of a codehost step against the emulator at `emu.url`: deployment
 * `my-agent` of `INTEGRATION`'s repository; `extra` adds or overrides inputs.
 */
export function codehostStep(
  emu: { url: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return { 'api-url': emu.url, name: 'my-agent', 'integration-id': INTEGRATION, ...extra };
}

/** The repository most flow tests deploy: acme/agent, default branch main. */
export const AGENT_REPO_URL = 'https://github.com/acme/agent';

/** Lets the emulator's integration list acme/agent, as a codehost step needs. */
export function seedAgentRepository(emu: {
  seedRepos: (
    integrationId: string,
    repos: { owner: string; name: string; url: string; default_branch: string }[],
  ) => unknown;
}): void {
  emu.seedRepos(INTEGRATION, [
    { owner: 'acme', name: 'agent', url: AGENT_REPO_URL, default_branch: 'main' },
  ]);
}
