/**
 * The health check's inputs (src/inputs/health-inputs.ts): `health-check`,
 * `health-check-headers` and `health-check-expect` read into the deploy spec, the
 * status look-up and each agent's spec of a manifest; their values never to print;
 * and headers or an expected text without a check, an input error before any request.
 */
import { describe, expect, it } from 'vitest';
import { manifestRequest } from '../../src/inputs/deploy-request.ts';
import { INPUTS } from '../../src/inputs/core-inputs.ts';
import { readInputs } from '../../src/inputs/declare.ts';
import { InputError, Invalid } from '../../src/inputs/errors.ts';
import type { RunDescription } from '../../src/inputs/run-description.ts';
import { parseHealthCheck } from '../../src/inputs/health-inputs.ts';
import { readStatusRequest } from '../../src/inputs/status-inputs.ts';
import { Redactor } from '../../src/common/redact.ts';
import { RunEvents } from '../../src/run/ports/events.ts';
import { maskValues } from '../../src/run/flows/setup.ts';
import { reader } from '../support/action.ts';
import { recordingRunner } from '../support/recording-runner.ts';
import { BASE, planReader, temporaryWorkspace } from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('health-inputs-test-');
const run: RunDescription = { workspace: workspace.root, repository: 'acme/agent' };
const { plan: spec, problems } = planReader(run);
const AGENT_KEY = 'agent-server-key-0123';

describe('the deploy spec', () => {
  it('has no check when health-check is empty (the default)', () => {
    expect(spec({}).health).toBeUndefined();
  });

  it('reads a path, the headers and the expected text into one check; the header values are never printed', async () => {
    const read = spec({
      'health-check': '/ok',
      'health-check-headers': `X-Api-Key: ${AGENT_KEY}`,
      'health-check-expect': '"ok":true',
    });
    expect(read.health).toEqual({
      check: { kind: 'path', path: '/ok' },
      headers: { 'X-Api-Key': AGENT_KEY },
      expect: '"ok":true',
    });
    // The service's requests do not carry the check's headers.
    expect(Object.values(read.headers)).not.toContain(AGENT_KEY);
    // What the run prints once it has registered the spec's values (as every flow does):
    // an answer that echoes the header, and an error that quotes it, show neither value.
    const redactor = new Redactor();
    const runner = recordingRunner(run, {
      mask: (value) => void redactor.add(value),
      redact: (text) => redactor.redact(text),
    });
    maskValues(read, runner.io);
    const events = new RunEvents(runner.io.views, runner.io.redact);
    events.emit({
      kind: 'log',
      level: 'info',
      message: `the answer: {"X-Api-Key":"${AGENT_KEY}"}`,
    });
    events.emit({
      kind: 'log',
      level: 'warning',
      message: `401 Unauthorized: bad key ${AGENT_KEY}`,
    });
    await events.settled();
    expect(runner.logger.lines.join('\n')).toContain('bad key ***');
    expect(runner.logger.lines.join('\n')).not.toContain(AGENT_KEY);
  });

  it("never sends the service's api-key to the address unless named there", () => {
    const read = spec({ 'api-key': 'service-key-0123', 'health-check': '{url}/ok?check_db=1' });
    expect(read.health).toEqual({
      check: { kind: 'address', template: '{url}/ok?check_db=1' },
      headers: {},
    });
  });

  it('refuses headers or an expected text without a check, naming each', () => {
    expect(
      problems({ 'health-check-headers': `X-Api-Key: ${AGENT_KEY}`, 'health-check-expect': 'v2' }),
    ).toEqual([
      "input 'health-check-headers': is set but health-check is empty: set health-check (e.g. /ok) or remove it",
      "input 'health-check-expect': is set but health-check is empty: set health-check (e.g. /ok) or remove it",
    ]);
  });

  it('refuses a bad check and bad headers with the other bad inputs, no header value shown', () => {
    const lines = problems({
      'health-check': 'http://agent.example.com/ok',
      'health-check-headers': `Host: ${AGENT_KEY}`,
      'wait-timeout': 'soon',
    });
    expect(lines.map((line) => /^input '([^']+)'/.exec(line)?.[1])).toEqual([
      'wait-timeout',
      'health-check',
      'health-check-headers',
    ]);
    expect(lines.join('\n')).not.toContain(AGENT_KEY);
  });
});

