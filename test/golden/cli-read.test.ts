/**
 * Golden files of the commands that only read (dist/cli.js): `status` of one deployment and
 * of a manifest's agents, `plan` (create, and reuse with a difference), `list` and `repos`
 * (piped and --json), after a deploy made what they read. There is no `retire` command
 * (docs/command.md). Recorded under test/golden/cli/.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator/emulator.ts';
import { expectGolden } from '../support/golden.ts';
import { INTEGRATION } from '../support/ids.ts';
import { deployAgentsArgs, THREE_AGENTS, TWO_AGENTS } from '../support/manifests.ts';
import { cli, deployArgs, groupedByAgent, startWorld, WAIT_SECONDS, written } from './cli-world.ts';

const SEEDED_SECRET = 'seeded-token-value-0123456789';

let emu: Emulator;

beforeEach(async () => {
  emu = await startWorld();
});

afterEach(async () => {
  await emu.close();
});

/** Deploys `my-agent` as cli-deploy.test.ts does, then forgets the requests it made. */
async function deployed() {
  const run = await cli(emu, deployArgs());
  expect(run.exitCode, run.stderr).toBe(0);
  emu.requests.length = 0;
}

/** `plan` of `my-agent` as deployArgs describes it, then `more`. */
const planArgs = (...more: string[]) => [
  'plan',
  '--name',
  'my-agent',
  '--integration-id',
  INTEGRATION,
  '--repository',
  'acme/agent',
  '--secret',
  'OPENAI_API_KEY',
  ...more,
];

describe('deploy-agent status', () => {
  it('reports one deployment, in the log and --json', async () => {
    await deployed();
    const run = await cli(emu, ['status', '--name', 'my-agent', '--json']);
    expectGolden('cli/status-json.txt', written(run, emu), { replace: WAIT_SECONDS });
  });

  it('reports every agent of a manifest, one of which has no deployment', async () => {
    const setup = await cli(emu, deployAgentsArgs('agents.yaml', '--wait'), {
      files: { 'agents.yaml': TWO_AGENTS },
    });
    expect(setup.exitCode, setup.stderr).toBe(0);
    emu.requests.length = 0;
    const run = await cli(emu, ['status', '--agents', 'agents.yaml', '--json'], {
      files: { 'agents.yaml': THREE_AGENTS },
    });
    // The agents run at once: their lines interleave differently each run (cli-world.ts, byAgent).
    const grouped = groupedByAgent(run, ['support', 'research', 'triage']);
    expectGolden('cli/status-agents-json.txt', written(grouped, emu), { replace: WAIT_SECONDS });
  });
});

describe('deploy-agent plan', () => {
  it('would create a deployment no one made yet', async () => {
    const run = await cli(emu, planArgs('--json'));
    expectGolden('cli/plan-create.txt', written(run, emu));
  });

  it('would reuse one, with a difference the deploy would not apply', async () => {
    await deployed();
    const run = await cli(
      emu,
      planArgs('--agent-config-path', 'apps/other/langgraph.json', '--json'),
    );
    expectGolden('cli/plan-reuse.txt', written(run, emu));
  });
});

describe('deploy-agent list and repos', () => {
  it('lists the deployments piped and with --json, every secret value ***', async () => {
    await deployed();
    emu.seedDeployment({
      name: 'support-pr-7',
      source: 'external_docker',
      source_revision_config: { image_uri: 'reg/support:1.4.2', repo_commit_sha: null },
      image_version: '1.4.2',
      secrets: [{ name: 'TOKEN', value: SEEDED_SECRET }],
    } as never);
    const piped = await cli(emu, ['list']);
    expectGolden('cli/list-piped.txt', written(piped, emu));
    const json = await cli(emu, ['list', '--json']);
    expectGolden('cli/list-json.txt', written(json, emu));
  });

  it("lists the integration's repositories piped and with --json", async () => {
    const piped = await cli(emu, ['repos', '--integration-id', INTEGRATION]);
    expectGolden('cli/repos-piped.txt', written(piped, emu));
    const json = await cli(emu, ['repos', '--integration-id', INTEGRATION, '--json']);
    expectGolden('cli/repos-json.txt', written(json, emu));
  });
});
