import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.ts';
import { MAX_WAIT_TIMEOUT_SECONDS, readPlan, type Plan } from '../src/inputs.ts';
import { WORKFLOW_REPOSITORY, reader } from './support/action.ts';

const WORKSPACE = mkdtempSync(path.join(tmpdir(), 'inputs-test-'));
afterAll(() => rmSync(WORKSPACE, { recursive: true, force: true }));

function writeWorkspaceFile(name: string, text: string): string {
  const file = path.join(WORKSPACE, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return name;
}

const INTEGRATION_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OTHER_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const SECRET = 'hunter2-s3cr3t';
const API_KEY = 'k3y-hunter2-s3cr3t';

/** The least a codehost step needs; each test adds or overrides inputs. */
const BASE: Record<string, string> = {
  'api-url': 'https://api.example.com',
  name: 'my-agent',
  'integration-id': INTEGRATION_ID,
};

function plan(given: Record<string, string>): Plan {
  return readPlan(reader({ ...BASE, ...given }), { workspace: WORKSPACE });
}

/** The InputError that the given inputs raise (fails the test if none is thrown). */
function inputError(given: Record<string, string>): InputError {
  try {
    plan(given);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error(`expected an InputError for ${JSON.stringify(given)}`);
}

/** `input 'name': problem` lines, as the message shows them. */
function problems(given: Record<string, string>): string[] {
  return inputError(given).problems.map(({ input, problem }) => `input '${input}': ${problem}`);
}

/** Asserts exactly one problem, on `input`, and returns the whole message. */
function rejects(given: Record<string, string>, input: string, pattern?: RegExp): string {
  expect(() => plan(given)).toThrow(InputError);
  const error = inputError(given);
  expect(error.problems.map((problem) => problem.input)).toEqual([input]);
  expect(error.message).toContain(`input '${input}'`);
  if (pattern !== undefined) expect(error.message).toMatch(pattern);
  return error.message;
}

function narrow<S extends Plan['source']>(value: Plan, source: S): Extract<Plan, { source: S }> {
  expect(value.source).toBe(source);
  return value as Extract<Plan, { source: S }>;
}

describe('a valid codehost plan', () => {
  it('reads every input into the plan', () => {
    const result = narrow(
      plan({
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
    const result = narrow(plan({}), 'codehost');
    expect(result.apiUrl).toBe('https://api.example.com');
    const [owner, name] = WORKFLOW_REPOSITORY.split('/');
    expect(result.repository).toEqual({ owner, name });
    expect(result.headers).toEqual({});
    expect(result.secrets).toEqual([]);
    expect(result.sourceRevisionConfig).toEqual({});
    expect(result.waitForReady).toBe(false);
    expect(result.waitTimeoutSeconds).toBe(900);
    expect(result.dryRun).toBe(false);
  });

  it('sends the api key under api-key-header', () => {
    const result = plan({ 'api-key': API_KEY, 'api-key-header': 'Authorization-Token' });
    expect(result.headers).toEqual({ 'Authorization-Token': API_KEY });
  });

  it('sends no api key header without an api key', () => {
    expect(plan({ headers: 'X-Api-Key: from-headers' }).headers).toEqual({
      'X-Api-Key': 'from-headers',
    });
  });

  it('takes the integration id from the config when the input is not given', () => {
    const result = narrow(
      plan({
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
      plan({
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
    const result = plan({
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
      plan({ source: 'external_docker', 'image-uri': 'img:1' }),
      'external_docker',
    );
    expect(fromInput.sourceRevisionConfig).toEqual({ image_uri: 'img:1' });
    expect(fromInput.secretReferences).toBeNull();
    const fromConfig = plan({
      source: 'external_docker',
      config: '{"source_revision_config": {"image_uri": "img:2"}}',
    });
    expect(fromConfig.sourceRevisionConfig).toEqual({ image_uri: 'img:2' });
  });

  it('external_docker carries secret_references', () => {
    const references = [{ name: 'DB_PASSWORD', secret_name: 'db', secret_key: 'password' }];
    const result = narrow(
      plan({
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
    expect(plan({ source: 'internal_docker', 'image-uri': 'img:1' }).source).toBe(
      'internal_docker',
    );
  });

  it('internal_source needs source_tarball_path', () => {
    rejects({ source: 'internal_source' }, 'config', /source_tarball_path/);
    const result = plan({
      source: 'internal_source',
      config: 'source_revision_config: { source_tarball_path: uploads/agent.tgz }',
    });
    expect(result.source).toBe('internal_source');
    expect(result.sourceRevisionConfig).toEqual({ source_tarball_path: 'uploads/agent.tgz' });
  });

  it('internal_template needs nothing', () => {
    const result = plan({ source: 'internal_template', 'integration-id': '' });
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

describe('config', () => {
  const expected = {
    source_config: { build_on_push: true },
    source_revision_config: { repo_ref: 'main' },
  };
  const json = JSON.stringify(expected);
  const yaml = 'source_config:\n  build_on_push: true\nsource_revision_config:\n  repo_ref: main\n';

  it('is empty by default', () => {
    expect(plan({}).sourceRevisionConfig).toEqual({});
  });

  it('rejects a YAML anchor that refers to itself, which could not be sent as JSON', () => {
    rejects(
      {
        config: 'source_config: {resource_spec: {volumes: [{name: v, configMap: &a {x: *a}}]}}',
      },
      'config',
      /cannot be sent as JSON/,
    );
  });

  it('accepts inline JSON', () => {
    const result = plan({ config: json });
    expect(result.sourceConfig).toEqual({
      ...expected.source_config,
      integration_id: INTEGRATION_ID,
    });
    expect(result.sourceRevisionConfig).toEqual(expected.source_revision_config);
  });

  it('accepts inline YAML', () => {
    const result = plan({ config: yaml });
    expect(result.sourceConfig).toEqual({
      ...expected.source_config,
      integration_id: INTEGRATION_ID,
    });
    expect(result.sourceRevisionConfig).toEqual(expected.source_revision_config);
  });

  it.each([
    ['deploy/config.json', json],
    ['deploy/config.yaml', yaml],
    ['config.yml', yaml],
    ['CONFIG.YML', yaml],
  ])('reads the workspace file %s', (name, text) => {
    writeWorkspaceFile(name, text);
    const result = plan({ config: name });
    expect(result.sourceConfig).toEqual({
      ...expected.source_config,
      integration_id: INTEGRATION_ID,
    });
    expect(result.sourceRevisionConfig).toEqual(expected.source_revision_config);
  });

  it('reads a file path given with ./', () => {
    writeWorkspaceFile('dot.json', json);
    expect(plan({ config: './dot.json' }).sourceRevisionConfig).toEqual({ repo_ref: 'main' });
  });

  it('reads a file whose name starts with two dots (inside the workspace)', () => {
    writeWorkspaceFile('..dotted.json', json);
    expect(plan({ config: '..dotted.json' }).sourceRevisionConfig).toEqual({ repo_ref: 'main' });
  });

  it('rejects a missing file', () => {
    rejects({ config: 'missing.json' }, 'config', /file 'missing\.json' was not found/);
  });

  it('rejects a directory named like a file', () => {
    mkdirSync(path.join(WORKSPACE, 'dir.yaml'), { recursive: true });
    rejects({ config: 'dir.yaml' }, 'config', /not found/);
  });

  it.each(['../x.json', 'deploy/../../x.yaml', path.join(tmpdir(), 'elsewhere.yml')])(
    'rejects %s outside the workspace',
    (name) => {
      rejects({ config: name }, 'config', /outside the workspace/);
    },
  );

  it('rejects unparsable JSON in a file', () => {
    writeWorkspaceFile('broken.json', '{"source_config": ');
    rejects({ config: 'broken.json' }, 'config', /is not valid JSON/);
  });

  it('rejects unparsable YAML in a file', () => {
    writeWorkspaceFile('broken.yaml', 'source_config: [unclosed\n');
    rejects({ config: 'broken.yaml' }, 'config', /is not valid YAML/);
  });

  it.each(['{"source_config": {', 'source_config: [unclosed', 'a: b: c'])(
    'rejects unparsable inline text %j',
    (text) => {
      rejects({ config: text }, 'config', /is not valid YAML/);
    },
  );

  it.each([
    ['a list', '- source_config\n- x'],
    ['a JSON list', '[1, 2]'],
    ['a scalar', 'hello'],
    ['a number', '42'],
    ['null', 'null'],
  ])('rejects %s', (_, text) => {
    rejects({ config: text }, 'config', /must be a JSON or YAML object/);
  });

  it('rejects a list in a file', () => {
    writeWorkspaceFile('list.json', '[{"source_config": {}}]');
    rejects({ config: 'list.json' }, 'config', /must be a JSON or YAML object/);
  });

  it('rejects duplicate YAML keys', () => {
    rejects(
      { config: 'source_config:\n  build_on_push: true\n  build_on_push: false\n' },
      'config',
      /not valid YAML.*unique/i,
    );
    writeWorkspaceFile('dup.yml', 'source_config: {}\nsource_config: {}\n');
    rejects({ config: 'dup.yml' }, 'config', /not valid YAML/);
  });

  it('rejects an unknown top-level key, naming it', () => {
    rejects({ config: '{"source_confg": {}}' }, 'config', /source_confg: unknown key/);
  });

  it('rejects an unknown nested key, naming its dotted path', () => {
    rejects(
      { config: 'source_config:\n  resource_spec:\n    min_scal: 1\n' },
      'config',
      /source_config\.resource_spec\.min_scal: unknown key/,
    );
  });

  it('rejects an unknown key inside a list item, naming its path', () => {
    const config = {
      source_config: { resource_spec: { sidecars: [{ name: 'a', image: 'b', imag: 'c' }] } },
    };
    rejects(
      { config: JSON.stringify(config) },
      'config',
      /source_config\.resource_spec\.sidecars\[0\]\.imag: unknown key/,
    );
  });

  it('reports every unknown key', () => {
    const message = rejects(
      { config: '{"source_revision_config": {"repo_reff": "x", "image": "y"}, "extra": 1}' },
      'config',
    );
    expect(message).toContain('source_revision_config.repo_reff: unknown key');
    expect(message).toContain('source_revision_config.image: unknown key');
    expect(message).toContain('extra: unknown key');
  });

  it('rejects a mistyped field, naming its path', () => {
    rejects(
      { config: '{"source_config": {"resource_spec": {"min_scale": "one"}}}' },
      'config',
      /source_config\.resource_spec\.min_scale: .*expected number/,
    );
  });

  it('rejects a non-uuid integration_id in the config', () => {
    rejects(
      { 'integration-id': '', config: '{"source_config": {"integration_id": "nope"}}' },
      'config',
      /source_config\.integration_id: Invalid UUID/,
    );
  });

  it('accepts anything in free-form maps', () => {
    const resourceSpec = {
      labels: { 'app.kubernetes.io/name': 'agent', anything_goes: 'yes' },
      annotations: { 'example.com/whatever': 'x' },
      sidecars: [
        {
          name: 'proxy',
          image: 'envoy',
          securityContext: { runAsUser: 1000, capabilities: { drop: ['ALL'] } },
          env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
        },
      ],
      volumes: [{ name: 'v', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } }],
    };
    const result = plan({
      config: JSON.stringify({ source_config: { resource_spec: resourceSpec } }),
    });
    expect(result.sourceConfig.resource_spec).toEqual(resourceSpec);
  });

  it('accepts null for optional sections', () => {
    const result = plan({ config: 'source_config: null\nsource_revision_config: ~\n' });
    expect(result.sourceRevisionConfig).toEqual({});
  });
});

describe('integration-id and repository', () => {
  it.each([
    'not-a-uuid',
    '0f8fad5b-d9cb-469f-a165-70867728950',
    '{0f8fad5b-d9cb-469f-a165-70867728950e}',
  ])('rejects the non-uuid %j', (id) => {
    rejects({ 'integration-id': id }, 'integration-id', /must be a uuid/);
  });

  it('rejects a non-uuid integration-id with any source', () => {
    rejects({ source: 'internal_template', 'integration-id': 'nope' }, 'integration-id');
  });

  it('requires an integration id for codehost (neither input nor config)', () => {
    rejects({ 'integration-id': '' }, 'integration-id', /required with source codehost/);
    rejects({ 'integration-id': '', config: '{"source_config": {}}' }, 'integration-id');
  });

  it.each([
    'acme',
    'acme/agent/extra',
    '/agent',
    'acme/',
    'ac me/agent',
    'https://github.com/acme/agent',
  ])('rejects the malformed repository %j', (repository) => {
    rejects({ repository }, 'repository', /must be owner\/name/);
  });

  it('requires a repository for codehost', () => {
    rejects({ repository: '' }, 'repository', /required with source codehost/);
  });
});

describe('secrets', () => {
  function secrets(text: string) {
    return plan({ secrets: text }).secrets;
  }

  /** Rejects `text` as the secrets input, with a message that shows no secret value. */
  function rejectsSecrets(text: string, pattern: RegExp, ...values: string[]): void {
    const message = rejects({ secrets: text }, 'secrets', pattern);
    for (const value of [SECRET, ...values]) expect(message).not.toContain(value);
  }

  it('reads NAME=value lines, splitting at the first =', () => {
    expect(secrets(`A=${SECRET}\nB=x=y==\nC = spaced `)).toEqual([
      { name: 'A', value: SECRET },
      { name: 'B', value: 'x=y==' },
      { name: 'C', value: 'spaced' },
    ]);
  });

  it('ignores blank lines and # comments', () => {
    expect(secrets(`# the model key\n\nA=${SECRET}\n   \n  # indented comment\nB=two\n`)).toEqual([
      { name: 'A', value: SECRET },
      { name: 'B', value: 'two' },
    ]);
  });

  it('reads CRLF lines', () => {
    expect(secrets(`A=${SECRET}\r\nB=two\r\n`)).toEqual([
      { name: 'A', value: SECRET },
      { name: 'B', value: 'two' },
    ]);
  });

  it('reads a JSON object', () => {
    expect(secrets(JSON.stringify({ A: SECRET, B: 'a=b\nc' }))).toEqual([
      { name: 'A', value: SECRET },
      { name: 'B', value: 'a=b\nc' },
    ]);
  });

  it('puts every value in sensitiveValues', () => {
    expect(plan({ secrets: `A=${SECRET}\nB=two` }).sensitiveValues).toEqual(
      expect.arrayContaining([SECRET, 'two']),
    );
  });

  it('rejects a line without =, naming the line', () => {
    rejectsSecrets(`A=one\n${SECRET}`, /line 2 is not NAME=value/);
  });

  it.each(['1ABC', 'MY-KEY', 'MY KEY', 'A.B', ''])('rejects the invalid name %j', (name) => {
    rejectsSecrets(`${name}=${SECRET}`, /valid secret name/);
  });

  it('rejects a duplicate name', () => {
    rejectsSecrets(
      `A=${SECRET}\n# comment\nA=other-s3cr3t`,
      /line 3 repeats the secret name of line 1/,
      'other-s3cr3t',
    );
    rejectsSecrets(` A =${SECRET}\nA=other-s3cr3t`, /line 2 repeats the secret name of line 1/);
  });

  it('rejects an empty value', () => {
    rejectsSecrets(`A=${SECRET}\n\nB=\nC=three`, /line 3 has an empty value/);
    rejectsSecrets(`{"B": ""}`, /secret B has an empty value/);
  });

  it.each([
    ['a number', `{"A": 12345}`, '12345'],
    ['an object', `{"A": {"v": "${SECRET}"}}`, SECRET],
    ['null', `{"A": null}`, 'null'],
    ['a list', `{"A": ["${SECRET}"]}`, SECRET],
  ])('rejects %s as a JSON value', (_, text, value) => {
    rejectsSecrets(text, /secret A must have a string value/, value);
  });

  it('rejects an invalid JSON key without echoing it', () => {
    rejectsSecrets(`{"A": "x", "${SECRET}": "B"}`, /key 2 does not start with a valid secret name/);
  });

  it('names the line of an invalid name, counting blank lines and comments', () => {
    rejectsSecrets(
      `# comment\n\nA=x\nB-C=${SECRET}`,
      /line 4 does not start with a valid secret name/,
    );
  });

  it('rejects invalid JSON', () => {
    rejectsSecrets(`{"A": "${SECRET}",}`, /not valid JSON/);
    rejectsSecrets(`{"A": "${SECRET}`, /not valid JSON/);
  });

  it('rejects a multi-line PEM-like value pasted by mistake, without showing it', () => {
    const body = [
      'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
      'hunter2s3cr3tZm9vYmFy==',
    ];
    const pem = [`TLS_KEY=-----BEGIN PRIVATE KEY-----`, ...body, '-----END PRIVATE KEY-----'].join(
      '\n',
    );
    rejectsSecrets(pem, /line 2 is not NAME=value/, ...body, 'BEGIN PRIVATE KEY', 'hunter2s3cr3t');
  });

  it('does not show a pasted value whose lines all contain =', () => {
    const lines = ['OPENAI_API_KEY=sk-hunter2-s3cr3t', 'hunter2s3cr3tQUJD=', 'more=stuff'];
    rejectsSecrets(lines.join('\n'), /line 2 has an empty value/, 'hunter2s3cr3tQUJD', 'stuff');
  });

  it('does not show a JSON value with a line break in it', () => {
    rejectsSecrets(`{"A": "-----BEGIN KEY-----\n${SECRET}\n-----END KEY-----"}`, /not valid JSON/);
  });
});

describe('api-key', () => {
  it.each([
    ['a NUL', `${API_KEY}\u0000`],
    ['a carriage return', `${API_KEY}\rmore`],
    ['a character beyond Latin-1', `${API_KEY}…`],
  ])('rejects a key with %s, without echoing it', (_what, key) => {
    const message = rejects({ 'api-key': key }, 'api-key', /cannot be sent in an HTTP header/);

    expect(message).not.toContain(API_KEY);
  });
});

describe('headers', () => {
  const VALUE = 'header-hunter2-s3cr3t';

  function rejectsHeaders(given: Record<string, string>, pattern: RegExp): void {
    const message = rejects(given, 'headers', pattern);
    expect(message).not.toContain(VALUE);
    expect(message).not.toContain(API_KEY);
  }

  it('reads Name: value lines', () => {
    const result = plan({
      headers: `X-Tenant-Id: ${VALUE}\r\n\n# a comment\nX-Url:  https://example.com:8443/x  `,
    });
    expect(result.headers).toEqual({ 'X-Tenant-Id': VALUE, 'X-Url': 'https://example.com:8443/x' });
    expect(result.sensitiveValues).toEqual(
      expect.arrayContaining([VALUE, 'https://example.com:8443/x']),
    );
  });

  it('rejects a line without a colon', () => {
    rejectsHeaders({ headers: `X-Tenant-Id ${VALUE}` }, /line 1 is not 'Name: value'/);
  });

  it.each([
    ['a NUL', `${VALUE}\u0000x`],
    ['a lone carriage return', `${VALUE}\rx`],
    ['a character beyond Latin-1', `${VALUE}€`],
  ])('rejects a value with %s, which fetch could not send', (_what, value) => {
    rejectsHeaders({ headers: `X-Tenant-Id: ${value}` }, /value on line 1 cannot be sent/);
  });

  it('rejects a header named __proto__, which fetch would silently drop', () => {
    rejectsHeaders(
      { headers: `__proto__: ${VALUE}` },
      /line 1 is not 'Name: value' with a valid header name/,
    );
    rejects(
      { 'api-key-header': '__proto__', 'api-key': API_KEY },
      'api-key-header',
      /not a valid header name/,
    );
  });

  it.each(['X Tenant', 'X-Tenant(1)', 'Ünicode', ''])('rejects the header name %j', (name) => {
    rejectsHeaders(
      { headers: `A: b\n${name}: ${VALUE}` },
      /line 2 is not 'Name: value' with a valid header name/,
    );
  });

  it('rejects an empty value', () => {
    rejectsHeaders({ headers: 'X-Tenant-Id:   ' }, /line 1 has an empty value/);
  });

  it('rejects a duplicate, whatever its case', () => {
    rejectsHeaders(
      { headers: `X-Tenant: ${VALUE}\nx-tenant: other` },
      /line 2 repeats the header of line 1/,
    );
  });

  it.each(['Content-Type', 'content-length', 'Host', 'ACCEPT'])(
    'rejects the reserved header %s',
    (name) => {
      rejectsHeaders(
        { headers: `${name}: ${VALUE}` },
        /line 1 sets a header the action sets itself/,
      );
    },
  );

  it('rejects a header that clashes with api-key-header when api-key is set', () => {
    rejectsHeaders(
      { 'api-key': API_KEY, headers: `x-api-key: ${VALUE}` },
      /header 'x-api-key' would replace the api-key header/,
    );
    rejectsHeaders(
      { 'api-key': API_KEY, 'api-key-header': 'Authorization', headers: `AUTHORIZATION: ${VALUE}` },
      /would replace the api-key header/,
    );
  });

  it('rejects an invalid api-key-header', () => {
    rejects({ 'api-key-header': 'X Api Key' }, 'api-key-header', /not a valid header name/);
    rejects({ 'api-key-header': '' }, 'api-key-header', /not a valid header name/);
  });
});

describe('api-url', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://api.example.com/prefix/v0//', 'https://api.example.com/prefix/v0'],
    ['HTTPS://API.Example.com:8443/x', 'https://api.example.com:8443/x'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://127.0.0.1:3000/api/', 'http://127.0.0.1:3000/api'],
    ['http://127.10.20.30', 'http://127.10.20.30'],
    ['http://[::1]:9000', 'http://[::1]:9000'],
  ])('accepts %s', (url, expected) => {
    expect(plan({ 'api-url': url }).apiUrl).toBe(expected);
  });

  it.each([
    'http://api.example.com',
    'http://128.0.0.1',
    'http://10.0.0.1',
    'http://localhost.example.com',
    'http://127.0.0.1.example.com',
    'http://[::2]',
  ])('rejects http to the non-loopback %s', (url) => {
    rejects({ 'api-url': url }, 'api-url', /must use https:\/\//);
  });

  it.each(['api.example.com', 'not a url', '://x', 'https://'])('rejects %j, not a URL', (url) => {
    rejects({ 'api-url': url }, 'api-url', /is not a valid URL/);
  });

  it.each(['ftp://api.example.com', 'file:///etc/passwd'])('rejects the scheme of %s', (url) => {
    rejects({ 'api-url': url }, 'api-url', /must be an https:\/\/ URL/);
  });

  it.each([
    `https://user:${SECRET}@api.example.com`,
    `https://${SECRET}@api.example.com`,
    `http://user:${SECRET}@api.example.com`,
    `http://user:${SECRET}@localhost`,
  ])('rejects credentials in %s without echoing them', (url) => {
    const message = rejects({ 'api-url': url }, 'api-url', /must not contain credentials/);
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain('user');
  });

  it.each(['https://api.example.com/v1?tenant=a', 'https://api.example.com/v1#top'])(
    'rejects the query or fragment of %s',
    (url) => {
      rejects(
        { 'api-url': url },
        'api-url',
        /must not have a query or fragment: give the base address only, like 'https:\/\/api\.example\.com\/v1'/,
      );
    },
  );

  it('ignores an empty query', () => {
    expect(plan({ 'api-url': 'https://api.example.com?' }).apiUrl).toBe('https://api.example.com');
  });

  it.each([
    `https://api.example.com/?api_key=${API_KEY}`,
    `https://api.example.com/#${API_KEY}`,
    `http://api.example.com/?api_key=${API_KEY}`,
    `ftp://api.example.com/?api_key=${API_KEY}`,
  ])('does not echo a key put in the query or fragment of %s', (url) => {
    const message = rejects({ 'api-url': url, 'api-key': API_KEY }, 'api-url');
    expect(message).not.toContain(API_KEY);
  });

  it('is required', () => {
    rejects({ 'api-url': '' }, 'api-url', /is required/);
  });
});

describe('wait-timeout', () => {
  it.each([
    ['1', 1],
    ['2.5', 2.5],
    ['900', 900],
    [String(MAX_WAIT_TIMEOUT_SECONDS), MAX_WAIT_TIMEOUT_SECONDS],
  ])('accepts %s', (raw, seconds) => {
    expect(plan({ 'wait-timeout': raw }).waitTimeoutSeconds).toBe(seconds);
  });

  it.each(['0', '0.0', '-1', 'abc', '1e3', '', '0x10', '1.', '.5', 'Infinity', '10s', '1 000'])(
    'rejects %j',
    (raw) => {
      rejects({ 'wait-timeout': raw }, 'wait-timeout', /must be a positive number of seconds/);
    },
  );

  it('rejects a timeout longer than a job may run', () => {
    rejects(
      { 'wait-timeout': String(MAX_WAIT_TIMEOUT_SECONDS + 1) },
      'wait-timeout',
      /must be at most/,
    );
    rejects({ 'wait-timeout': '99999999999999999999' }, 'wait-timeout', /must be at most/);
  });
});

describe('booleans', () => {
  it.each([
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['false', false],
    ['False', false],
    ['FALSE', false],
  ])('accept %s', (raw, value) => {
    const result = plan({ 'wait-for-ready': raw, 'dry-run': raw });
    expect(result.waitForReady).toBe(value);
    expect(result.dryRun).toBe(value);
  });

  it.each(['yes', 'no', '1', '0', 'on', 'tRUE', ''])('reject %j', (raw) => {
    rejects({ 'wait-for-ready': raw }, 'wait-for-ready', /must be true or false/);
    rejects({ 'dry-run': raw }, 'dry-run', /must be true or false/);
  });
});

describe('name', () => {
  it('is required', () => {
    rejects({ name: '' }, 'name', /is required/);
    rejects({ name: '   ' }, 'name', /is required/);
  });

  it.each(['my\nagent', 'my\r\nagent', 'my\tagent', 'my\u0000agent'])(
    'rejects control characters in %j',
    (name) => {
      rejects({ name }, 'name', /must not contain control characters or line breaks/);
    },
  );

  it('keeps any other name as it is', () => {
    expect(plan({ name: 'My Agent (staging) ü' }).name).toBe('My Agent (staging) ü');
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
      'dry-run': '1',
    };
    expect(() => plan(given)).toThrow(InputError);
    const error = inputError(given);
    const inputs = Object.keys(given);
    expect(error.problems.map((problem) => problem.input).sort()).toEqual([...inputs].sort());
    expect(error.message).toMatch(/^Invalid inputs:\n/);
    for (const input of inputs) expect(error.message).toContain(`  - input '${input}': `);
    expect(error.message).not.toContain(SECRET);
  });

  it('a single bad input reads as one sentence', () => {
    expect(() => plan({ 'wait-timeout': 'abc' })).toThrow(
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
