/**
 * The `agents` input (src/inputs/manifest.ts) and each agent's deploy spec
 * (src/inputs/deploy-request.ts): a manifest inline or in a file, the
 * step's `name` as a template, an entry over the step, the secrets an agent
 * gets, and every problem of every agent reported at once, named by its path.
 */
import { describe, expect, it } from 'vitest';
import { manifestRequest, type DeployRequest } from '../../src/inputs/deploy-request.ts';
import { INPUTS } from '../../src/inputs/core-inputs.ts';
import { readInputs } from '../../src/inputs/declare.ts';
import { InputError } from '../../src/inputs/errors.ts';
import type { RunDescription } from '../../src/inputs/run-description.ts';
import { reader } from '../support/action.ts';
import {
  BASE,
  INTEGRATION_ID,
  OTHER_ID,
  SECRET,
  narrow,
  temporaryWorkspace,
} from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('agents-input-test-');
const run: RunDescription = { workspace: workspace.root, repository: 'acme/agent' };

const SHA = 'a'.repeat(40);

/** The step's inputs with a manifest and no name, unless `given` says otherwise. */
function request(given: Record<string, string>): DeployRequest {
  const inputs = readInputs(INPUTS, reader({ ...BASE, name: '', ...given }), run);
  return manifestRequest(inputs, run);
}

/** `input 'path': problem` lines, as the step's message shows them. */
function problems(given: Record<string, string>): string[] {
  try {
    request(given);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems.map(
      ({ input, problem }) => `input '${input}': ${problem}`,
    );
  }
  throw new Error(`expected an InputError for ${JSON.stringify(given)}`);
}

const TWO = [
  'agents:',
  '  support:',
  '    agent-config-path: apps/support/langgraph.json',
  '  research:',
  '    name: research-assistant',
  '    agent-config-path: apps/research/langgraph.json',
].join('\n');

