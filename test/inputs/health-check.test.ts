import { describe, expect, it } from 'vitest';
import { Invalid } from '../../src/inputs/errors.ts';
import { parseHealthCheck } from '../../src/inputs/health-check.ts';

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
