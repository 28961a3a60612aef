/**
 * End-to-end, the deploy step with a manifest of agents (`agents`) through
 * dist/index.js against the emulator: each agent as if alone, one failure
 * stopping none of the others, the repository listing read once, the
 * checks of every waiting agent in one request, the outputs keyed by agent,
 * one summary, and a one-agent manifest asking what the single step asks.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type RecordedRequest } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { printed, runAction } from '../support/run-action.ts';
import { QUICK } from '../support/quick.ts';
import { MAIN_HEAD, MAIN_PUSH } from '../support/manifests.ts';

const API_KEY = 'agents-key-0123456789abcdef';
const OPENAI = 'sk-agents-openai-0123456789';
const TAVILY = 'tvly-agents-0123456789abcd';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: API_KEY, readyAfterPolls: 1 });
  seedAgentRepository(emu);
  emu.setHead(AGENT_REPO_URL, 'main', MAIN_HEAD);
});

afterEach(async () => {
  await emu.close();
});

const MANIFEST = `agents:
  support:
    agent-config-path: apps/support/langgraph.json
    secrets: [OPENAI_API_KEY]
  research:
    name: research-assistant
    agent-config-path: apps/research/langgraph.json
  triage:
    agent-config-path: apps/triage/langgraph.json
`;

function step(extra: Record<string, string> = {}) {
  return runAction(
    {
      'api-url': emu.url,
      'api-key': API_KEY,
      'integration-id': INTEGRATION,
      agents: 'deploy/agents.yaml',
      secrets: `OPENAI_API_KEY=${OPENAI}\nTAVILY_API_KEY=${TAVILY}`,
      'wait-for-ready': 'true',
      'wait-timeout': '60',
      ...extra,
    },
    {
      env: QUICK,
      files: { 'deploy/agents.yaml': MANIFEST },
      event: MAIN_PUSH,
    },
  );
}

describe('a manifest of agents', () => {
  it('deploys every agent, fails naming the one that failed, and reports all in one place', async () => {
    emu.seedDeployment({ name: 'triage', source: 'external_docker' });
    const run = await step();

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(
      /^1 of 3 agents failed:\n- triage: Deployment 'triage' .* exists with source external_docker/,
    );
    const deployments = JSON.parse(run.outputs.deployments ?? '{}') as Record<
      string,
      Record<string, unknown>
    >;
    expect(Object.keys(deployments)).toEqual(['support', 'research', 'triage']);
    expect(deployments.support).toMatchObject({
      name: 'support',
      live: true,
      'commit-sha': MAIN_HEAD,
    });
    expect(deployments.research).toMatchObject({ name: 'research-assistant', live: true });
    expect(deployments.triage).toMatchObject({ live: false });
    expect(deployments.triage?.error).toMatch(/source external_docker/);
    expect(run.outputs.live).toBe('false');
    expect(run.outputs['deployment-id'] ?? '').toBe('');
    // The agent gets only the secrets its entry names.
    const support = emu.deployments.find((d) => d.name === 'support');
    expect(support?.secrets.map((secret) => secret.name)).toEqual(['OPENAI_API_KEY']);
    const research = emu.deployments.find((d) => d.name === 'research-assistant');
    expect(research?.secrets.map((secret) => secret.name).sort()).toEqual([
      'OPENAI_API_KEY',
      'TAVILY_API_KEY',
    ]);
    // The listing once for the integration; the checks of all waiting agents, one request each.
    const listings = emu.requests.filter((request) => request.path.endsWith('/repos'));
    expect(listings).toHaveLength(1);
    const polls = emu.requests.filter((request) => request.query.deployment_ids !== undefined);
    expect(polls.some((poll) => poll.query.deployment_ids?.split(',').length === 2)).toBe(true);
    expect(polls.every((poll) => poll.query.limit === '100')).toBe(true);
    expect(run.summary).toContain('<code>support</code>');
    expect(run.summary).toContain('<code>research-assistant</code>');
    expect(run.summary).toContain('1 of 3 agents failed');
    expect(printed(run)).toMatch(/::group::\[support\] Looking for deployment 'support'/);
    expectNoSecret([API_KEY, OPENAI, TAVILY], run);
  });

  it('with one agent, asks the service what the single step asks', async () => {
    const run = (inputs: Record<string, string>) =>
      runAction(
        { 'api-url': emu.url, 'api-key': API_KEY, 'integration-id': INTEGRATION, ...inputs },
        { env: QUICK, event: MAIN_PUSH },
      );
    const single = await run({
      name: 'solo',
      'agent-config-path': 'apps/solo/langgraph.json',
      'wait-for-ready': 'true',
    });
    expect(single.exitCode).toBe(0);
    const asked = emu.requests.map(comparable);
    // The same service again, as the single step found it: no deployment yet.
    emu.requests.length = 0;
    emu.deployments.length = 0;

    const manifest = await run({
      agents: '{"agents": {"solo": {"agent-config-path": "apps/solo/langgraph.json"}}}',
      'wait-for-ready': 'true',
    });

    expect(manifest.exitCode).toBe(0);
    // Whole requests alike, bodies and headers too; the one difference: the checks of a
    // manifest's agents are shared (one request for all), which pages as a listing does.
    const shared = (request: Comparable): Comparable =>
      request.query.deployment_ids === undefined
        ? request
        : { ...request, query: { ...request.query, limit: '100' } };
    expect(emu.requests.map(comparable)).toEqual(asked.map(shared));
    expect(JSON.parse(manifest.outputs.deployments ?? '{}')).toMatchObject({
      solo: { name: 'solo', live: true, created: true },
    });
    expect(manifest.outputs.live).toBe('true');
  });
});

/** An id the service made: a UUID. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/giu;

/** A request as the service saw it, whole but for its times. */
type Comparable = Pick<RecordedRequest, 'method' | 'path' | 'query' | 'headers' | 'body'>;

/** A request as the service saw it, whole, its ids made alike and its times left out. */
function comparable({ method, path, query, headers, body }: RecordedRequest): Comparable {
  return JSON.parse(
    JSON.stringify({ method, path, query, headers, body }).replaceAll(UUID, '<id>'),
  ) as Comparable;
}
