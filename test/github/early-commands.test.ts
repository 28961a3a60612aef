/**
 * The workflow commands a step writes before it loads @actions/core (src/github/early-commands.ts)
 * are byte for byte what @actions/core writes for the same call: the runner reads both.
 */
import * as core from '@actions/core';
import { afterEach, describe, expect, it } from 'vitest';
import { early } from '../../src/github/early-commands.ts';

/** What `write` prints on standard output. */
function printed(write: () => void): string {
  const chunks: string[] = [];
  const original = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  try {
    write();
  } finally {
    process.stdout.write = original;
  }
  return chunks.join('');
}

/** A message with every character a workflow command escapes, and one it does not. */
const TRICKY = '100% done\r\nnext line: a::b, c=d';

describe('early workflow commands', () => {
  afterEach(() => {
    process.exitCode = undefined;
    delete process.env.INPUT_MY_INPUT;
  });

  it('masks, logs for debugging and fails as @actions/core does', () => {
    expect(printed(() => early.setSecret(TRICKY))).toBe(printed(() => core.setSecret(TRICKY)));
    expect(printed(() => early.debug(TRICKY))).toBe(printed(() => core.debug(TRICKY)));
    const ours = printed(() => early.setFailed(TRICKY));
    expect(process.exitCode).toBe(1);
    process.exitCode = undefined;
    expect(ours).toBe(printed(() => core.setFailed(TRICKY)));
    expect(process.exitCode).toBe(1);
    expect(ours).toBe('::error::100%25 done%0D%0Anext line: a::b, c=d\n');
  });

  it('reads an input as @actions/core does: spaces in its name, surrounding space trimmed', () => {
    process.env.INPUT_MY_INPUT = '  value  ';
    expect(early.getInput('my input')).toBe(core.getInput('my input'));
    expect(early.getInput('my input')).toBe('value');
    expect(early.getInput('absent')).toBe(core.getInput('absent'));
  });
});
