/**
 * Golden files: what the bundles write on a representative run, with what varies from run to
 * run (random ids, times, ports, temporary folders, durations) normalised, kept under
 * test/golden/ and compared byte for byte. They prove that a change which should not change
 * what users read did not (STYLE.md, "Prove a refactor with golden files").
 *
 * `expectGolden(name, text)` compares; `UPDATE_GOLDEN=1 npx vitest run test/golden` writes
 * them. A golden file changes only deliberately, in a commit of its own that says why.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { CliRun } from '../cli/run-cli.ts';
import type { Emulator } from '../emulator/emulator.ts';
import type { GitHubEmulator } from '../emulator/github.ts';
import { ROOT } from './action.ts';
import { DEPLOYMENT_ID, INTEGRATION, REVISION_A, REVISION_B, TENANT_ID } from './ids.ts';
import { parseOutputFile, type ActionRun } from './run-action.ts';

const GOLDEN_DIR = path.join(ROOT, 'test', 'golden');

/** The fixtures' ids, kept as they are wherever they appear. */
const FIXED_IDS = [INTEGRATION, DEPLOYMENT_ID, TENANT_ID, REVISION_A, REVISION_B];

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HEX40 = /\b[0-9a-f]{40}\b/g;
const ISO_TIME = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?/g;
const LOCAL_PORT = /\b(127\.0\.0\.1|localhost|\[::1\]):\d+/g;
const TEMP_DIR = /\/tmp\/[A-Za-z0-9._-]+/g;
const SECONDS = /\b\d+\.\d s\b/g;
const ELAPSED_JSON = /"elapsed_s":\s*[\d.]+/g;
const DELIMITER = /ghadelimiter_[0-9a-f-]+/g;

/**
 * A value that is not random (a fixture's id or commit) is kept as it is: one made of runs of a
 * repeated character (`1111…`, `aaaa1111bbbb…`: three quarters of it at least, in runs of four or
 * more; a random id has a run of four now and then, never that many), or one the caller names.
 */
function looksFixed(value: string, keep: ReadonlySet<string>): boolean {
  if (keep.has(value.toLowerCase())) return true;
  const hex = value.replaceAll('-', '').toLowerCase();
  const inRuns = (hex.match(/(.)\1{3,}/g) ?? []).join('').length;
  return inRuns >= 0.75 * hex.length;
}

/** Replaces each distinct random value matched by `pattern` with `<label-N>`, N by first appearance. */
function numbered(text: string, pattern: RegExp, label: string, keep: ReadonlySet<string>): string {
  const seen = new Map<string, string>();
  return text.replace(pattern, (value) => {
    if (looksFixed(value, keep)) return value;
    const key = value.toLowerCase();
    let name = seen.get(key);
    if (name === undefined) {
      name = `<${label}-${seen.size + 1}>`;
      seen.set(key, name);
    }
    return name;
  });
}

export interface NormaliseOptions {
  /** Values to keep as they are though they look random (fixture ids, commits). */
  keep?: readonly string[];
  /** Further replacements for one case, applied last. */
  replace?: ReadonlyArray<readonly [RegExp, string]>;
}

/** The text with what varies between two runs of the same case made the same. */
function normalise(text: string, options: NormaliseOptions = {}): string {
  const keep = new Set([...FIXED_IDS, ...(options.keep ?? [])].map((value) => value.toLowerCase()));
  let out = text.replace(DELIMITER, 'ghadelimiter_<delimiter>');
  out = numbered(out, UUID, 'uuid', keep);
  out = numbered(out, HEX40, 'sha', keep);
  out = out
    .replace(ISO_TIME, '<time>')
    .replace(LOCAL_PORT, '$1:<port>')
    .replace(TEMP_DIR, '/tmp/<dir>')
    .replace(ELAPSED_JSON, '"elapsed_s":"<n>"')
    .replace(SECONDS, '<n> s');
  for (const [pattern, replacement] of options.replace ?? []) {
    out = out.replace(pattern, replacement);
  }
  return out;
}

/** One titled section of a golden file. */
export function section(title: string, body: string | undefined): string {
  if (body === undefined) return '';
  const text = body.endsWith('\n') || body === '' ? body : `${body}\n`;
  return `=== ${title} ===\n${text}`;
}

