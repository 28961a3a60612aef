/**
 * What a deploy of several agents writes for machines (src/cli/outputs.ts):
 * --json keyed by agent, each agent's own object; the dotenv report's order,
 * which decides what GitLab's limit on the number of variables cuts first.
 */
import { describe, expect, it } from 'vitest';
import { agentVariable, keyedDotenv, keyedJson, OutputsSeen } from '../../src/cli/outputs.ts';
import { deploymentEntry, keyedOutputs } from '../../src/run/decisions/report.ts';
import type { DeploymentEntry } from '../../src/run/ports/findings.ts';
import type { DeploymentSummary } from '../../src/run/ports/summaries.ts';
import { aDeployment } from '../support/fixtures.ts';

const agent = (key: string, extra: Record<string, string> = {}) => ({
  key,
  row: {
    'deployment-id': `id-${key}`,
    status: 'READY',
    live: true,
    url: `https://${key}.example`,
    drift: [],
    ...extra,
  },
});

/** An agent's deployment, live, whose health check answered (`'true'`, `'false'`) or was not made (`''`). */
function checked(name: string, healthy: string): DeploymentSummary {
  const deployment = { ...aDeployment({ name }), id: `id-${name}` };
  const { source, source_config, source_revision_config } = deployment;
  const request = { name, source, source_config, source_revision_config, secrets: [] };
  return {
    spec: { name, source: 'codehost', dryRun: false },
    result: { created: false, deployment, request },
    deployment,
    liveness: {
      live: true,
      ...(healthy === '' ? {} : { health: { ok: healthy === 'true', status: 200 } }),
    },
  };
}