describe('the manifest', () => {
  it('reads inline YAML into one spec per agent, in its order, each named by its agent', () => {
    const asked = request({ agents: TWO });
    expect(asked.source).toBe('inline');
    expect(asked.nameTemplate).toBeUndefined();
    expect(asked.agents.map(({ key, name, spec }) => [key, name, spec.name])).toEqual([
      ['support', 'support', 'support'],
      ['research', 'research-assistant', 'research-assistant'],
    ]);
    expect(asked.agents[1]?.spec.sourceRevisionConfig).toEqual({
      agent_config_path: 'apps/research/langgraph.json',
    });
  });

  it('reads inline JSON', () => {
    const json = JSON.stringify({ agents: { support: { 'repo-ref': 'release' }, docs: {} } });
    const asked = request({ agents: json });
    expect(asked.agents.map((agent) => agent.key)).toEqual(['support', 'docs']);
    expect(asked.agents[0]?.spec.sourceRevisionConfig).toEqual({ repo_ref: 'release' });
    expect(asked.agents[1]?.spec.sourceRevisionConfig).toEqual({});
  });

  it('reads a file in the workspace, and remembers its path', () => {
    workspace.write('deploy/agents.yaml', TWO);
    workspace.write('deploy/agents.json', JSON.stringify({ agents: { one: null } }));
    expect(request({ agents: 'deploy/agents.yaml' }).source).toBe('deploy/agents.yaml');
    expect(request({ agents: 'deploy/agents.json' }).agents.map((agent) => agent.key)).toEqual([
      'one',
    ]);
  });

  it("reads a file as config's is: inside the workspace, and there", () => {
    expect(problems({ agents: '../agents.yaml' })).toEqual([
      "input 'agents': file '../agents.yaml' is outside the workspace",
    ]);
    expect(problems({ agents: 'deploy/missing.yml' })[0]).toMatch(
      /^input 'agents': file 'deploy\/missing.yml' was not found in the workspace/,
    );
  });

  it('takes an empty entry, with nothing or {}, as every default of the step', () => {
    const asked = request({ agents: 'agents:\n  support:\n  docs: {}\n' });
    expect(asked.agents.map(({ key, spec }) => [key, spec.name, spec.source])).toEqual([
      ['support', 'support', 'codehost'],
      ['docs', 'docs', 'codehost'],
    ]);
  });

  it('is no manifest when empty: the single deployment is read as always', () => {
    const inputs = readInputs(INPUTS, reader({ ...BASE }), run);
    expect(inputs.agents).toBeUndefined();
    expect(() => manifestRequest(inputs, run)).toThrow(/input 'agents': is empty/);
  });

  it('names each unknown key by its path, and a value that is not text', () => {
    const manifest = 'agents:\n  research:\n    image_url: x\n    commit: 1234\nversion: 2\n';
    expect(problems({ agents: manifest })).toEqual([
      "input 'agents': version: unknown key (a manifest has one key, agents)",
      "input 'agents.research.image_url': unknown key",
      "input 'agents.research.commit': Invalid input: expected string, received number",
    ]);
  });

  it('reports every problem of every agent at once: an unknown key hides none', () => {
    const long = 'a'.repeat(41);
    const manifest = [
      'agents:',
      '  Research_Bot: {}',
      '  -lead: {}',
      `  ${long}: {}`,
      '  research:',
      '    image_url: x',
      '    source: ftp',
      '    integration-id: not-a-uuid',
      '    commit: abc',
      '    config: missing.json',
      '',
    ].join('\n');
    const found = problems({ agents: manifest });
    const inputs = found.map((line) => /^input '([^']*)'/.exec(line)?.[1]);
    expect(inputs).toEqual([
      'agents.Research_Bot',
      'agents["-lead"]',
      `agents.${long}`,
      'agents.research.image_url',
      'agents.research.source',
      'agents.research.config',
      'agents.research.integration-id',
      'agents.research.commit',
    ]);
  });

  it('takes __proto__ as a key like any other: a bad one, never dropped', () => {
    expect(
      problems({ agents: 'agents:\n  __proto__:\n    source: codehost\n  support: {}\n' }),
    ).toEqual([
      "input 'agents.__proto__': a key must be lower-case letters, digits and -, starting with a letter or a digit",
    ]);
    const json = '{"agents": {"__proto__": {}, "support": {}}}';
    expect(problems({ agents: json })[0]).toMatch(/^input 'agents.__proto__': a key must be/);
    expect(problems({ agents: 'agents:\n  support:\n    __proto__: {source: x}\n' })).toEqual([
      "input 'agents.support.__proto__': unknown key",
    ]);
    expect(problems({ agents: '{"__proto__": {}, "agents": {"support": {}}}' })).toEqual([
      "input 'agents': __proto__: unknown key (a manifest has one key, agents)",
    ]);
  });

  it('takes constructor and prototype as ordinary keys', () => {
    const asked = request({
      agents: 'agents:\n  constructor: {}\n  prototype:\n    name: proto\n',
    });
    expect(asked.agents.map(({ key, spec }) => [key, spec.name])).toEqual([
      ['constructor', 'constructor'],
      ['prototype', 'proto'],
    ]);
    expect(problems({ agents: 'agents:\n  support:\n    constructor: x\n' })).toEqual([
      "input 'agents.support.constructor': unknown key",
    ]);
  });

  it('rejects bad keys, no agents, too many agents, and a document that is no object', () => {
    const long = 'a'.repeat(41);
    expect(problems({ agents: `agents:\n  Research: {}\n  ${long}: {}\n  -x: {}\n` })).toEqual([
      "input 'agents.Research': a key must be lower-case letters, digits and -, starting with a letter or a digit",
      `input 'agents.${long}': a key must be at most 40 characters, this one has 41`,
      `input 'agents["-x"]': a key must be lower-case letters, digits and -, starting with a letter or a digit`,
    ]);
    expect(request({ agents: `agents:\n  ${'a'.repeat(40)}: {}\n` }).agents).toHaveLength(1);
    expect(problems({ agents: 'agents: {}' })).toEqual([
      "input 'agents': agents: the manifest holds no agent",
    ]);
    expect(problems({ agents: 'agents:' })).toEqual([
      "input 'agents': agents: the manifest holds no agent",
    ]);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`a${index}`, {}]));
    expect(problems({ agents: JSON.stringify({ agents: many }) })).toEqual([
      "input 'agents': agents: holds 51 agents; a manifest takes at most 50",
    ]);
    expect(problems({ agents: '[support]' })[0]).toMatch(
      /^input 'agents': must be a JSON or YAML object/,
    );
  });
});

