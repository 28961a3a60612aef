/**
 * The stderr log of a deploy of several agents: each line of an agent after
 * its key, its headings too; in CI its waiting lines likewise; on a
 * terminal one live line for every agent that waits, which stays while
 * another agent writes and goes once no agent waits.
 */
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { StderrLog } from '../../src/cli/log.ts';
import type { RunEvent } from '../../src/run/ports/events.ts';

function capture(terminal: boolean) {
  const writes: string[] = [];
  let now = 0;
  const log = new StderrLog(
    { write: (text: string) => writes.push(text), isTTY: terminal },
    { terminal, colour: terminal, debug: false, redact: (text) => text, now: () => now },
  );
  return {
    log,
    text: () => writes.join(''),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const heading = (agent: string): RunEvent => ({
  kind: 'phase',
  phase: 'find',
  message: `Looking for deployment '${agent}'`,
  grouped: true,
  agent,
});
const info = (agent: string, message: string): RunEvent => ({
  kind: 'log',
  level: 'info',
  message,
  agent,
});
/** A wait's event as the core sends it: what the agent waits for, in a word or two too when it has them. */
const waiting = (agent: string, what: string, soFar: number, briefly?: string): RunEvent => ({
  kind: 'waiting',
  waitingFor: what,
  ...(briefly === undefined ? {} : { briefly }),
  elapsedMs: soFar * 1000,
  agent,
});

describe('the log of several agents in CI', () => {
  it("writes each agent's lines, headings and waiting lines after its key", () => {
    const { log, text } = capture(false);
    log.view(heading('support'));
    log.view(heading('research'));
    log.view({ kind: 'log', level: 'warning', message: 'drift in secrets', agent: 'support' });
    log.view(waiting('research', 'status is DEPLOYING, not READY', 30));
    log.view(info('research', "'research' is live"));
    log.info('a line of the manifest');
    expect(text()).toBe(
      [
        "[support] == Looking for deployment 'support'",
        "[research] == Looking for deployment 'research'",
        '[support] warning: drift in secrets',
        '[research] waiting until live: status is DEPLOYING, not READY (30 s so far)',
        "[research] 'research' is live",
        'a line of the manifest',
        '',
      ].join('\n'),
    );
  });
});

describe('the log of several agents on a terminal', () => {
  it('keeps one live line for the agents that wait, through the lines of the others', () => {
    const { log, text, advance } = capture(true);
    log.view(waiting('support', 'status is DEPLOYING, not READY', 0, 'DEPLOYING'));
    advance(2000);
    log.view(waiting('research', 'revision r2 is not active yet', 0));
    const draws = () => text().split('\r\u001b[2K').slice(1).map(stripVTControlCharacters);
    // How many are live first, then each agent and what it waits on in short when the core has it.
    expect(draws().at(-1)).toBe(
      '… 0 of 2 live · support: DEPLOYING · research: revision r2 is not active yet (2 s)',
    );
    log.view({ kind: 'wait_over', outcome: 'live', agent: 'support' });
    log.view(info('support', "'support' is live"));
    // support's line is written above the live line, which now holds research alone.
    expect(draws().slice(-2)).toEqual([
      "[support] 'support' is live\n",
      '… 1 of 2 live · research: revision r2 is not active yet (0 s)',
    ]);
    log.view({ kind: 'wait_over', outcome: 'live', agent: 'research' });
    log.view(info('research', "'research' is live"));
    log.close();
    expect(text().endsWith("\r\u001b[2K[research] 'research' is live\n")).toBe(true);
  });
});
