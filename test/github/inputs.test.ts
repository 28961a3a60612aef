/** The GitHub-only inputs: declared like the core's, checked before any request. */
import { describe, expect, it } from 'vitest';
import { INPUT_NAMES, INPUTS } from '../../src/inputs/core-inputs.ts';
import {
  ENVIRONMENT_NAME_LIMIT,
  GITHUB_INPUT_NAMES,
  GITHUB_INPUTS,
  GITHUB_OUTPUT_NAMES,
  gitHubSettings,
} from '../../src/github/inputs.ts';
import { readInputs } from '../../src/inputs/declare.ts';
import { InputError } from '../../src/inputs/errors.ts';
import type { RunDescription } from '../../src/inputs/run-description.ts';

const run: RunDescription = { workspace: '/tmp' };

/** The GitHub inputs read by the one reader: the settings, or every problem. */
function read(values: Record<string, string>) {
  try {
    return {
      ok: true,
      settings: gitHubSettings(readInputs(GITHUB_INPUTS, (name) => values[name], run)),
    };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { ok: false, problems: error.problems };
  }
}

describe('GITHUB_INPUTS', () => {
  it('declares github-token (sensitive), environment and pr-comment, in that order', () => {
    expect(GITHUB_INPUT_NAMES).toEqual(['github-token', 'environment', 'pr-comment']);
    expect(GITHUB_INPUTS['github-token']).toMatchObject({
      sensitive: true,
      default: '${{ github.token }}',
    });
    expect(GITHUB_INPUTS.environment).toMatchObject({ sensitive: false, default: '' });
    expect(GITHUB_INPUTS['pr-comment']).toMatchObject({ sensitive: false, default: 'false' });
    expect(GITHUB_OUTPUT_NAMES).toEqual(['github-deployment-id']);
  });

  it('shares no name with the core inputs', () => {
    expect(GITHUB_INPUT_NAMES.filter((name) => INPUT_NAMES.includes(name as never))).toEqual([]);
  });
});

describe('the GitHub inputs, read', () => {
  it('reads the settings', () => {
    expect(
      read({ 'github-token': 'ghs_x', environment: 'preview-pr-7', 'pr-comment': 'true' }),
    ).toEqual({
      ok: true,
      settings: { token: 'ghs_x', environment: 'preview-pr-7', comment: true },
    });
    expect(read({})).toEqual({
      ok: true,
      settings: { token: '', environment: '', comment: false },
    });
  });

  it('names every bad input: pr-comment not a boolean, an environment GitHub refuses', () => {
    const long = 'e'.repeat(ENVIRONMENT_NAME_LIMIT + 1);
    expect(read({ 'pr-comment': 'yes please', environment: long })).toEqual({
      ok: false,
      problems: [
        { input: 'environment', problem: 'is 256 characters long; GitHub takes at most 255' },
        { input: 'pr-comment', problem: "must be true or false, got 'yes please'" },
      ],
    });
    expect(read({ environment: 'e'.repeat(ENVIRONMENT_NAME_LIMIT) }).ok).toBe(true);
    for (const bad of ['a\nb', 'a\u0007b', 'a\u2028b']) {
      const result = read({ environment: bad });
      expect(result).toMatchObject({ ok: false, problems: [{ input: 'environment' }] });
    }
  });

  it('with agents, an environment holding {agent} twice is an error naming it', () => {
    const set = { ...GITHUB_INPUTS, agents: INPUTS.agents };
    const problemsOf = (values: Record<string, string>) => {
      try {
        readInputs(set, (name) => values[name], run);
        return [];
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        return error.problems.map(({ input, problem }) => `${input}: ${problem}`);
      }
    };
    const agents = 'agents:\n  support: {}\n';
    expect(problemsOf({ agents, environment: 'preview-{agent}-{agent}' })).toEqual([
      "environment: holds {agent} 2 times: an environment holds {agent} at most once, which each agent's name fills (like preview-{agent})",
    ]);
    expect(problemsOf({ agents, environment: 'preview-{agent}' })).toEqual([]);
    expect(problemsOf({ agents, environment: 'production' })).toEqual([]);
  });

  it('a token on two lines is an error that does not show it', () => {
    const result = read({ 'github-token': 'ghs_secret\nmore' });
    expect(result).toEqual({
      ok: false,
      problems: [{ input: 'github-token', problem: 'holds a line break; a token is one line' }],
    });
  });
});