describe("the step's name beside agents", () => {
  it('fills {agent} with each agent name: the template always applies', () => {
    const asked = request({ agents: TWO, name: '{agent}-pr-7' });
    expect(asked.nameTemplate).toBe('{agent}-pr-7');
    expect(asked.agents.map((agent) => agent.spec.name)).toEqual([
      'support-pr-7',
      'research-assistant-pr-7',
    ]);
  });

  it('rejects a name without {agent}, or with it twice, with the other bad inputs', () => {
    expect(problems({ agents: TWO, name: 'my-agent', source: 'nope' })).toEqual([
      "input 'name': does not hold {agent}: with agents it is empty (each deployment named by its agent's name) or holds {agent} exactly once, which each agent's name fills (like {agent}-pr-7)",
      "input 'source': must be one of codehost, external_docker, internal_docker, internal_source, internal_template, got 'nope'",
    ]);
    expect(problems({ agents: TWO, name: '{agent}-{agent}' })[0]).toMatch(
      /^input 'name': holds \{agent\} 2 times/,
    );
  });

  it('is still required without agents, reported with the other bad inputs at once', () => {
    expect(() =>
      readInputs(INPUTS, reader({ ...BASE, name: '', 'api-url': 'ftp://x' }), run),
    ).toThrow(
      "Invalid inputs:\n  - input 'api-url': must be an https:// URL, got 'ftp://x/'\n  - input 'name': is required (the deployment name)",
    );
  });
});

