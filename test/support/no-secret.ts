/**
 * "No secret anywhere", checked in one place: no secret value, in any form it takes in text
 * (as it is, inside JSON, inside a URL), whole or cut (any 12 characters of it in a row), in
 * anything a user can read from a run. For the
 * action: what it printed (the `::add-mask::` commands aside, which carry the values to the
 * runner), every value written to GITHUB_OUTPUT, the job summary. For GitHub: the pull request
 * comments, the deployment records (payloads included) and their statuses, and every request
 * the action sent GitHub (path, query, body). For the command: stdout (`--json`, `--events`),
 * stderr and the files it wrote (`--dotenv`, `--summary`). And `expectMaskedFirst`: the runner
 * is told every secret value before the step prints its first line.
 */
import { expect } from 'vitest';
import type { GitHubEmulator } from '../emulator/github.ts';
import type { CliRun } from '../cli/run-cli.ts';
import { printed, type ActionRun } from './run-action.ts';

/** What a user can read after a run: an action's run, GitHub's records, a command's run, or text. */
export type Readable = ActionRun | CliRun | GitHubEmulator | { stdout: string; stderr: string };

/** Any this many characters of a secret in a row are a secret: an excerpt cut mid-value leaks. */
const PIECE = 12;

/** The forms a value takes in text: as it is, inside JSON, inside a URL or a form body. */
function formsOf(value: string): string[] {
  const forms = [
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice('v='.length),
  ];
  return [...new Set(forms)];
}

/** Every form of the value, and every run of PIECE characters of each (the form when shorter). */
function piecesOf(value: string): string[] {
  return formsOf(value).flatMap((form) =>
    form.length <= PIECE
      ? [form]
      : Array.from({ length: form.length - PIECE + 1 }, (_, at) => form.slice(at, at + PIECE)),
  );
}

function isActionRun(readable: Readable): readable is ActionRun {
  return 'outputFile' in readable;
}

function isGitHub(readable: Readable): readable is GitHubEmulator {
  return 'comments' in readable && 'deployments' in readable;
}

/** Each place a user reads, by name, with its text. */
export function placesOf(readable: Readable): [string, string][] {
  if (isGitHub(readable)) {
    return [
      ...readable.comments.map((comment): [string, string] => [
        `comment ${comment.id}`,
        comment.body,
      ]),
      ...readable.deployments.map((record): [string, string] => [
        `GitHub deployment ${record.id} (its payload and statuses)`,
        JSON.stringify(record),
      ]),
      ...readable.requests.map((request): [string, string] => [
        `request to GitHub ${request.method} ${request.path}`,
        JSON.stringify({ path: request.path, query: request.query, body: request.body }),
      ]),
    ];
  }
  if (isActionRun(readable)) {
    return [
      ['the log (stdout and stderr, ::add-mask:: aside)', printed(readable)],
      ['GITHUB_OUTPUT', readable.outputFile],
      ['the job summary', readable.summary],
    ];
  }
  const files = 'files' in readable ? Object.entries(readable.files) : [];
  return [
    ['stdout', readable.stdout],
    ['stderr', readable.stderr],
    ...files.map(([file, text]): [string, string] => [`the file ${file}`, text]),
  ];
}

/**
 * No form of any of `secrets`, nor any PIECE characters of one in a row (a value cut short is
 * still a secret), in any place of `readables`; a failure names each secret found and where.
 * Give every source the run has: the run itself, and GitHub's emulator where the step talks
 * to GitHub.
 */
export function expectNoSecret(secrets: readonly string[], ...readables: Readable[]): void {
  expect(readables.length).toBeGreaterThan(0);
  const found: string[] = [];
  for (const [place, text] of readables.flatMap(placesOf)) {
    for (const secret of secrets) {
      const piece = piecesOf(secret).find((form) => text.includes(form));
      if (piece !== undefined) found.push(`${secret} in ${place} (${piece})`);
    }
  }
  expect(found).toEqual([]);
}

/**
 * Every one of `secrets` given to the runner (`::add-mask::VALUE`) before the first line that is
 * not an `::add-mask::` command: masked before anything could print it.
 */
export function expectMaskedFirst(run: ActionRun, secrets: readonly string[]): void {
  const lines = run.stdout.split('\n');
  const firstOther = lines.findIndex((line) => !line.startsWith('::add-mask::'));
  const masked = lines.slice(0, firstOther).map((line) => line.slice('::add-mask::'.length));
  expect(secrets.filter((secret) => !masked.includes(secret))).toEqual([]);
}

/**
 * `secret` given to the runner (`::add-mask::VALUE`) before the first line holding `marker`
 * (an agent's `[key]`): masked before anything of that agent's run could print it.
 */
export function expectMaskedBefore(run: ActionRun, secret: string, marker: string): void {
  const lines = run.stdout.split('\n');
  const mask = lines.indexOf(`::add-mask::${secret}`);
  const first = lines.findIndex((line) => line.includes(marker));
  expect(mask, `::add-mask:: of ${secret}`).toBeGreaterThan(-1);
  expect(first, `a line holding ${marker}`).toBeGreaterThan(-1);
  expect(mask, `::add-mask:: of ${secret} before ${marker}'s first line`).toBeLessThan(first);
}
