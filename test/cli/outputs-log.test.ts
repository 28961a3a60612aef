/**
 * What the command writes for machines (--json, --dotenv) and for people
 * (the stderr log: a line per status change in CI, a live line on a
 * terminal, colour only there and never with NO_COLOR).
 */
import { EventEmitter } from 'node:events';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { StderrLog, wantsColour } from '../../src/cli/log.ts';
import { dotenvName, outputsDotenv, outputsJson } from '../../src/cli/outputs.ts';
import { screenWidth } from '../../src/cli/screen-width.ts';
import type { RunEvent } from '../../src/run/ports/events.ts';

const OUTPUTS = {
  'deployment-id': 'dep-1',
  status: 'READY',
  created: false,
  live: true,
  'commit-sha': '',
  drift: [{ field: 'secrets.A', wanted: '***', live: '***' }],
  deployment: { id: 'dep-1', secrets: [{ name: 'A', value: '***' }] },
  'repo-url': 'https://github.com/acme/agent',
  'github-deployment-id': '77',
};

describe('--json', () => {
  it('has created and live as booleans, drift as an array, deployment as an object', () => {
    const json = outputsJson(OUTPUTS);
    expect(json).toEqual({
      'deployment-id': 'dep-1',
      status: 'READY',
      created: false,
      live: true,
      'commit-sha': '',
      'repo-url': 'https://github.com/acme/agent',
      drift: [{ field: 'secrets.A', wanted: '***', live: '***' }],
      deployment: { id: 'dep-1', secrets: [{ name: 'A', value: '***' }] },
    });
    expect(Object.keys(json)[0]).toBe('deployment-id');
  });

  it('leaves out the outputs about GitHub, and adds error when the run failed', () => {
    const json = outputsJson(OUTPUTS, 'it failed');
    expect(json).not.toHaveProperty('github-deployment-id');
    expect(json.error).toBe('it failed');
  });
});

