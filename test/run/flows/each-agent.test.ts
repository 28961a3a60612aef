import { describe, expect, it } from 'vitest';
import { failureOfAgents } from '../../../src/run/flows/each-agent.ts';

describe('failureOfAgents', () => {
  it("keeps each reason's further lines under its agent's item", () => {
    const { failure } = failureOfAgents(
      [{ key: 'support' }, { key: 'research' }, { key: 'triage' }],
      [
        { failure: 'GET /repos failed: 401 Unauthorized\nCheck DEPLOY_API_KEY.' },
        {},
        { failure: 'not live after 3 s' },
      ],
    );

    expect(failure).toBe(
      [
        '2 of 3 agents failed:',
        '- support: GET /repos failed: 401 Unauthorized',
        '  Check DEPLOY_API_KEY.',
        '- triage: not live after 3 s',
      ].join('\n'),
    );
  });

  it('is no failure when every agent succeeded', () => {
    expect(failureOfAgents([{ key: 'support' }], [{}]).failure).toBeUndefined();
  });
});
