/**
 * A fork's runs get no secrets, so the key is empty and every input filled from a secret too:
 * a problem of the run, found on the raw text, leading the report ahead of the empty values.
 */
import { isFromFork, type RunDescription } from './run-description.js';

export function forkRunProblem(apiKey: string, run: RunDescription): string | undefined {
  if (apiKey !== '' || !isFromFork(run)) return undefined;
  const head = run.head?.kind === 'branch' ? run.head.repository : undefined;
  const from = head === null || head === undefined ? 'a deleted fork' : `the fork ${head}`;
  const skip =
    run.skipForks === undefined ? 'Skip runs from forks' : `Skip them with \`${run.skipForks}\``;
  return `is empty: this run is for a pull request from ${from}, and a fork's runs get no secrets, so the step cannot authenticate. ${skip} on the step or the job.`;
}