/**
 * The outputs as the runner reads them once the step is over: the last value of each, by name.
 * (When each was written varies with how fast GitHub answers, the record's id above all, and no
 * one sees it: later steps read the outputs after the step.)
 */
function outputsAsRead(outputFile: string): string {
  const outputs = parseOutputFile(outputFile);
  return Object.keys(outputs)
    .sort()
    .map((name) => `--- ${name}\n${outputs[name]}\n`)
    .join('');
}

/** What an action run wrote: its exit, its log, its outputs (as read) and its summary. */
export function actionParts(run: ActionRun): string {
  return [
    section('exit', String(run.exitCode)),
    section('log', run.stdout),
    section('stderr', run.stderr === '' ? undefined : run.stderr),
    section('outputs', outputsAsRead(run.outputFile)),
    section('GITHUB_STEP_SUMMARY', run.summary),
  ].join('');
}

/** What a command run wrote: its exit, stdout, stderr and the files it was asked to read back. */
export function cliParts(run: CliRun): string {
  const files = Object.keys(run.files)
    .sort()
    .map((name) => section(`file ${name}`, run.files[name]));
  return [
    section('exit', String(run.exitCode)),
    section('stdout', run.stdout),
    section('stderr', run.stderr),
    ...files,
  ].join('');
}

/**
 * What the service was asked to change: every request but a GET, one line each (method, path,
 * query, body as JSON), sorted, since agents run at once and their order varies.
 */
export function serviceChanges(emu: Emulator): string {
  const lines = emu.requests
    .filter((request) => request.method !== 'GET')
    .map((request) => {
      const query = new URLSearchParams(request.query).toString();
      const body = request.body === undefined ? '' : ` ${JSON.stringify(request.body)}`;
      return `${request.method} ${request.path}${query === '' ? '' : `?${query}`}${body}`;
    })
    .sort();
  return section('service changes', lines.join('\n'));
}

/**
 * What GitHub was told: the comments (by pull request, in order) and the deployment records
 * (by environment, then ref) with their statuses in order.
 */
export function gitHubParts(github: GitHubEmulator): string {
  const comments = github.comments.map(
    (comment) =>
      `--- comment on ${comment.owner}/${comment.repo}#${comment.issue} by ${comment.user.login}\n${comment.body}\n`,
  );
  const records = [...github.deployments]
    .sort((a, b) => `${a.environment}\0${a.ref}`.localeCompare(`${b.environment}\0${b.ref}`))
    .map((record) => {
      const fields = Object.fromEntries(
        Object.entries(record).filter(([key]) => !RECORD_VARIES.has(key)),
      );
      const shown = record.statuses.map((status) => {
        const { id, created_at, ...same } = status;
        void id;
        void created_at;
        return `  status ${JSON.stringify(same)}`;
      });
      return `--- record ${JSON.stringify(fields)}\n${shown.map((line) => `${line}\n`).join('')}`;
    });
  return [
    section('github comments', comments.join('')),
    section('github records', records.join('')),
  ].join('');
}

/** A record's fields that vary between runs (its statuses are shown apart). */
const RECORD_VARIES = new Set(['id', 'created_at', 'creator', 'statuses']);

/** Compares `text`, normalised, with test/golden/`name`; UPDATE_GOLDEN=1 writes it instead. */
export function expectGolden(name: string, text: string, options: NormaliseOptions = {}): void {
  const file = path.join(GOLDEN_DIR, name);
  const actual = normalise(text, options);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) {
    throw new Error(
      `No golden file ${name}: record it with UPDATE_GOLDEN=1 (test/golden/README.md).`,
    );
  }
  const expected = readFileSync(file, 'utf8');
  if (actual !== expected) {
    // What this run wrote, beside the golden file's path under .tmp/, to diff by hand.
    const seen = path.join(ROOT, '.tmp', 'golden-actual', name);
    mkdirSync(path.dirname(seen), { recursive: true });
    writeFileSync(seen, actual);
  }
  expect(actual, `test/golden/${name} (this run's: .tmp/golden-actual/${name})`).toBe(expected);
}
