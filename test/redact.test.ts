import { describe, expect, it } from 'vitest';
import { MASK, Redactor } from '../src/redact.ts';

describe('Redactor', () => {
  it('replaces every occurrence of a value, and its JSON and URL forms', () => {
    const redactor = new Redactor();
    redactor.add('s3cr"et/\\value');

    expect(redactor.redact('a s3cr"et/\\value b s3cr"et/\\value')).toBe(`a ${MASK} b ${MASK}`);
    expect(redactor.redact(JSON.stringify({ value: 's3cr"et/\\value' }))).toBe(
      `{"value":"${MASK}"}`,
    );
    expect(redactor.redact(`?q=${encodeURIComponent('s3cr"et/\\value')}`)).toBe(`?q=${MASK}`);
  });

  it('masks each line of a multi-line value on its own', () => {
    const redactor = new Redactor();
    const fresh = redactor.add('-----BEGIN KEY-----\nMIIEvQIBADANBg==\n-----END KEY-----');

    expect(fresh).toHaveLength(4);
    expect(redactor.redact('line: MIIEvQIBADANBg==')).toBe(`line: ${MASK}`);
  });

  it('replaces a longer secret whole when it contains a shorter one', () => {
    const redactor = new Redactor();
    redactor.add('abc');
    redactor.add('abcdef');

    expect(redactor.redact('abcdef abc')).toBe(`${MASK} ${MASK}`);
  });

  it('leaves the punctuation lines of a multi-line JSON value alone, not the value itself', () => {
    const redactor = new Redactor();
    redactor.add('{\n  "A": "sk-live-1",\n  "B": "!@#$%"\n}');
    redactor.add('!!!');

    expect(redactor.redact('{"id": "x"}')).toBe('{"id": "x"}');
    expect(redactor.redact('"A": "sk-live-1",')).toBe(MASK);
    expect(redactor.redact('pw !!! end')).toBe(`pw ${MASK} end`);
  });

  it('ignores blank values and reports only new ones for the runner', () => {
    const redactor = new Redactor();

    expect(redactor.add('   ')).toEqual([]);
    expect(redactor.add('token')).toEqual(['token']);
    expect(redactor.add('token')).toEqual([]);
    expect(redactor.redact('no secrets here')).toBe('no secrets here');
  });
});
