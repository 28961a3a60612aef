/**
 * What every command sets up (src/cli/session.ts), in-process with a world
 * whose signals the test sends: the first SIGINT or SIGTERM stops the run
 * and says so, a second quits at once with 130 after what must still be
 * said; the secrets read are redacted from the log and the stream.
 */
import { describe, expect, it } from 'vitest';
import { openSession } from '../../src/cli/session.ts';
import type { CliWorld } from '../../src/cli/world.ts';

function fakeWorld() {
  let handler: ((signal: string) => void) | undefined;
  const stderr: string[] = [];
  const stdout: string[] = [];
  const exits: number[] = [];
  const world: CliWorld = {
    args: [],
    env: {},
    cwd: process.cwd(),
    stdout: { write: (text: string) => stdout.push(text) },
    stderr: { write: (text: string) => stderr.push(text) },
    readFile: () => '',
    writeFile: () => undefined,
    version: () => '0.0.0',
    packageDir: process.cwd(),
    onSignal: (given) => {
      handler = given;
      return () => {
        handler = undefined;
      };
    },
    exit: (code) => {
      exits.push(code);
    },
  };
  const send = (signal: string) => {
    handler?.(signal);
  };
  return { world, send, stderr, stdout, exits, listening: () => handler !== undefined };
}

describe('a session', () => {
  it('stops on the first signal and says so; quits at once with 130 on the second', async () => {
    const fake = fakeWorld();
    const session = openSession([], fake.world);
    const said: string[] = [];

    await session.interruptible(
      () => {
        fake.send('SIGINT');
        expect(session.signal.aborted).toBe(true);
        expect(fake.exits).toEqual([]);
        fake.send('SIGINT');
        return Promise.resolve();
      },
      (signal) => said.push(signal),
    );

    expect(fake.stderr.join('')).toContain('received SIGINT: stopping (again to quit at once)');
    expect(said).toEqual(['SIGINT']);
    expect(fake.exits).toEqual([130]);
  });

  it('listens only while its work runs', async () => {
    const fake = fakeWorld();
    const session = openSession([], fake.world);
    expect(fake.listening()).toBe(false);

    await session.interruptible(() => {
      expect(fake.listening()).toBe(true);
      return Promise.resolve();
    });

    expect(fake.listening()).toBe(false);
    fake.send('SIGTERM');
    expect(session.signal.aborted).toBe(false);
  });

  it('quits on a second signal without a quitting hook too (list and repos)', async () => {
    const fake = fakeWorld();
    const session = openSession([], fake.world);

    await session.interruptible(() => {
      fake.send('SIGTERM');
      fake.send('SIGTERM');
      return Promise.resolve();
    });

    expect(fake.exits).toEqual([130]);
    expect(fake.stderr.join('')).toContain('received SIGTERM: stopping');
  });

  it('redacts the secrets read from its warnings, in the log and in the stream', () => {
    const fake = fakeWorld();
    const session = openSession(['hunter2-secret'], fake.world, { events: true });

    session.warn('the key hunter2-secret was refused');

    expect(fake.stderr.join('')).toContain('the key *** was refused');
    const line = JSON.parse(fake.stdout.join('')) as Record<string, unknown>;
    expect(line).toMatchObject({ event: 'warn', message: 'the key *** was refused' });
    expect(fake.stdout.join('') + fake.stderr.join('')).not.toContain('hunter2');
  });

  it('has no stream unless asked for one', () => {
    const fake = fakeWorld();
    expect(openSession([], fake.world).events).toBeUndefined();
  });
});
