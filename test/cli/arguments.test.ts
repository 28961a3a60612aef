/**
 * The command line and the environment read into one request: options and
 * their variables, flags, secrets only from the environment or files, and
 * usage errors that name the option (never a value that may be a secret).
 */
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/common/redact.ts';
import { readInvocation, UsageError, type CliRequest } from '../../src/cli/arguments.ts';

const KEY = 'k3y-from-the-environment';

function read(
  args: string[],
  env: Record<string, string> = {},
  files: Record<string, string> = {},
): CliRequest {
  const invocation = readInvocation(args, {
    env,
    readFile: (path) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error('no file'), { code: 'ENOENT' });
      return text;
    },
  });
  if (invocation.kind !== 'run') throw new Error(`expected a run, got ${invocation.kind}`);
  return invocation.request;
}

function usageError(args: string[], env: Record<string, string> = {}): UsageError {
  try {
    read(args, env);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a usage error');
}

describe('options and their variables', () => {
  it('reads each value option from --name VALUE, --name=VALUE, or DEPLOY_NAME', () => {
    expect(read(['deploy', '--name', 'a']).inputs.name).toBe('a');
    expect(read(['deploy', '--name=b']).inputs.name).toBe('b');
    expect(read(['deploy'], { DEPLOY_NAME: 'c' }).inputs.name).toBe('c');
    expect(read(['deploy'], { DEPLOY_WAIT_TIMEOUT: '30' }).inputs['wait-timeout']).toBe('30');
  });

  it('reads the manifest of agents from --agents or DEPLOY_AGENTS, for deploy', () => {
    expect(read(['deploy', '--agents', 'deploy/agents.yaml']).inputs.agents).toBe(
      'deploy/agents.yaml',
    );
    expect(read(['deploy'], { DEPLOY_AGENTS: 'agents: {a: {}}' }).inputs.agents).toBe(
      'agents: {a: {}}',
    );
  });

  it('lets a flag win over its variable, and says where each value came from', () => {
    const request = read(['deploy', '--name', 'flag'], { DEPLOY_NAME: 'variable' });
    expect(request.inputs.name).toBe('flag');
    expect(request.origins.name).toBe('--name');
    expect(read(['deploy'], { DEPLOY_NAME: 'variable' }).origins.name).toBe('DEPLOY_NAME');
  });

  it('leaves an input that is given nowhere absent, so that its declared default applies', () => {
    const request = read(['deploy', '--name', 'a']);
    expect(Object.keys(request.inputs)).toEqual(['name']);
  });

  it('takes booleans as flags (--wait for wait-for-ready) and their variables as text', () => {
    expect(read(['deploy', '--wait', '--dry-run']).inputs).toMatchObject({
      'wait-for-ready': 'true',
      'dry-run': 'true',
    });
    // The core parses the action's spellings; a wrong one is its input error, not lost here.
    expect(read(['deploy'], { DEPLOY_WAIT: 'False' }).inputs['wait-for-ready']).toBe('False');
    expect(read(['deploy'], { DEPLOY_WAIT: 'yes' }).inputs['wait-for-ready']).toBe('yes');
  });

  it('reads the output options', () => {
    const request = read(['deploy', '--json', '--dotenv', 'd.env', '--summary=s.md']);
    expect(request).toMatchObject({ json: true, dotenv: 'd.env', summary: 's.md' });
    expect(read(['deploy']).json).toBe(false);
  });

  it("reads deploy's --changed-since REF, or DEPLOY_CHANGED_SINCE, saying which", () => {
    expect(read(['deploy', '--changed-since', 'origin/main']).changedSince).toEqual({
      ref: 'origin/main',
      origin: '--changed-since',
    });
    expect(
      read(['deploy', '--changed-since=v1.4.0'], { DEPLOY_CHANGED_SINCE: 'main' }).changedSince,
    ).toEqual({ ref: 'v1.4.0', origin: '--changed-since' });
    expect(read(['deploy'], { DEPLOY_CHANGED_SINCE: 'main' }).changedSince).toEqual({
      ref: 'main',
      origin: 'DEPLOY_CHANGED_SINCE',
    });
    expect(read(['deploy'], { DEPLOY_CHANGED_SINCE: '' }).changedSince).toBeUndefined();
    expect(read(['deploy']).changedSince).toBeUndefined();
    // Not plan's nor status's: `paths` are deploy's.
    expect(read(['status'], { DEPLOY_CHANGED_SINCE: 'main' }).changedSince).toBeUndefined();
    expect(usageError(['plan', '--changed-since', 'main']).message).toMatch(
      /plan takes no option --changed-since \(it is an option of deploy\)/,
    );
  });

  it.each([
    [['deploy', '--changed-since='], {}, '--changed-since'],
    [['deploy', '--changed-since=-p'], {}, '--changed-since'],
    [['deploy', '--changed-since=--output=x'], {}, '--changed-since'],
    [['deploy', '--changed-since', 'main\nx'], {}, '--changed-since'],
    [['deploy'], { DEPLOY_CHANGED_SINCE: '--all' }, 'DEPLOY_CHANGED_SINCE'],
    [['deploy'], { DEPLOY_CHANGED_SINCE: 'a\0b' }, 'DEPLOY_CHANGED_SINCE'],
  ])('refuses %j %j, naming %s, without echoing the value', (args, env, origin) => {
    const { message } = usageError(args, env);
    expect(message).toBe(
      `${origin} takes a git revision (a branch, a tag or a commit sha: main, origin/main, v1.4.0): not empty, not starting with -, on one line`,
    );
  });
});

describe('usage errors name the option', () => {
  it.each([
    [['deploy', '--nmae', 'x'], /unknown option --nmae/],
    [['deploy', '--name'], /--name needs a VALUE/],
    [
      ['deploy', '--name', '--wait'],
      /--name needs a VALUE \(the next argument is the option --wait/,
    ],
    [['deploy', '--wait=true'], /--wait is a flag and takes no value/],
    [['deploy', '--wait', 'true'], /after --wait: --wait is a flag and takes no value/],
    [['deploy', '--name', 'a', '--name', 'b'], /--name is given more than once/],
    [['deploy', '--wait-for-ready'], /the action's wait-for-ready is --wait here/],
    [['status', '--source', 'codehost'], /status takes no option --source/],
    [['deploy', '--', 'x'], /-- ends the options/],
    [
      ['--name', 'x'],
      /a command comes first \(deploy, status, plan, list or repos\), not the option --name/,
    ],
    [['destroy'], /a command comes first \(deploy, status, plan, list or repos\), not 'destroy'/],
  ])('%j', (args, message) => {
    expect(usageError(args).message).toMatch(message);
  });

  it('reports every problem at once', () => {
    expect(usageError(['deploy', '--bogus', '--wait=1']).problems).toHaveLength(2);
  });

  it('refuses --api-key, saying why and what to use, without echoing the value', () => {
    for (const args of [
      ['deploy', '--api-key', 'hunter2-secret'],
      ['deploy', '--api-key=hunter2-secret'],
    ]) {
      const error = usageError(args);
      expect(error.message).toMatch(
        /--api-key is not an option: a key on the command line is visible in process lists, shell history and CI logs: set DEPLOY_API_KEY or pass --api-key-file FILE/,
      );
      expect(error.message).not.toContain('hunter2');
    }
  });

  it("reports an option that is not the command's once, its value with it, and a stray after a known flag still", () => {
    expect(usageError(['deploy', '--api-key', 'abc', '--name', 'a']).problems).toEqual([
      expect.stringMatching(/^--api-key is not an option: /),
    ]);
    expect(usageError(['status', '--image-uri', 'x', '--name', 'a']).problems).toEqual([
      'status takes no option --image-uri (it is an option of deploy, plan)',
    ]);
    expect(usageError(['status', '--bogus', 'x', '--name', 'a']).problems).toHaveLength(1);
    // Another command's flag takes no value: what follows it is a stray argument.
    expect(usageError(['status', '--dry-run', 'x', '--name', 'a']).problems).toHaveLength(2);
  });

  it('refuses --headers and --secrets, pointing to --header and --secret', () => {
    expect(usageError(['deploy', '--headers', 'X: y']).message).toMatch(/--header NAME/);
    expect(usageError(['deploy', '--secrets', 'A=b']).message).toMatch(/--secret NAME/);
  });

  it('never echoes a stray argument, which may be a value put in the wrong place', () => {
    const error = usageError(['deploy', '--header', 'X-A', 'sup3r-secret-value']);
    expect(error.message).not.toContain('sup3r');
  });
});

describe('secrets come from the environment or files, never the command line', () => {
  it('reads the key from DEPLOY_API_KEY and masks it', () => {
    const request = read(['deploy'], { DEPLOY_API_KEY: KEY });
    expect(request.inputs['api-key']).toBe(KEY);
    expect(request.secretValues).toContain(KEY);
  });

  it('reads --api-key-file, dropping one trailing line break only', () => {
    const files = { '/k': `${KEY}\n`, '/crlf': `${KEY}\r\n`, '/two': `${KEY}\n\n` };
    expect(read(['deploy', '--api-key-file', '/k'], {}, files).inputs['api-key']).toBe(KEY);
    expect(read(['deploy', '--api-key-file', '/crlf'], {}, files).inputs['api-key']).toBe(KEY);
    expect(read(['deploy', '--api-key-file', '/two'], {}, files).inputs['api-key']).toBe(
      `${KEY}\n`,
    );
    // The file wins over the variable.
    expect(
      read(['deploy', '--api-key-file', '/k'], { DEPLOY_API_KEY: 'other-key' }, files).inputs[
        'api-key'
      ],
    ).toBe(KEY);
  });

  it('names an unreadable key file', () => {
    expect(usageError(['deploy', '--api-key-file', '/missing']).message).toBe(
      '--api-key-file /missing: cannot read it (no such file)',
    );
  });

  it('reads each --header NAME from the variable NAME upper-cased, - as _', () => {
    const request = read(['deploy', '--header', 'X-Tenant-Id', '--header', 'X-Org'], {
      X_TENANT_ID: 'tenant-value-1',
      X_ORG: 'org-value-2',
    });
    expect(request.inputs.headers).toBe('X-Tenant-Id: tenant-value-1\nX-Org: org-value-2');
    expect(request.secretValues).toEqual(expect.arrayContaining(['tenant-value-1', 'org-value-2']));
  });

  it('names the variable a --header needs when it is unset', () => {
    expect(usageError(['deploy', '--header', 'X-Tenant-Id']).message).toBe(
      '--header X-Tenant-Id: the environment variable X_TENANT_ID that holds its value is not set',
    );
  });

  it('takes DEPLOY_HEADERS as the action takes headers, masking each value', () => {
    const request = read(['deploy'], { DEPLOY_HEADERS: 'X-A: value-a-123\nX-B: value-b-456' });
    expect(request.inputs.headers).toBe('X-A: value-a-123\nX-B: value-b-456');
    expect(request.secretValues).toEqual(expect.arrayContaining(['value-a-123', 'value-b-456']));
    // The redactor the command builds from them hides each whole line too.
    const redactor = new Redactor();
    for (const value of request.secretValues) redactor.add(value);
    expect(redactor.redact('X-A: value-a-123 and X-B: value-b-456')).toBe('*** and ***');
  });

  it('reads --secret NAME from the variable NAME, and --secrets-file, as one list', () => {
    const request = read(
      ['deploy', '--secrets-file', '/s.env', '--secret', 'OPENAI_KEY'],
      { OPENAI_KEY: 'sk-openai-value' },
      { '/s.env': '# comment\nDB_URL=postgres://u:p@h/db\n' },
    );
    expect(JSON.parse(request.inputs.secrets ?? '')).toEqual({
      DB_URL: 'postgres://u:p@h/db',
      OPENAI_KEY: 'sk-openai-value',
    });
    expect(request.secretValues).toEqual(
      expect.arrayContaining(['sk-openai-value', 'postgres://u:p@h/db']),
    );
  });

  it('is an input error naming the variable when --secret names an unset one', () => {
    expect(usageError(['deploy', '--secret', 'OPENAI_KEY']).message).toBe(
      '--secret OPENAI_KEY: the environment variable OPENAI_KEY is not set (export it, or drop --secret OPENAI_KEY)',
    );
  });

  it('names a bad line of a secrets file by its number, never its text', () => {
    const error = (() => {
      try {
        read(['deploy', '--secrets-file', '/s'], {}, { '/s': 'A=1\nnot-a-secret-line' });
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('expected an error');
    })();
    expect(error.message).toBe("--secrets-file /s: line 2 is not NAME=value (no '=' found)");
  });

  it('takes DEPLOY_SECRETS as the action takes secrets', () => {
    const request = read(['deploy'], { DEPLOY_SECRETS: 'A=value-of-a\nB=value-of-b' });
    expect(request.inputs.secrets).toBe('A=value-of-a\nB=value-of-b');
    expect(request.secretValues).toEqual(expect.arrayContaining(['value-of-a', 'value-of-b']));
  });
});

describe('help and version', () => {
  const sources = { env: {}, readFile: () => '' };
  it.each([[[]], [['--help']], [['-h']], [['help']]])('%j is the top help', (args) => {
    expect(readInvocation(args, sources)).toEqual({ kind: 'help' });
  });
  it('gives a command its help, even among other options', () => {
    expect(readInvocation(['deploy', '--name', 'x', '--help'], sources)).toEqual({
      kind: 'help',
      command: 'deploy',
    });
    expect(readInvocation(['help', 'status'], sources)).toEqual({
      kind: 'help',
      command: 'status',
    });
  });
  it('reads --version', () => {
    expect(readInvocation(['--version'], sources)).toEqual({ kind: 'version' });
  });
});
