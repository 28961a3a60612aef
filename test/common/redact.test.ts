import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MASK, Redactor, isRedactable } from '../../src/common/redact.ts';

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
    redactor.add('abcd');
    redactor.add('abcdefgh');

    expect(redactor.redact('abcdefgh abcd')).toBe(`${MASK} ${MASK}`);
  });

  it('leaves the punctuation lines of a multi-line JSON value alone, not the value itself', () => {
    const redactor = new Redactor();
    redactor.add('{\n  "A": "sk-live-1",\n  "B": "!@#$%"\n}');
    redactor.add('!!!!');

    expect(redactor.redact('{"id": "x"}')).toBe('{"id": "x"}');
    expect(redactor.redact('"A": "sk-live-1",')).toBe(MASK);
    expect(redactor.redact('pw !!!! end')).toBe(`pw ${MASK} end`);
  });

  it('ignores blank values and reports only new ones for the runner', () => {
    const redactor = new Redactor();

    expect(redactor.add('   ')).toEqual([]);
    expect(redactor.add('token')).toEqual(['token']);
    expect(redactor.add('token')).toEqual([]);
    expect(redactor.redact('no secrets here')).toBe('no secrets here');
  });

  it('redacts the forms a value takes in JSON a service wrote: \\/ and \\u escapes', () => {
    const redactor = new Redactor();
    redactor.add('pä/ss-wörd');

    expect(redactor.redact('"pä\\/ss-wörd"')).toBe(`"${MASK}"`);
    expect(redactor.redact('"p\\u00e4\\/ss-w\\u00f6rd"')).toBe(`"${MASK}"`);
    expect(redactor.redact('"p\\u00E4/ss-w\\u00F6rd"')).toBe(`"${MASK}"`);
  });

  it('does not register values too short or common to hide in text, so they cannot garble it', () => {
    const redactor = new Redactor();

    for (const value of ['4', 'true', 'False', 'off', '123', '-1.5', 'abc']) {
      expect(isRedactable(value)).toBe(false);
      expect(redactor.add(value)).toEqual([]);
    }
    expect(redactor.redact('created=true, attempt 4 of 5, abc')).toBe(
      'created=true, attempt 4 of 5, abc',
    );
    expect(isRedactable('acme')).toBe(true);
  });
});

describe('Redactor and form bodies', () => {
  // A service that echoes a request as application/x-www-form-urlencoded, as
  // Python's urlencode and URLSearchParams write it: space as +, ! as %21.
  const secret = "s3cr3t pass!~*'(x)";

  it.each([
    ['URLSearchParams', new URLSearchParams({ KEY: secret }).toString()],
    ['Python urlencode', 'KEY=s3cr3t+pass%21~%2A%27%28x%29'],
    ['Python quote', 'KEY=s3cr3t%20pass%21~%2A%27%28x%29'],
    ['encodeURIComponent', `KEY=${encodeURIComponent(secret)}`],
  ])('removes the %s form', (_, body) => {
    const redactor = new Redactor();
    redactor.add(secret);

    expect(redactor.redact(`detail: ${body}&other=1`)).toBe('detail: KEY=***&other=1');
  });
});

describe('Redactor.redactHead', () => {
  const secret = 'query-token-4f9a2c7e1b';

  it('cuts the text as it is, before anything is collapsed', () => {
    const redactor = new Redactor();
    const text = `start${' '.repeat(300)}far past the cut`;
    expect(redactor.redactHead(text, 200)).toBe(`start${' '.repeat(195)}`);
  });

  it('masks a secret among the first characters, and one that runs past the cut whole', () => {
    const redactor = new Redactor();
    redactor.add(secret);
    expect(redactor.redactHead(`token=${secret}&x=1`, 200)).toBe('token=***&x=1');
    expect(redactor.redactHead(`token=${secret}`, 10)).toBe('token=***');
  });

  it('counts characters, not UTF-16 units: no half of a character at the cut', () => {
    expect(new Redactor().redactHead('ab😀cd', 3)).toBe('ab😀');
  });
});

describe('Redactor among thousands of secrets', () => {
  /** The redaction as it reads: every needle, longest first, replaced everywhere. */
  function naive(values: readonly string[], text: string): string {
    const reference = new Redactor();
    // Few values: the redactor takes the path of every needle, longest first.
    for (const value of values) reference.add(value);
    return reference.redact(text);
  }

  it('redacts a short text as it would with few secrets, looking up only what it could hold', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 4, maxLength: 12, unit: fc.constantFrom('a', 'b', '*', 'c') }),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        fc.string({ maxLength: 30, unit: fc.constantFrom('a', 'b', '*', 'c', ' ') }),
        (values, text) => {
          const many = new Redactor();
          for (let i = 0; i < 2_000; i++) many.add(`padding-secret-value-${i}`);
          for (const value of values) many.add(value);
          expect(many.redact(text)).toBe(naive(values, text));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('hides a listed secret in a status among 10,000 others', () => {
    const redactor = new Redactor();
    for (let i = 0; i < 10_000; i++) redactor.add(`listed-secret-${i}-0123456789`);

    expect(redactor.redact('READY listed-secret-42-0123456789')).toBe(`READY ${MASK}`);
    expect(redactor.redact('READY')).toBe('READY');
  });
});
