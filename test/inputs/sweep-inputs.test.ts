/**
 * The sweep's inputs beside a manifest (src/inputs/sweep-inputs.ts): `{agent}`
 * at most once and only with `agents`, `agents` only with `{agent}` in name-pattern, each an
 * error naming the input; and the matching, of whole names against each agent's exact name,
 * never a wildcard, even for names that hold `-pr-`, digits or a regular expression's
 * characters.
 */
import { describe, expect, it } from 'vitest';
import { readInputs } from '../../src/inputs/declare.ts';
import { InputError } from '../../src/inputs/errors.ts';
import {
  agentPatterns,
  environmentOf,
  matchesOf,
  searchTexts,
  sweepRequest,
  type SweepRequest,
} from '../../src/inputs/sweep-inputs.ts';
import { SWEEP_INPUTS } from '../../src/sweep.ts';

const run = { workspace: process.cwd() } as never;
const MANIFEST = JSON.stringify({
  agents: { support: {}, research: { name: 'research-assistant' } },
});

function request(given: Record<string, string>): SweepRequest {
  const values: Record<string, string> = { 'api-url': 'http://127.0.0.1:9', ...given };
  return sweepRequest(readInputs(SWEEP_INPUTS, (name) => values[name], run));
}

/** The problems of the inputs, as `input: problem`. */
function problems(given: Record<string, string>): string[] {
  try {
    request(given);
  } catch (error) {
    if (error instanceof InputError) {
      return error.problems.map(({ input, problem }) => `${input}: ${problem}`);
    }
    throw error;
  }
  return [];
}

describe("the sweep's inputs with agents", () => {
  it("takes the manifest's agents, each with its key and its name", () => {
    const asked = request({ agents: MANIFEST, 'name-pattern': '{agent}-pr-{number}' });
    expect(asked.agents).toEqual([
      { key: 'support', name: 'support' },
      { key: 'research', name: 'research-assistant' },
    ]);
    expect(asked.names.text).toBe('{agent}-pr-{number}');
    expect(asked.layout).toBe('keyed');
    const one = request({ 'name-pattern': 'my-agent-pr-{number}' });
    expect([one.agents, one.layout]).toEqual([[{ key: '', name: '' }], 'flat']);
  });

  it('refuses {agent} without agents, and agents without {agent}, naming both inputs', () => {
    expect(problems({ 'name-pattern': '{agent}-pr-{number}' })).toEqual([
      expect.stringMatching(/^name-pattern: holds \{agent\}, .*give agents/),
    ]);
    expect(problems({ agents: MANIFEST, 'name-pattern': 'my-agent-pr-{number}' })).toEqual([
      expect.stringMatching(
        /^name-pattern: does not hold \{agent\}, and agents is given: .*\{agent\}-pr-\{number\}.*leave agents empty$/,
      ),
    ]);
    expect(
      problems({
        'name-pattern': 'my-agent-pr-{number}',
        'environment-pattern': 'pr-{number}-{agent}',
      }),
    ).toEqual([expect.stringMatching(/^environment-pattern: holds \{agent\}, .*give agents/)]);
  });

  it('takes {agent} at most once, and no other {…}', () => {
    expect(problems({ agents: MANIFEST, 'name-pattern': '{agent}-{agent}-pr-{number}' })).toEqual([
      "name-pattern: may hold {agent} at most once, got '{agent}-{agent}-pr-{number}'",
    ]);
    expect(problems({ agents: MANIFEST, 'name-pattern': '{agents}-pr-{number}' })).toEqual([
      expect.stringMatching(/^name-pattern: /),
    ]);
    expect(
      problems({
        agents: MANIFEST,
        'name-pattern': '{agent}-pr-{number}',
        'environment-pattern': 'preview-{agent}-{agent}-{number}',
      }),
    ).toEqual([
      "environment-pattern: may hold {agent} at most once, got 'preview-{agent}-{agent}-{number}'",
    ]);
  });

  it("names a bad agent's name by its path, and two agents of one name", () => {
    const manifest = JSON.stringify({ agents: { support: { name: ' ' } } });
    expect(problems({ agents: manifest, 'name-pattern': '{agent}-pr-{number}' })).toEqual([
      expect.stringMatching(/^agents\.support\.name: /),
    ]);
    const twins = JSON.stringify({ agents: { support: {}, helper: { name: 'support' } } });
    expect(problems({ agents: twins, 'name-pattern': '{agent}-pr-{number}' })).toEqual([
      "agents: agents support and helper would have one deployment name, 'support': give each its own name",
    ]);
  });
});

describe("the sweep's matching with agents", () => {
  const agents = [
    { key: 'support', name: 'support' },
    { key: 'docs', name: 'docs-pr-1' },
    { key: 'odd', name: 'a.b*(c)$&' },
  ];
  const patterns = agentPatterns(
    request({ agents: MANIFEST, 'name-pattern': '{agent}-pr-{number}' }).names,
    agents,
  );
  const match = (name: string) =>
    matchesOf(patterns, name).map(({ agent, digits }) => `${agent?.key ?? ''}#${digits}`);

  it("matches the manifest's exact names and a number, nothing else", () => {
    expect(match('support-pr-3')).toEqual(['support#3']);
    expect(match('other-pr-3')).toEqual([]);
    expect(match('xsupport-pr-3')).toEqual([]);
    expect(match('support-pr-03')).toEqual([]);
    expect(match('support-pr-3-old')).toEqual([]);
    expect(match('support-pr-')).toEqual([]);
  });

  it('takes an agent name holding -pr- or digits as a whole: never two ways', () => {
    expect(match('docs-pr-1-pr-7')).toEqual(['docs#7']);
    expect(match('docs-pr-7')).toEqual([]);
  });

  it("takes a name's regular expression characters as they are", () => {
    expect(match('a.b*(c)$&-pr-5')).toEqual(['odd#5']);
    expect(match('axb*(c)$&-pr-5')).toEqual([]);
    expect(match('a.bbb(c)$&-pr-5')).toEqual([]);
  });

  it('gives each agent its search and its environment', () => {
    expect(searchTexts(patterns)).toEqual(['support-pr-', 'docs-pr-1-pr-', 'a.b*(c)$&-pr-']);
    const environments = request({
      agents: MANIFEST,
      'name-pattern': '{agent}-pr-{number}',
      'environment-pattern': 'preview-pr-{number}-{agent}',
    }).environments;
    expect(environments && environmentOf(environments, 7, agents[2])).toBe(
      'preview-pr-7-a.b*(c)$&',
    );
  });

  it('reports both agents for a name that two patterns give', () => {
    const both = agentPatterns(
      request({ agents: MANIFEST, 'name-pattern': '{agent}{number}' }).names,
      [
        { key: 'a', name: 'a' },
        { key: 'a1', name: 'a1' },
      ],
    );
    expect(matchesOf(both, 'a12').map(({ agent, digits }) => [agent?.key, digits])).toEqual([
      ['a', '12'],
      ['a1', '2'],
    ]);
  });
});
