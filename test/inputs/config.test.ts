/**
 * The `config` input (src/inputs/config.ts): inline JSON or YAML, or a file in
 * the workspace; unknown and repeated keys are errors that name their path.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INTEGRATION_ID, planReader, temporaryWorkspace } from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('config-input-test-');
const WORKSPACE = workspace.root;
const writeWorkspaceFile = workspace.write;
const { plan: spec, rejects } = planReader({ workspace: WORKSPACE });

describe('config', () => {
  const expected = {
    source_config: { build_on_push: true },
    source_revision_config: { repo_ref: 'main' },
  };
  const json = JSON.stringify(expected);
  const yaml = 'source_config:\n  build_on_push: true\nsource_revision_config:\n  repo_ref: main\n';

  it('is empty by default', () => {
    expect(spec({}).sourceRevisionConfig).toEqual({});
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
    const result = spec({ config: json });
    expect(result.sourceConfig).toEqual({
      ...expected.source_config,
      integration_id: INTEGRATION_ID,
    });
    expect(result.sourceRevisionConfig).toEqual(expected.source_revision_config);
  });

  it('accepts inline YAML', () => {
    const result = spec({ config: yaml });
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
    const result = spec({ config: name });
    expect(result.sourceConfig).toEqual({
      ...expected.source_config,
      integration_id: INTEGRATION_ID,
    });
    expect(result.sourceRevisionConfig).toEqual(expected.source_revision_config);
  });

  it('reads a file path given with ./', () => {
    writeWorkspaceFile('dot.json', json);
    expect(spec({ config: './dot.json' }).sourceRevisionConfig).toEqual({ repo_ref: 'main' });
  });

  it('reads a file whose name starts with two dots (inside the workspace)', () => {
    writeWorkspaceFile('..dotted.json', json);
    expect(spec({ config: '..dotted.json' }).sourceRevisionConfig).toEqual({ repo_ref: 'main' });
  });

  it('rejects a missing file', () => {
    rejects({ config: 'missing.json' }, 'config', /file 'missing\.json' was not found/);
  });

  it('rejects a file larger than 1 MiB, saying so, and reads one just under it', () => {
    const padding = ' '.repeat(1024 * 1024);
    writeWorkspaceFile('huge.json', `{"source_config": {"build_on_push": true}}${padding}`);
    rejects(
      { config: 'huge.json' },
      'config',
      /file 'huge\.json' cannot be read: it is larger than 1 MiB/,
    );
    writeWorkspaceFile(
      'large.json',
      `{"source_config": {"build_on_push": true}}${padding.slice(100)}`,
    );
    expect(spec({ config: 'large.json' }).sourceConfig).toMatchObject({ build_on_push: true });
  });

  it('rejects a directory named like a file, saying it is one', () => {
    mkdirSync(path.join(WORKSPACE, 'dir.yaml'), { recursive: true });
    rejects(
      { config: 'dir.yaml' },
      'config',
      /file 'dir\.yaml' is not a regular file \(a directory\)/,
    );
  });

  it('rejects a file name with a NUL character as an input error, not a crash', () => {
    rejects({ config: 'agent\u0000.yaml' }, 'config', /file name has a NUL character/);
  });

  it('rejects a FIFO, saying it is one, without reading it', () => {
    execFileSync('mkfifo', [path.join(WORKSPACE, 'fifo.yaml')]);
    rejects(
      { config: 'fifo.yaml' },
      'config',
      /file 'fifo\.yaml' is not a regular file \(a FIFO\)/,
    );
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

  it.each(['dev_free', 'dev', 'prod'])(
    'accepts source_config.deployment_type %s, with no warning',
    (type) => {
      const result = spec({ config: `source_config:\n  deployment_type: ${type}\n` });
      expect(result.sourceConfig).toEqual({
        deployment_type: type,
        integration_id: INTEGRATION_ID,
      });
      expect(result.warnings).toEqual([]);
    },
  );

  it('has no warning without a deployment_type', () => {
    expect(spec({ config: 'source_config:\n  deployment_type: null\n' }).warnings).toEqual([]);
    expect(spec({}).warnings).toEqual([]);
  });

  it.each(['serverless', 'dedicated'])(
    'passes on a deployment_type it does not know (%s), with one warning naming the known ones',
    (type) => {
      const result = spec({ config: `{"source_config": {"deployment_type": "${type}"}}` });
      expect(result.sourceConfig).toEqual({
        deployment_type: type,
        integration_id: INTEGRATION_ID,
      });
      expect(result.warnings).toEqual([
        `config: source_config.deployment_type '${type}' is not one this release knows (dev_free, dev, prod): it is passed on as it is, and the service decides`,
      ]);
    },
  );

  it.each([
    ['a number', '3', 'expected string, received number'],
    ['a list', '[serverless]', 'expected string, received array'],
  ])('rejects a deployment_type that is %s, naming its path', (_title, value, problem) => {
    rejects(
      { config: `source_config:\n  deployment_type: ${value}\n` },
      'config',
      new RegExp(`source_config\\.deployment_type: Invalid input: ${problem}`),
    );
  });

  it('still rejects an unknown key next to deployment_type', () => {
    rejects(
      { config: '{"source_config": {"deployment_type": "prod", "deployment_tier": "x"}}' },
      'config',
      /source_config\.deployment_tier: unknown key/,
    );
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
    const result = spec({
      config: JSON.stringify({ source_config: { resource_spec: resourceSpec } }),
    });
    expect(result.sourceConfig.resource_spec).toEqual(resourceSpec);
  });

  it('accepts null for optional sections', () => {
    const result = spec({ config: 'source_config: null\nsource_revision_config: ~\n' });
    expect(result.sourceRevisionConfig).toEqual({});
  });
});

describe('config: repeated keys', () => {
  it.each([
    [
      'at the top',
      '{"source_config": {}, "source_config": {"build_on_push": true}}',
      'source_config',
    ],
    [
      'in a nested object',
      '{"source_config": {"build_on_push": true, "build_on_push": false}}',
      'source_config.build_on_push',
    ],
    [
      'in a list item',
      '{"source_config": {"resource_spec": {"sidecars": [{"name": "a", "image": "b", "name": "c"}]}}}',
      'source_config.resource_spec.sidecars[0].name',
    ],
    ['through an escape', '{"source_config": {}, "\\u0073ource_config": {}}', 'source_config'],
  ])('rejects a .json file with a key repeated %s, naming its path', (_, text, where) => {
    writeWorkspaceFile('repeated.json', text);
    const message = rejects({ config: 'repeated.json' }, 'config');
    expect(message).toBe(`Invalid input 'config': ${where}: repeated key`);
  });

  it('rejects inline JSON with a key repeated', () => {
    rejects(
      { config: '{"source_config": {"build_on_push": true, "build_on_push": false}}' },
      'config',
      /not valid YAML.*unique/i,
    );
  });

  it('reads JSON escapes in a .json file as JSON does', () => {
    writeWorkspaceFile(
      'escapes.json',
      '{"source_revision_config": {"agent_config_path": "agents\\/caf\\u00e9.json", "repo_ref": "a\\"b"}}',
    );
    expect(spec({ config: 'escapes.json' }).sourceRevisionConfig).toEqual({
      agent_config_path: 'agents/café.json',
      repo_ref: 'a"b',
    });
  });

  it('still rejects what JSON does not allow in a .json file', () => {
    writeWorkspaceFile('trailing.json', '{"source_config": {},}');
    rejects({ config: 'trailing.json' }, 'config', /is not valid JSON/);
    writeWorkspaceFile('unquoted.json', '{source_config: {}}');
    rejects({ config: 'unquoted.json' }, 'config', /is not valid JSON/);
  });
});

describe('config: symbolic links', () => {
  const OUTSIDE = mkdtempSync(path.join(tmpdir(), 'config-input-outside-'));
  afterAll(() => rmSync(OUTSIDE, { recursive: true, force: true }));
  const yaml = 'source_revision_config:\n  repo_ref: from-the-link\n';

  /** A symbolic link at `name` in the workspace, to `target`. */
  function link(target: string, name: string): string {
    const at = path.join(WORKSPACE, name);
    mkdirSync(path.dirname(at), { recursive: true });
    symlinkSync(target, at);
    return name;
  }

  it('rejects a link to a file outside the workspace', () => {
    const outside = path.join(OUTSIDE, 'secret.yaml');
    writeFileSync(outside, yaml);
    rejects(
      { config: link(outside, 'deploy/agent.yaml') },
      'config',
      /file 'deploy\/agent\.yaml' is outside the workspace: a symbolic link leads out of it/,
    );
  });

  it('rejects a file under a linked directory that is outside the workspace', () => {
    mkdirSync(path.join(OUTSIDE, 'dir'));
    writeFileSync(path.join(OUTSIDE, 'dir', 'agent.json'), '{}');
    link(path.join(OUTSIDE, 'dir'), 'linked-dir');
    rejects({ config: 'linked-dir/agent.json' }, 'config', /is outside the workspace/);
  });

  it('rejects a relative link that climbs out of the workspace', () => {
    writeFileSync(path.join(OUTSIDE, 'relative.yml'), yaml);
    const target = path.relative(WORKSPACE, path.join(OUTSIDE, 'relative.yml'));
    rejects({ config: link(target, 'relative.yml') }, 'config', /is outside the workspace/);
  });

  it('reads a link that stays inside the workspace', () => {
    writeWorkspaceFile('real/agent.yaml', yaml);
    link(path.join(WORKSPACE, 'real', 'agent.yaml'), 'inside-link.yaml');
    expect(spec({ config: 'inside-link.yaml' }).sourceRevisionConfig).toEqual({
      repo_ref: 'from-the-link',
    });
  });

  it('reads a file in a workspace that is itself reached through a link', () => {
    const linkedWorkspace = path.join(OUTSIDE, 'workspace-link');
    symlinkSync(WORKSPACE, linkedWorkspace);
    writeWorkspaceFile('via-link.yaml', yaml);
    const linked = planReader({ workspace: linkedWorkspace });
    expect(linked.plan({ config: 'via-link.yaml' }).sourceRevisionConfig).toEqual({
      repo_ref: 'from-the-link',
    });
  });

  it('rejects a dangling link as a missing file, saying it is a link', () => {
    link(path.join(OUTSIDE, 'gone.yaml'), 'dangling.yaml');
    rejects(
      { config: 'dangling.yaml' },
      'config',
      /was not found in the workspace .*: it is a symbolic link to a path that does not exist/,
    );
  });

  it('rejects a link to /dev/zero as leading out of the workspace, not as missing', () => {
    rejects(
      { config: link('/dev/zero', 'zero.yaml') },
      'config',
      /file 'zero\.yaml' is outside the workspace: a symbolic link leads out of it/,
    );
  });
});