describe('the outputs of several agents', () => {
  it("keys --json by agent, each the agent's own object, error for a failed one", () => {
    const json = keyedJson(
      {
        agents: [agent('support'), { key: 'broken', row: {}, error: 'no' }],
        live: false,
        healthy: null,
      },
      '1 of 2 agents failed',
    );
    expect(json).toEqual({
      deployments: {
        support: {
          'deployment-id': 'id-support',
          status: 'READY',
          live: true,
          url: 'https://support.example',
          drift: [],
        },
        broken: { error: 'no' },
      },
      live: false,
      healthy: null,
      error: '1 of 2 agents failed',
    });
  });

  it('names an agent variable by its key, upper-cased, - as _', () => {
    expect(agentVariable('my-agent', 'URL')).toBe('DEPLOYMENT_AGENT_MY_AGENT_URL');
  });

  it('writes DEPLOYMENT_LIVE, then ids and URLs, then statuses and lives; an unsafe value left out', () => {
    const { text, skipped } = keyedDotenv(
      {
        agents: [agent('a'), agent('b-2', { url: 'https://x/$TOKEN' })],
        live: true,
        healthy: null,
      },
      20,
    );
    expect(text.split('\n')).toEqual([
      'DEPLOYMENT_LIVE=true',
      'DEPLOYMENT_AGENT_A_ID=id-a',
      'DEPLOYMENT_AGENT_A_URL=https://a.example',
      'DEPLOYMENT_AGENT_B_2_ID=id-b-2',
      'DEPLOYMENT_AGENT_A_STATUS=READY',
      'DEPLOYMENT_AGENT_A_LIVE=true',
      'DEPLOYMENT_AGENT_B_2_STATUS=READY',
      'DEPLOYMENT_AGENT_B_2_LIVE=true',
      '',
    ]);
    expect(skipped).toEqual([
      { variable: 'DEPLOYMENT_AGENT_B_2_URL', reason: expect.stringMatching(/expand/) as string },
    ]);
  });

  it('cuts past the limit, statuses and lives first, one entry each', () => {
    const agents = ['a', 'b', 'c', 'd', 'e'].map((key) => agent(key));
    const { text, skipped } = keyedDotenv({ agents, live: true, healthy: null }, 12);
    expect(text.trim().split('\n')).toHaveLength(12);
    expect(text).toContain('DEPLOYMENT_AGENT_E_URL=');
    expect(text).toContain('DEPLOYMENT_AGENT_A_STATUS=');
    expect(skipped.map(({ variable }) => variable)).toEqual([
      'DEPLOYMENT_AGENT_A_LIVE',
      ...['B', 'C', 'D', 'E'].flatMap((key) => [
        `DEPLOYMENT_AGENT_${key}_STATUS`,
        `DEPLOYMENT_AGENT_${key}_LIVE`,
      ]),
    ]);
    expect(skipped[0]?.reason).toMatch(/at most 12 variables/);
    expect(keyedDotenv({ agents, live: true, healthy: null }, 21).skipped).toEqual([]);
  });

  it('says whether every agent checked answered its health check, second, when one was checked', async () => {
    // The run's own rule (keyedOutputs) makes `healthy` from each agent's outputs; the
    // command reads it back from the run's events, as a deploy of several agents does.
    const reported = async (healthy: Record<string, string>) => {
      const seen = new OutputsSeen();
      const entries = new Map<string, DeploymentEntry>();
      for (const [key, value] of Object.entries(healthy)) {
        const deployment = checked(key, value);
        entries.set(key, deploymentEntry(key, deployment));
        await seen.view({ kind: 'outputs', outputs: {}, deployment, agent: key });
      }
      await seen.view({ kind: 'outputs', outputs: keyedOutputs(entries), entries });
      return { json: seen.json(), lines: seen.dotenv(20).text.split('\n').slice(0, 2) };
    };
    const oneDidNot = await reported({ a: 'true', b: 'false', c: '' });
    expect(oneDidNot.json).toMatchObject({ live: true, healthy: false });
    expect(oneDidNot.lines).toEqual(['DEPLOYMENT_LIVE=true', 'DEPLOYMENT_HEALTHY=false']);
    const allDid = await reported({ a: 'true', c: '', b: 'true' });
    expect(allDid.json).toMatchObject({ healthy: true });
    expect(allDid.lines).toEqual(['DEPLOYMENT_LIVE=true', 'DEPLOYMENT_HEALTHY=true']);
    const noneChecked = await reported({ a: '', b: '' });
    expect(noneChecked.json).toMatchObject({ healthy: null });
    expect(noneChecked.lines).toEqual(['DEPLOYMENT_LIVE=true', 'DEPLOYMENT_AGENT_A_ID=id-a']);
  });
});

describe('an agent the pull request does not change', () => {
  const skipped: DeploymentEntry = { name: 'research-pr-7', skipped: 'unchanged' };
  const rows = (live: boolean | null) => ({
    agents: [agent('support'), { key: 'research', entry: skipped, row: {} }],
    live,
    healthy: null,
  });

  it('is skipped in --json, its entry alone', () => {
    const json = keyedJson(rows(true));
    expect((json.deployments as Record<string, unknown>).research).toEqual(skipped);
    expect(json.live).toBe(true);
  });

  it('has only _SKIPPED in --dotenv: no _ID, _URL, _STATUS or _LIVE', () => {
    const { text } = keyedDotenv(rows(true), 50);
    const research = text.split('\n').filter((line) => line.includes('_RESEARCH_'));
    expect(research).toEqual(['DEPLOYMENT_AGENT_RESEARCH_SKIPPED=unchanged']);
    expect(text).toContain('DEPLOYMENT_AGENT_SUPPORT_ID=id-support');
  });

  it('leaves live empty when no agent was deployed', () => {
    expect(keyedOutputs(new Map([['research', skipped]]))).toMatchObject({ live: '', healthy: '' });
    expect(keyedDotenv(rows(null), 50).text).not.toMatch(/^DEPLOYMENT_LIVE=/m);
    expect(keyedDotenv(rows(true), 50).text).toMatch(/^DEPLOYMENT_LIVE=true$/m);
  });
});
