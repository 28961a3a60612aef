/**
 * The one reader of declared inputs (src/inputs/declare.ts), on small sets
 * like the ones entries declare: one pass, every problem at once in the
 * set's order, and a missing input read as its declared default.
 */
import { describe, expect, it } from 'vitest';
import {
  defaultText,
  input,
  namesOf,
  readInputs,
  sensitiveNames,
} from '../../src/inputs/declare.ts';
import { InputError, fail } from '../../src/inputs/errors.ts';
import { parseBoolean } from '../../src/inputs/parsers.ts';
import type { RunDescription } from '../../src/inputs/run-description.ts';

const run: RunDescription = { workspace: '/tmp', repository: 'acme/agent' };

const number = (raw: string) => {
  if (!/^\d+$/.test(raw)) fail(`must be a whole number, got '${raw}'`);
  return Number(raw);
};

const SET = {
  count: input(number),
  token: input((raw) => raw, { sensitive: true, default: '' }),
  repository: input((raw) => raw, { default: { run: 'repository' } }),
  comment: input(parseBoolean, { default: 'false' }),
};

/** The problems `readInputs` reports for `values`, or the values. */
function read<D extends Parameters<typeof readInputs>[0]>(set: D, values: Record<string, string>) {
  try {
    return readInputs(set, (name) => values[name], run);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error.problems;
  }
}

describe('readInputs', () => {
  it('reads every input of the set into its typed value', () => {
    expect(
      read(SET, { count: '3', token: 't', repository: 'other/repo', comment: 'true' }),
    ).toEqual({ count: 3, token: 't', repository: 'other/repo', comment: true });
  });

  it('reads an input that is not given as its declared default, a run field included', () => {
    expect(read(SET, { count: '1' })).toEqual({
      count: 1,
      token: '',
      repository: 'acme/agent',
      comment: false,
    });
  });

  it('reads an input given empty as empty, not as its default', () => {
    expect(read(SET, { count: '1', repository: '' })).toMatchObject({ repository: '' });
  });

  it('names every bad input at once, in the order of the set', () => {
    expect(read(SET, { comment: 'maybe', count: 'many' })).toEqual([
      { input: 'count', problem: "must be a whole number, got 'many'" },
      { input: 'comment', problem: "must be true or false, got 'maybe'" },
    ]);
    // A required input that is not given is read as '' and its parser says why.
    expect(read(SET, {})).toEqual([{ input: 'count', problem: "must be a whole number, got ''" }]);
  });

  it('reads a set that shares declarations and overrides a default as that set says', () => {
    const PLAN_LIKE = { ...SET, comment: input(parseBoolean, { default: 'true' }) };
    expect(read(PLAN_LIKE, { count: '2' })).toMatchObject({ comment: true });
    expect(read(SET, { count: '2' })).toMatchObject({ comment: false });
  });

  it('lets an error that is not a bad input through: a bug is not an input problem', () => {
    const BROKEN = {
      ...SET,
      count: input((): number => {
        throw new TypeError('bug');
      }),
    };
    expect(() => read(BROKEN, { count: '1' })).toThrow(TypeError);
  });
});

describe('an input checked beside the others', () => {
  const PAIR = {
    label: input((raw) => raw, {
      default: '',
      besides: (raw, set) =>
        raw === '' && (set.list ?? '') === '' ? 'is required without a list' : undefined,
    }),
    list: input((raw) => raw, { default: '' }),
    count: input(number),
  };

  it('reports its problem with the inputs wrong on their own, in the set order', () => {
    expect(read(PAIR, { count: 'x' })).toEqual([
      { input: 'label', problem: 'is required without a list' },
      { input: 'count', problem: "must be a whole number, got 'x'" },
    ]);
    expect(read(PAIR, { list: 'a', count: '1' })).toEqual({ label: '', list: 'a', count: 1 });
  });
});

describe('a set of declared inputs', () => {
  it('lists its names in order, and the ones masked before they are parsed', () => {
    expect(namesOf(SET)).toEqual(['count', 'token', 'repository', 'comment']);
    expect(sensitiveNames(SET)).toEqual(['token']);
  });

  it("gives each input's default text: a text, the run's field, or '' for a required one", () => {
    expect(defaultText(SET.comment, run)).toBe('false');
    expect(defaultText(SET.repository, run)).toBe('acme/agent');
    expect(defaultText(SET.repository, { workspace: '/tmp' })).toBe('');
    expect(defaultText(SET.count, run)).toBe('');
  });
});
