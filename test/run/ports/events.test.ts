/**
 * The run's one channel of events (src/run/ports/events.ts): every view sees
 * every event, in order; free text is redacted once, where the event is
 * made, and outputs are not (they are data, redacted by structure); the
 * run's end waits for the work a view started.
 */
import { describe, expect, it } from 'vitest';
import { RunEvents, logView, waitingLine, type RunEvent } from '../../../src/run/ports/events.ts';
import { MemoryLogger } from '../../support/clock.ts';

const redact = (text: string) => text.replaceAll('s3cret-value', '***');

describe('RunEvents', () => {
  it('tells every view every event, in order, its free text redacted where it is made', () => {
    const first: RunEvent[] = [];
    const second: RunEvent[] = [];
    const events = new RunEvents(
      [(event) => void first.push(event), (event) => void second.push(event)],
      redact,
    );

    events.logger.warning('the key s3cret-value was refused');
    events.emit({ kind: 'phase', phase: 'find', message: 'find s3cret-value', grouped: true });
    events.emit({
      kind: 'waiting',
      waitingFor: 'w s3cret-value',
      elapsedMs: 0,
      note: 'n s3cret-value',
    });
    events.emit({
      kind: 'status_change',
      status: 's3cret-value',
      latestRevisionId: null,
      activeRevisionId: null,
      waitingFor: 'status is s3cret-value',
    });

    expect(second).toEqual(first);
    expect(JSON.stringify(first)).not.toContain('s3cret-value');
    expect(first.map((event) => event.kind)).toEqual(['log', 'phase', 'waiting', 'status_change']);
    expect(first[0]).toEqual({ kind: 'log', level: 'warning', message: 'the key *** was refused' });
  });

  it('leaves outputs as they are: they are data, redacted by structure before they are told', () => {
    const seen: RunEvent[] = [];
    const events = new RunEvents([(event) => void seen.push(event)], redact);
    events.emit({ kind: 'outputs', outputs: { status: 'READY', note: 'mentions s3cret-value' } });
    expect(seen).toEqual([
      { kind: 'outputs', outputs: { status: 'READY', note: 'mentions s3cret-value' } },
    ]);
  });

  it("waits, when settled, for the work a view started, and not for a view's failure", async () => {
    let done = false;
    const events = new RunEvents(
      [
        (event) =>
          event.kind === 'log'
            ? new Promise<void>((resolve) =>
                setTimeout(() => {
                  done = true;
                  resolve();
                }, 20),
              )
            : undefined,
        (event) => (event.kind === 'log' ? Promise.reject(new Error('GitHub refused')) : undefined),
      ],
      redact,
    );
    events.logger.info('one line');
    expect(done).toBe(false);
    await events.settled();
    expect(done).toBe(true);
  });
});

describe('logView', () => {
  it('writes log events at their level and the wait as its line, and nothing else', () => {
    const logger = new MemoryLogger();
    const view = logView(logger);
    view({ kind: 'log', level: 'notice', message: 'n' });
    view({ kind: 'log', level: 'debug', message: 'd' });
    view({ kind: 'phase', phase: 'wait', message: 'Waiting', grouped: true });
    view({ kind: 'waiting', waitingFor: 'status is DEPLOYING, not READY', elapsedMs: 31_000 });
    view({ kind: 'outputs', outputs: { status: 'READY' } });
    expect(logger.lines).toEqual([
      'notice: n',
      'debug: d',
      'info: waiting until live: status is DEPLOYING, not READY; 31.0 s so far',
    ]);
    expect(
      waitingLine({ kind: 'waiting', waitingFor: 'x', elapsedMs: 1500, note: 'the service asked' }),
    ).toBe('waiting until live: x; 1.5 s so far; the service asked');
  });
});
