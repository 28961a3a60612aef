/**
 * readPlan as a whole: every input read into one plan, the action.yml
 * defaults, `config` merged under the explicit inputs, what each source needs,
 * and every bad input reported at once. The parsers of single inputs have
 * test files of their own (parsers, headers, secrets, config, commit, and
 * github/event for the run's event).
 */
import { describe, expect, it } from 'vitest';
import { declarationsSchema, sensitiveNames } from '../../src/inputs/declare.ts';
import { INPUTS, INPUT_NAMES } from '../../src/inputs/core-inputs.ts';
import { InputError } from '../../src/inputs/errors.ts';
import { WORKFLOW_REPOSITORY } from '../support/action.ts';
import {
  API_KEY,
  INTEGRATION_ID,
  OTHER_ID,
  SECRET,
  narrow,
  planReader,
  readDeploySpec,
  temporaryWorkspace,
} from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('inputs-test-');
const { plan: spec, inputError, problems, rejects } = planReader({ workspace: workspace.root });

describe('a valid codehost plan', () => {
  it('reads every input into the plan', () => {
    const result = narrow(
      spec({
        'api-url': 'https://api.example.com/deploy/',
        'api-key': API_KEY,
        headers: 'X-Tenant-Id: tenant-value\nX-Trace: trace-value',
        'integration-id': INTEGRATION_ID.toUpperCase(),
        repository: 'Octo/Some.Repo_1',
        'repo-ref': 'release',
        'agent-config-path': 'agents/agent.json',
        'image-uri': 'registry.example.com/agent:1',
        secrets: `OPENAI_API_KEY=${SECRET}\nOTHER=other-value`,
        'wait-for-ready': 'true',
        'wait-timeout': '120',
        'dry-run': 'True',
      }),
      'codehost',
    );
    expect(result.apiUrl).toBe('https://api.example.com/deploy');
    expect(result.headers).toEqual({
      'X-Api-Key': API_KEY,
      'X-Tenant-Id': 'tenant-value',
      'X-Trace': 'trace-value',
    });
    expect(result.name).toBe('my-agent');
    expect(result.integrationId).toBe(INTEGRATION_ID);
    expect(result.sourceConfig).toEqual({ integration_id: INTEGRATION_ID });
    expect(result.repository).toEqual({ owner: 'Octo', name: 'Some.Repo_1' });
    expect(result.sourceRevisionConfig).toEqual({
      repo_ref: 'release',
      agent_config_path: 'agents/agent.json',
      image_uri: 'registry.example.com/agent:1',
    });
    expect(result.secrets).toEqual([
      { name: 'OPENAI_API_KEY', value: SECRET },
      { name: 'OTHER', value: 'other-value' },
    ]);
    expect(result.waitForReady).toBe(true);
    expect(result.waitTimeoutSeconds).toBe(120);
    expect(result.dryRun).toBe(true);
    expect(result.sensitiveValues).toEqual(
      expect.arrayContaining([API_KEY, 'tenant-value', 'trace-value', SECRET, 'other-value']),
    );
  });

  it('applies the action.yml defaults', () => {
    const result = narrow(spec({}), 'codehost');
    expect(result.apiUrl).toBe('https://api.example.com');
    const [owner, name] = WORKFLOW_REPOSITORY.split('/');
    expect(result.repository).toEqual({ owner, name });
    expect(result.headers).toEqual({});
    expect(result.secrets).toEqual([]);
    expect(result.sourceRevisionConfig).toEqual({});
    expect(result.waitForReady).toBe(false);
    expect(result.waitTimeoutSeconds).toBe(900);
    expect(result.dryRun).toBe(false);
    expect(result.onDrift).toBe('warn');
    expect(result.commit).toEqual({ kind: 'none', reason: "the run's event is not known" });
  });

  it('applies the defaults declared in the code to inputs not given at all (no runner)', () => {
    const given: Record<string, string> = {
      'api-url': 'https://api.example.com',
      name: 'my-agent',
      'integration-id': INTEGRATION_ID,
    };
    const run = { workspace: workspace.root, repository: WORKFLOW_REPOSITORY };
    // undefined is "not given": what a reader without action.yml's defaults says.
    expect(readDeploySpec((name) => given[name], run)).toEqual(spec({}, run));
  });

  it('sends the api key under api-key-header', () => {
    const result = spec({ 'api-key': API_KEY, 'api-key-header': 'Authorization-Token' });
    expect(result.headers).toEqual({ 'Authorization-Token': API_KEY });
  });

  it('sends no api key header without an api key', () => {
    expect(spec({ headers: 'X-Api-Key: from-headers' }).headers).toEqual({
      'X-Api-Key': 'from-headers',
    });
  });

  it('takes the integration id from the config when the input is not given', () => {
    const result = narrow(
      spec({
        'integration-id': '',
        config: JSON.stringify({ source_config: { integration_id: OTHER_ID } }),
      }),
      'codehost',
    );
    expect(result.integrationId).toBe(OTHER_ID);
    expect(result.sourceConfig.integration_id).toBe(OTHER_ID);
  });

  it('lets explicit inputs win over the same field in config', () => {
    const config = {
      source_config: { integration_id: OTHER_ID, build_on_push: true },
      source_revision_config: {
        repo_ref: 'config-ref',
        agent_config_path: 'config.json',
        image_uri: 'config-image',
      },
    };
    const result = narrow(
      spec({
        config: JSON.stringify(config),
        'repo-ref': 'input-ref',
        'agent-config-path': 'input.json',
        'image-uri': 'input-image',
      }),
      'codehost',
    );
    expect(result.integrationId).toBe(INTEGRATION_ID);
    expect(result.sourceConfig).toEqual({ integration_id: INTEGRATION_ID, build_on_push: true });
    expect(result.sourceRevisionConfig).toEqual({
      repo_ref: 'input-ref',
      agent_config_path: 'input.json',
      image_uri: 'input-image',
    });
  });

  it('keeps config fields that no input overrides', () => {
    const result = spec({
      config: 'source_revision_config:\n  repo_ref: config-ref\n  agent_config_path: a.json',
      'agent-config-path': 'b.json',
    });
    expect(result.sourceRevisionConfig).toEqual({
      repo_ref: 'config-ref',
      agent_config_path: 'b.json',
    });
  });
});