describe('--dotenv', () => {
  it('names outputs DEPLOYMENT_*, deployment-id as DEPLOYMENT_ID', () => {
    expect(dotenvName('deployment-id')).toBe('DEPLOYMENT_ID');
    expect(dotenvName('commit-sha')).toBe('DEPLOYMENT_COMMIT_SHA');
    expect(dotenvName('dashboard-url')).toBe('DEPLOYMENT_DASHBOARD_URL');
    expect(dotenvName('action')).toBe('DEPLOYMENT_PLAN_ACTION');
    expect(dotenvName('changes')).toBe('DEPLOYMENT_CHANGES');
  });

  it("writes KEY=value lines GitLab's dotenv report accepts: no blank, comment, quote or multi-line value", () => {
    const { text, skipped } = outputsDotenv({ ...OUTPUTS, url: 'https://agent.example/x#y' });
    expect(text).toBe(
      [
        'DEPLOYMENT_ID=dep-1',
        'DEPLOYMENT_STATUS=READY',
        'DEPLOYMENT_CREATED=false',
        'DEPLOYMENT_LIVE=true',
        'DEPLOYMENT_REPO_URL=https://github.com/acme/agent',
        'DEPLOYMENT_URL=https://agent.example/x#y',
        '',
      ].join('\n'),
    );
    expect(skipped).toEqual([]);
    for (const line of text.trimEnd().split('\n')) {
      expect(line).toMatch(/^[A-Z_][A-Z0-9_]*=[^\n"']*$/);
    }
  });

  it('leaves out a value that would break a line, and says so', () => {
    const { text, skipped } = outputsDotenv({ status: 'READY\nINJECTED=1' });
    expect(text).toBe('');
    expect(skipped).toEqual([
      { name: 'status', variable: 'DEPLOYMENT_STATUS', reason: 'it has a line break' },
    ]);
  });

  it('leaves out a value GitLab would expand, change or read differently from dotenv', () => {
    const { text, skipped } = outputsDotenv({
      status: 'READY',
      url: 'https://x.example/?t=$CI_JOB_TOKEN',
      'repo-ref': 'a b',
      'dashboard-url': '"https://x.example/"',
    });
    expect(text).toBe('DEPLOYMENT_STATUS=READY\n');
    expect(skipped.map(({ variable }) => variable)).toEqual([
      'DEPLOYMENT_REPO_REF',
      'DEPLOYMENT_URL',
      'DEPLOYMENT_DASHBOARD_URL',
    ]);
  });

  it('stays under the 5 KB GitLab accepts', () => {
    const { text, skipped } = outputsDotenv({ status: 'READY', url: 'x'.repeat(6000) });
    expect(Buffer.byteLength(text)).toBeLessThan(5 * 1024);
    expect(skipped).toEqual([
      {
        name: 'url',
        variable: 'DEPLOYMENT_URL',
        reason: 'the file would reach the 5 KB GitLab accepts',
      },
    ]);
  });

  it('past 5 KB leaves out the longest line first, the last of equal ones', () => {
    const x = (count: number) => 'x'.repeat(count);
    // DEPLOYMENT_REPO_URL=… is the longest line: it goes, and the rest fits.
    const longest = outputsDotenv({ status: 'READY', 'repo-url': x(3000), url: x(3000) });
    expect(longest.skipped.map(({ name }) => name)).toEqual(['repo-url']);
    // Three lines of 2016 bytes each: the last of them goes.
    const equal = outputsDotenv({ url: x(2000), live: x(1999), status: x(1997) });
    expect(equal.text.split('\n').map((line) => line.length)).toEqual([2015, 2015, 0]);
    expect(equal.skipped.map(({ name }) => name)).toEqual(['url']);
  });
});

function capture(terminal: boolean, colour = false) {
  const writes: string[] = [];
  let now = 0;
  const log = new StderrLog(
    { write: (text: string) => writes.push(text), isTTY: terminal },
    {
      terminal,
      colour,
      debug: false,
      redact: (text) => text.replaceAll('s3cret-value', '***'),
      now: () => now,
    },
  );
  return {
    log,
    text: () => writes.join(''),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** The core's `waiting` event: what the wait waits for, `soFar` seconds in. */
const waiting = (what: string, soFar: number, note?: string): RunEvent => ({
  kind: 'waiting',
  waitingFor: what,
  elapsedMs: soFar * 1000,
  ...(note === undefined ? {} : { note }),
});

describe('the log in CI (no terminal)', () => {
  it("writes each of the core's waiting lines (at a change, or the heartbeat), as a person reads it", () => {
    const { log, text } = capture(false);
    log.view(waiting('status is DEPLOYING, not READY', 0));
    log.view(waiting('status is DEPLOYING, not READY', 30));
    log.view(waiting('revision r2 is not active yet', 36));
    log.view(
      waiting(
        'revision r2 is not active yet',
        38,
        'the service asked to slow down (429): next check in 8.0 s',
      ),
    );
    log.info("'agent' is live");
    expect(text()).toBe(
      [
        'waiting until live: status is DEPLOYING, not READY (0 s so far)',
        'waiting until live: status is DEPLOYING, not READY (30 s so far)',
        'waiting until live: revision r2 is not active yet (36 s so far)',
        'waiting until live: revision r2 is not active yet; the service asked to slow down (429): next check in 8.0 s (38 s so far)',
        "'agent' is live",
        '',
      ].join('\n'),
    );
  });

  it('redacts every line, and never writes a line a GitHub runner would take for a command', () => {
    const { log, text } = capture(false);
    log.warning('the key s3cret-value was refused');
    log.info('::set-output name=x::y');
    expect(text()).toBe('warning: the key *** was refused\n[text] ::set-output name=x::y\n');
  });

  it('has no colour and no control sequence', () => {
    const { log, text } = capture(false);
    log.error('failed');
    log.view(waiting('status is DEPLOYING, not READY', 0));
    // eslint-disable-next-line no-control-regex
    expect(text()).not.toMatch(/\u001b|\r/);
  });
});

describe('the log on a terminal', () => {
  it('keeps one live line with the status and the elapsed time', () => {
    const { log, text, advance } = capture(true);
    log.view(waiting('status is DEPLOYING, not READY', 0));
    advance(3000);
    log.view(waiting('status is DEPLOYING, not READY', 3));
    advance(62_000);
    log.view(waiting('revision r2 is not active yet', 65));
    log.info("'agent' is live");
    log.close();
    const screen = text();
    expect(screen).toContain(
      '\r\u001b[2K… waiting until live: status is DEPLOYING, not READY (0 s)',
    );
    expect(screen).toContain('waiting until live: status is DEPLOYING, not READY (3 s)');
    expect(screen).toContain('waiting until live: revision r2 is not active yet (1 min 05 s)');
    // The live line is cleared, not left behind, when the run goes on.
    expect(screen.endsWith("\r\u001b[2K'agent' is live\n")).toBe(true);
    expect(screen.split('\n')).toHaveLength(2);
  });

  it('cuts the live line to the width in screen columns, and redraws it to a new width on a resize', () => {
    const writes: string[] = [];
    const stream = Object.assign(new EventEmitter(), {
      write: (text: string) => writes.push(text),
      isTTY: true,
      columns: 40,
    });
    const log = new StderrLog(stream, {
      terminal: true,
      colour: true,
      debug: false,
      redact: (text) => text,
      now: () => 0,
    });
    const draws = () => writes.join('').split('\r\u001b[2K').slice(1).map(stripVTControlCharacters);
    log.view(waiting('the latest revision is for commit 111111111111 of ブランチ 🚀', 0));
    expect(draws().at(-1)).toBe('… waiting until live: the latest… (0 s)');
    expect(screenWidth(draws().at(-1) ?? '')).toBe(39);

    stream.columns = 30;
    stream.emit('resize');
    expect(draws().at(-1)).toBe('… waiting until live: the la…');
    expect(screenWidth(draws().at(-1) ?? '')).toBeLessThanOrEqual(29);

    stream.columns = 120;
    stream.emit('resize');
    expect(draws().at(-1)).toBe(
      '… waiting until live: the latest revision is for commit 111111111111 of ブランチ 🚀 (0 s)',
    );
    expect(writes.join('')).not.toContain('\n');

    log.close();
    expect(stream.listenerCount('resize')).toBe(0);
  });

  it('colours only when asked', () => {
    const plain = capture(true, false);
    plain.log.error('failed');
    expect(plain.text()).toBe('error: failed\n');
    const coloured = capture(true, true);
    coloured.log.error('failed');
    expect(coloured.text()).toBe('\u001b[31merror:\u001b[0m failed\n');
  });
});

describe('wantsColour', () => {
  it('on a terminal, unless NO_COLOR is set and not empty', () => {
    expect(wantsColour(true, {})).toBe(true);
    expect(wantsColour(true, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColour(true, { NO_COLOR: '' })).toBe(true);
    expect(wantsColour(false, {})).toBe(false);
  });
});
