/**
 * A fork's pull request without an api key: CI
 * systems give a fork's runs no secrets, so the key is empty and every input
 * filled from a secret is too. That is a problem of the run, not of a value:
 * it is found on the raw text, before any input is parsed, and it leads the
 * report, ahead of the empty values it causes.
 */
import { isFromFork, type RunDescription } from './run-description.js';

/** Why an empty `api-key` cannot work on this run, and how to skip such runs; undefined when it is not a fork's. */
export function forkRunProblem(apiKey: string, run: RunDescription): string | undefined {
  if (apiKey !== '' || !isFromFork(run)) return undefined;
  const head = run.head?.kind === 'branch' ? run.head.repository : undefined;
  const from = head === null || head === undefined ? 'a deleted fork' : `the fork ${head}`;
  const skip =
    run.skipForks === undefined ? 'Skip runs from forks' : `Skip them with \`${run.skipForks}\``;
  return `is empty: this run is for a pull request from ${from}, and a fork's runs get no secrets, so the step cannot authenticate. ${skip} on the step or the job.`;
}