describe('source', () => {
  it('external_docker needs image_uri', () => {
    rejects({ source: 'external_docker' }, 'image-uri', /required with source external_docker/);
  });

  it('external_docker takes image_uri from the input or the config', () => {
    const fromInput = narrow(
      spec({ source: 'external_docker', 'image-uri': 'img:1' }),
      'external_docker',
    );
    expect(fromInput.sourceRevisionConfig).toEqual({ image_uri: 'img:1' });
    expect(fromInput.secretReferences).toBeNull();
    const fromConfig = spec({
      source: 'external_docker',
      config: '{"source_revision_config": {"image_uri": "img:2"}}',
    });
    expect(fromConfig.sourceRevisionConfig).toEqual({ image_uri: 'img:2' });
  });

  it('external_docker carries secret_references', () => {
    const references = [{ name: 'DB_PASSWORD', secret_name: 'db', secret_key: 'password' }];
    const result = narrow(
      spec({
        source: 'external_docker',
        'image-uri': 'img:1',
        config: JSON.stringify({ secret_references: references }),
      }),
      'external_docker',
    );
    expect(result.secretReferences).toEqual(references);
  });

  it('internal_docker needs image_uri', () => {
    rejects({ source: 'internal_docker' }, 'image-uri', /required with source internal_docker/);
    expect(spec({ source: 'internal_docker', 'image-uri': 'img:1' }).source).toBe(
      'internal_docker',
    );
  });

  it('internal_source needs source_tarball_path', () => {
    rejects({ source: 'internal_source' }, 'config', /source_tarball_path/);
    const result = spec({
      source: 'internal_source',
      config: 'source_revision_config: { source_tarball_path: uploads/agent.tgz }',
    });
    expect(result.source).toBe('internal_source');
    expect(result.sourceRevisionConfig).toEqual({ source_tarball_path: 'uploads/agent.tgz' });
  });

  it('internal_template needs nothing', () => {
    const result = spec({ source: 'internal_template', 'integration-id': '' });
    expect(result.source).toBe('internal_template');
    expect(result).not.toHaveProperty('repository');
    expect(result).not.toHaveProperty('integrationId');
  });

  it.each(['codehost', 'internal_docker', 'internal_source', 'internal_template'])(
    'secret_references are rejected with %s',
    (source) => {
      const error = inputError({
        source,
        'image-uri': 'img:1',
        config: JSON.stringify({
          source_revision_config: { source_tarball_path: 'a.tgz' },
          secret_references: [{ name: 'A', secret_name: 'b', secret_key: 'c' }],
        }),
      });
      expect(error.problems).toEqual([
        {
          input: 'config',
          problem: `secret_references applies only to source external_docker, not ${source}`,
        },
      ]);
    },
  );

  it('an unknown source is rejected and the valid ones are listed', () => {
    const message = rejects(
      { source: 'github' },
      'source',
      /must be one of codehost, external_docker/,
    );
    expect(message).toContain("'github'");
  });

  it('is case-sensitive', () => {
    rejects({ source: 'Codehost' }, 'source');
  });
});

