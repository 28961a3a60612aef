/**
 * The run's event, read as @actions/github's `context` reads it, without
 * loading @actions/github: its entry points load Octokit, which a run that
 * uses no GitHub feature should not pay for at start-up.
 */
import { readFileSync } from 'node:fs';
import type { RunEvent } from './event.js';

/** The event; its payload `{}` when there is none, and `problem` says why it could not be read. */
type RunnerEvent = RunEvent & { problem?: string };

export function readRunnerEvent(env: Record<string, string | undefined>): RunnerEvent {
  const event = {
    name: env.GITHUB_EVENT_NAME ?? '',
    ref: env.GITHUB_REF ?? '',
    sha: env.GITHUB_SHA ?? '',
  };
  const path = env.GITHUB_EVENT_PATH;
  if (!path) return { ...event, payload: {} };
  try {
    return { ...event, payload: JSON.parse(readFileSync(path, 'utf8')) as unknown };
  } catch (error) {
    // @actions/github's context throws on a payload it cannot parse; the run goes on without one.
    const why = error instanceof Error ? error.message : String(error);
    return {
      ...event,
      payload: {},
      problem: `the event payload ${path} could not be read: ${why}`,
    };
  }
}