describe('a manifest', () => {
  const agents = (entries: string) => `agents:\n${entries}`;
  const request = (given: Record<string, string>) =>
    manifestRequest(readInputs(INPUTS, reader({ ...BASE, name: '', ...given }), run), run);

  it("gives each agent its entry's check over the step's, with the step's headers", () => {
    const asked = request({
      agents: agents(
        "  support:\n    health-check: /ok\n    health-check-expect: v2\n  triage: {}\n  docs:\n    health-check: '{url}/healthz'\n",
      ),
      'health-check-headers': `X-Api-Key: ${AGENT_KEY}`,
    });
    const health = Object.fromEntries(asked.agents.map(({ key, spec }) => [key, spec.health]));
    expect(health).toEqual({
      support: {
        check: { kind: 'path', path: '/ok' },
        headers: { 'X-Api-Key': AGENT_KEY },
        expect: 'v2',
      },
      triage: undefined,
      docs: {
        check: { kind: 'address', template: '{url}/healthz' },
        headers: { 'X-Api-Key': AGENT_KEY },
      },
    });
  });

  it('refuses the step’s headers when no agent makes a check, and names a bad entry by its path', () => {
    expect(() =>
      request({
        agents: agents('  support: {}\n'),
        'health-check-headers': `X-Api-Key: ${AGENT_KEY}`,
      }),
    ).toThrow(/input 'health-check-headers': is set but health-check is empty/);
    expect(() =>
      request({ agents: agents("  support:\n    health-check: '/ok/{version}'\n") }),
    ).toThrow(/input 'agents.support.health-check': may hold only the placeholder \{url\}/);
  });
});

describe('status', () => {
  const status = (given: Record<string, string>) =>
    readStatusRequest((name) => ({ ...BASE, ...given })[name], run);

  it('reads the check, its header values never to print', () => {
    const asked = status({ 'health-check': '/ok', 'health-check-headers': `X-K: ${AGENT_KEY}` });
    const [lookup] = asked.agents;
    if (asked.layout !== 'flat' || lookup === undefined) throw new Error('expected one look-up');
    expect(lookup.spec.health).toEqual({
      check: { kind: 'path', path: '/ok' },
      headers: { 'X-K': AGENT_KEY },
    });
    expect(lookup.spec.sensitiveValues).toContain(AGENT_KEY);
  });

  it("gives each agent of a manifest its entry's check, a bad one named by its path", () => {
    expect(() =>
      status({ name: '', agents: "agents:\n  support:\n    health-check: '/ok/{v}'\n" }),
    ).toThrow(/input 'agents.support.health-check': may hold only the placeholder \{url\}/);
    const asked = status({
      name: '',
      agents: 'agents:\n  support:\n    health-check: /ok\n  triage: {}\n',
    });
    if (asked.layout !== 'keyed') throw new Error('expected agents');
    const health = asked.agents.map(({ key, spec }) => [key, spec.health?.check]);
    expect(health).toEqual([
      ['support', { kind: 'path', path: '/ok' }],
      ['triage', undefined],
    ]);
  });

  it('refuses an expected text without a check', () => {
    expect(() => status({ 'health-check-expect': 'v2' })).toThrow(InputError);
    expect(() => status({ 'health-check-expect': 'v2' })).toThrow(
      "Invalid input 'health-check-expect': is set but health-check is empty",
    );
  });
});

const problem = (raw: string): string => {
  try {
    parseHealthCheck(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(Invalid);
    return (error as Error).message;
  }
  throw new Error(`'${raw}' was accepted`);
};

describe('parseHealthCheck', () => {
  it('is off when empty', () => {
    expect(parseHealthCheck('')).toBeUndefined();
    expect(parseHealthCheck('  ')).toBeUndefined();
  });

  it('reads a path, kept as written', () => {
    expect(parseHealthCheck('/ok')).toEqual({ kind: 'path', path: '/ok' });
    expect(parseHealthCheck('/ok?check_db=1')).toEqual({ kind: 'path', path: '/ok?check_db=1' });
  });

  it('reads a full address, with or without {url}', () => {
    for (const template of [
      'https://agent.example.com/ok',
      'http://localhost:8080/ok',
      'http://127.0.0.5/ok',
      'http://[::1]:3000/ok',
      '{url}/ok?check_db=1',
      '{url}',
      'https://checker.example.com/probe?target={url}',
    ]) {
      expect(parseHealthCheck(template)).toEqual({ kind: 'address', template });
    }
  });

  it('refuses any placeholder but {url}, naming it', () => {
    expect(problem('{uri}/ok')).toContain("'{uri}'");
    expect(problem('https://a.example.com/{name}/ok')).toContain("'{name}'");
    expect(problem('{url}/{sha}')).toContain("'{sha}'");
    expect(problem('{url/ok')).toContain('may hold only the placeholder {url}');
    expect(problem('/ok}')).toContain('may hold only the placeholder {url}');
  });

  it('refuses plain http:// to a host that is not loopback, showing no query', () => {
    const message = problem('http://agent.example.com/ok?key=hunter2');
    expect(message).toContain('must use https://');
    expect(message).toContain("'http://agent.example.com/ok'");
    expect(message).not.toContain('hunter2');
  });

  it('refuses what is neither a path nor an address', () => {
    expect(problem('ok')).toContain('is not a valid URL');
    expect(problem('ftp://agent.example.com/ok')).toContain('must be an https:// URL');
    expect(problem('//agent.example.com/ok')).toContain('must be a path');
    expect(problem('{url}ok')).toContain('right after {url}');
    expect(problem('/o k')).toContain('white space');
  });

  it('refuses credentials in the address without echoing them', () => {
    const message = problem('https://user:s3cret-pass@agent.example.com/ok');
    expect(message).toContain("the health check's headers");
    expect(message).not.toContain('s3cret-pass');
  });
});