describe('several bad inputs', () => {
  it('are all reported in one InputError, each naming its input', () => {
    const given = {
      'api-url': 'http://api.example.com',
      name: '',
      source: 'nope',
      config: '{"bogus": 1}',
      'integration-id': 'not-a-uuid',
      repository: 'no-slash',
      secrets: `no-equals-${SECRET}`,
      headers: 'no colon',
      'wait-for-ready': 'yes',
      'wait-timeout': '0',
      commit: 'abc1234',
      'on-drift': 'ignore',
      'dry-run': '1',
    };
    expect(() => spec(given)).toThrow(InputError);
    const error = inputError(given);
    const inputs = Object.keys(given);
    expect(error.problems.map((problem) => problem.input).sort()).toEqual([...inputs].sort());
    expect(error.message).toMatch(/^Invalid inputs:\n/);
    for (const input of inputs) expect(error.message).toContain(`  - input '${input}': `);
    expect(error.message).not.toContain(SECRET);
  });

  it('a single bad input reads as one sentence', () => {
    expect(() => spec({ 'wait-timeout': 'abc' })).toThrow(
      "Invalid input 'wait-timeout': must be a positive number of seconds, got 'abc'",
    );
  });

  it('source-dependent problems are reported together', () => {
    expect(
      problems({
        source: 'external_docker',
        'api-key': API_KEY,
        headers: 'X-Api-Key: x',
      }),
    ).toEqual([
      "input 'headers': header 'X-Api-Key' would replace the api-key header",
      "input 'image-uri': is required with source external_docker (or config.source_revision_config.image_uri)",
    ]);
    expect(problems({ 'integration-id': '', repository: '' })).toEqual([
      "input 'integration-id': is required with source codehost (or config.source_config.integration_id)",
      "input 'repository': is required with source codehost (owner/name)",
    ]);
  });
});

describe('the declared inputs', () => {
  it('are the keys of the schema that parses them, in the same order', () => {
    expect(Object.keys(declarationsSchema(INPUTS, { workspace: workspace.root }).shape)).toEqual([
      ...INPUT_NAMES,
    ]);
  });

  it('mark the inputs whose raw text is masked before it is parsed', () => {
    expect(sensitiveNames(INPUTS)).toEqual([
      'api-key',
      'headers',
      'secrets',
      'health-check-headers',
    ]);
  });
});