describe('an entry over the step', () => {
  it("parses each value as the step's input is, and wins over the step", () => {
    const manifest = [
      'agents:',
      '  docker:',
      '    source: external_docker',
      '    image-uri: registry.example.com/agent:2',
      `    commit: none`,
      '  other:',
      `    integration-id: ${OTHER_ID.toUpperCase()}`,
      '    repository: acme/other',
      `    commit: ${SHA.toUpperCase()}`,
      '    config: "{source_config: {build_on_push: true}}"',
      '    environment: production',
    ].join('\n');
    const [docker, other] = request({ agents: manifest, 'repo-ref': 'main' }).agents;
    expect(narrow(docker!.spec, 'external_docker').sourceRevisionConfig).toEqual({
      repo_ref: 'main',
      image_uri: 'registry.example.com/agent:2',
    });
    const codehost = narrow(other!.spec, 'codehost');
    expect(codehost.integrationId).toBe(OTHER_ID);
    expect(codehost.repository).toEqual({ owner: 'acme', name: 'other' });
    expect(codehost.commit).toEqual({ kind: 'sha', sha: SHA });
    expect(codehost.sourceConfig).toEqual({ build_on_push: true, integration_id: OTHER_ID });
    expect(other?.environment).toBe('production');
    expect(docker?.environment).toBeUndefined();
    expect(narrow(request({ agents: TWO }).agents[0]!.spec, 'codehost').integrationId).toBe(
      INTEGRATION_ID,
    );
  });

  it("gives each agent the step's secrets it lists: all by default, [] none", () => {
    const manifest = [
      'agents:',
      '  all: {}',
      '  some:',
      '    secrets: [TAVILY_API_KEY]',
      '  none:',
      '    secrets: []',
    ].join('\n');
    const secrets = `OPENAI_API_KEY=${SECRET}\nTAVILY_API_KEY=tavily-value`;
    const agents = request({ agents: manifest, secrets }).agents;
    expect(agents.map((agent) => agent.spec.secrets.map((secret) => secret.name))).toEqual([
      ['OPENAI_API_KEY', 'TAVILY_API_KEY'],
      ['TAVILY_API_KEY'],
      [],
    ]);
  });

  it("reports every problem of every agent at once, each by its path, never a secret's value", () => {
    const manifest = [
      'agents:',
      '  research:',
      '    config: deploy/research.yaml',
      '    secrets: [OPENAI_API_KEY, MISSING]',
      '  support:',
      '    commit: abc1234',
      '    integration-id: not-a-uuid',
      '  docker:',
      '    source: external_docker',
    ].join('\n');
    const lines = problems({ agents: manifest, secrets: `OPENAI_API_KEY=${SECRET}` });
    expect(lines).toEqual([
      expect.stringMatching(
        /^input 'agents.research.config': file 'deploy\/research.yaml' was not found in the workspace/,
      ),
      "input 'agents.research.secrets': 'MISSING' is not one of the step's secrets (the secrets input gives OPENAI_API_KEY)",
      "input 'agents.support.integration-id': must be a uuid (like 0f8fad5b-d9cb-469f-a165-70867728950e), got 'not-a-uuid'",
      "input 'agents.support.commit': must be a full 40-character commit sha, got the short sha 'abc1234'",
      "input 'agents.docker.image-uri': is required with source external_docker (or config.source_revision_config.image_uri)",
    ]);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('reports a clash of the headers once for the step, not once an agent', () => {
    const given = { agents: TWO, 'api-key': 'key', headers: 'X-Api-Key: other' };
    expect(problems(given)).toEqual([
      "input 'headers': header 'X-Api-Key' would replace the api-key header",
    ]);
  });
});

describe('agents that would clash', () => {
  it('rejects two agents with one deployment name', () => {
    const manifest =
      'agents:\n  support: {}\n  helper:\n    name: support\n  other:\n    name: support\n';
    expect(problems({ agents: manifest, name: '{agent}-pr-7' })).toEqual([
      "input 'agents': agents support, helper and other would have one deployment name, 'support-pr-7': give each its own name",
    ]);
  });

  it('rejects two entries that name one environment, but not one holding {agent}', () => {
    const manifest = [
      'agents:',
      '  support:',
      '    environment: production',
      '  research:',
      '    environment: production',
      '  docs:',
      '    environment: preview-{agent}',
      '  other:',
      '    environment: preview-{agent}',
    ].join('\n');
    expect(problems({ agents: manifest })).toEqual([
      "input 'agents': agents support and research name one environment, 'production': each would mark the other's deployment inactive",
    ]);
  });

  it("rejects an entry's environment holding {agent} twice, naming its path", () => {
    const manifest = 'agents:\n  support:\n    environment: preview-{agent}-{agent}\n';
    expect(problems({ agents: manifest })).toEqual([
      "input 'agents.support.environment': holds {agent} 2 times: an environment holds {agent} at most once, which each agent's name fills (like preview-{agent})",
    ]);
  });

  it("fills {agent} with a name as text: $&, $', $` and $1 are characters", () => {
    const manifest = [
      'agents:',
      '  one:',
      '    name: x$&y',
      '  two:',
      "    name: p$'q",
      '  three:',
      '    name: a$`b$1',
    ].join('\n');
    const asked = request({ agents: manifest, name: '{agent}-pr-7' });
    expect(asked.agents.map(({ spec }) => spec.name)).toEqual([
      'x$&y-pr-7',
      "p$'q-pr-7",
      'a$`b$1-pr-7',
    ]);
  });
});

describe("an agent's paths in its request", () => {
  const manifest = [
    'agents:',
    '  support:',
    '    agent-config-path: ./apps/support/langgraph.json',
    '    paths: [apps/support/**, libs/shared/**]',
    '  research:',
    '    config: ./deploy/paths-research.yaml',
    '    agent-config-path: apps/research/langgraph.json',
    "    paths: [apps/research/**, '!**/*.md']",
    '  docs:',
    '    agent-config-path: apps/docs/langgraph.json',
  ].join('\n');
  workspace.write('deploy/paths-agents.yaml', manifest);
  workspace.write('deploy/step.yaml', 'source_revision_config:\n  repo_ref: main\n');
  workspace.write('deploy/paths-research.yaml', 'source_revision_config:\n  repo_ref: release\n');

  const pathsOf = (given: Record<string, string>) =>
    Object.fromEntries(request(given).agents.map((agent) => [agent.key, agent.paths]));

  it("carries the patterns as written, and the files it always depends on from the workspace's root", () => {
    expect(pathsOf({ agents: './deploy/paths-agents.yaml', config: 'deploy/step.yaml' })).toEqual({
      support: {
        patterns: ['apps/support/**', 'libs/shared/**'],
        always: ['deploy/paths-agents.yaml', 'deploy/step.yaml', 'apps/support/langgraph.json'],
      },
      research: {
        patterns: ['apps/research/**', '!**/*.md'],
        always: [
          'deploy/paths-agents.yaml',
          'deploy/paths-research.yaml',
          'apps/research/langgraph.json',
        ],
      },
      // No paths: no decision to make, it is always deployed.
      docs: undefined,
    });
  });

  it('has no file for an inline manifest, inline config or an agent-config-path not set', () => {
    const inline = 'agents:\n  support:\n    paths: [apps/support/**]\n';
    expect(pathsOf({ agents: inline, config: 'source_revision_config: {repo_ref: main}' })).toEqual(
      { support: { patterns: ['apps/support/**'], always: [] } },
    );
  });

  it('reads the same paths, and the same problems, on a push and on a pull request', () => {
    const bad = "agents:\n  support:\n    paths: ['/apps/**']\n  docs:\n    commit: abc1234\n";
    const head = (pullRequest: boolean) => ({
      ...run,
      head: { kind: 'branch' as const, branch: 'main', sha: SHA, pullRequest },
    });
    const seen = [true, false].map((pullRequest) => {
      try {
        manifestRequest(
          readInputs(INPUTS, reader({ ...BASE, name: '', agents: bad }), head(pullRequest)),
          head(pullRequest),
        );
      } catch (error) {
        return (error as InputError).problems.map(({ input }) => input);
      }
      return [];
    });
    expect(seen).toEqual([
      ['agents.support.paths[0]', 'agents.docs.commit'],
      ['agents.support.paths[0]', 'agents.docs.commit'],
    ]);
  });
});
