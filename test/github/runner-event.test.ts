/** The event as the runner hands it over, read without @actions/github. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunnerEvent } from '../../src/github/runner-event.ts';

describe('readRunnerEvent', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'event-'));

  it('reads the name, ref, sha and the payload file, as @actions/github’s context does', () => {
    const file = path.join(directory, 'event.json');
    writeFileSync(file, JSON.stringify({ pull_request: { number: 7 } }));
    expect(
      readRunnerEvent({
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_REF: 'refs/pull/7/merge',
        GITHUB_SHA: 'abc',
        GITHUB_EVENT_PATH: file,
      }),
    ).toEqual({
      name: 'pull_request',
      ref: 'refs/pull/7/merge',
      sha: 'abc',
      payload: { pull_request: { number: 7 } },
    });
  });

  it('goes on without a payload it cannot read, and says why', () => {
    const file = path.join(directory, 'broken.json');
    writeFileSync(file, '{not json');
    const event = readRunnerEvent({ GITHUB_EVENT_PATH: file });
    expect(event.payload).toEqual({});
    expect(event.problem).toContain('broken.json');
    expect(
      readRunnerEvent({ GITHUB_EVENT_PATH: path.join(directory, 'missing.json') }).payload,
    ).toEqual({});
    expect(readRunnerEvent({})).toEqual({ name: '', ref: '', sha: '', payload: {} });
  });
});
