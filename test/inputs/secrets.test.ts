/**
 * The `secrets` input (src/inputs/secrets.ts): lines or a JSON object, and no
 * message that shows a secret value.
 */
import { describe, expect, it } from 'vitest';
import { SECRET, planReader, temporaryWorkspace } from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('secrets-input-test-');
const { plan: spec, rejects } = planReader({ workspace: workspace.root });

describe('secrets', () => {
  function secrets(text: string) {
    return spec({ secrets: text }).secrets;
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
    expect(spec({ secrets: `A=${SECRET}\nB=two` }).sensitiveValues).toEqual(
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

  it('rejects a name repeated in a JSON object, naming keys by position, never by value', () => {
    rejectsSecrets(
      `{"A": "${SECRET}", "B": "two", "A": "other-s3cr3t"}`,
      /key 3 repeats the secret name of key 1/,
      'other-s3cr3t',
    );
  });

  it('rejects a name repeated through a JSON escape', () => {
    rejectsSecrets(`{"A": "${SECRET}", "\\u0041": "x"}`, /key 2 repeats the secret name of key 1/);
  });

  it('rejects an invalid name repeated, without echoing it (it may be a value)', () => {
    rejectsSecrets(
      `{"${SECRET}": "a", "${SECRET}": "b"}`,
      /key 2 repeats the secret name of key 1/,
    );
  });

  it('reads JSON escapes as JSON does', () => {
    expect(
      secrets('{"A": "x\\/y", "B": "caf\\u00e9", "C": "\\ud83d\\ude00", "D": "tab\\tq\\"q"}'),
    ).toEqual([
      { name: 'A', value: 'x/y' },
      { name: 'B', value: 'café' },
      { name: 'C', value: '😀' },
      { name: 'D', value: 'tab\tq"q' },
    ]);
  });

  it('keeps reporting a non-string value that repeats a key inside it', () => {
    rejectsSecrets(`{"A": {"v": "${SECRET}", "v": "x"}}`, /secret A must have a string value/);
  });
});
