/**
 * The examples of the documentation, read from the documentation itself (as GitHub renders
 * it, `readDocument`), so that a test runs what a reader copies: a workflow step's `with:`
 * with its `${{ … }}` expressions filled in, a config file shown beside it, the command line
 * of a GitLab, Jenkins or CircleCI job run by a shell as that CI runs it.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './action.ts';
import { readDocument } from './github-render.ts';
import { NODE24 } from './run-action.ts';

export interface CodeBlock {
  language: string;
  meta: string;
  text: string;
}

/** Every fenced code block of `file` (a path from the repository's root). */
export function codeBlocks(file: string): CodeBlock[] {
  return readDocument(readFileSync(path.join(ROOT, file), 'utf8')).codeBlocks;
}

/** The one code block of `file` for which `which` holds; an error names the file otherwise. */
export function theBlock(file: string, which: (block: CodeBlock) => boolean): CodeBlock {
  const found = codeBlocks(file).filter(which);
  if (found.length !== 1) {
    throw new Error(`${file}: expected one such example, found ${found.length}`);
  }
  return found[0] as CodeBlock;
}

/** A block whose first line is `first` (e.g. `# .github/workflows/deploy.yml`). */
export const startingWith =
  (first: string) =>
  (block: CodeBlock): boolean =>
    block.text.split('\n', 1)[0] === first;

type Yaml = Record<string, unknown>;

interface WorkflowStep {
  id?: string;
  uses?: string;
  run?: string;
  with?: Yaml;
  env?: Yaml;
}

/** Every step of every job of a workflow, in order. */
export function stepsOf(workflow: string): WorkflowStep[] {
  const jobs = (parse(workflow) as { jobs: Record<string, { steps?: WorkflowStep[] }> }).jobs;
  return Object.values(jobs).flatMap((job) => job.steps ?? []);
}

/** The step of the job `job` that uses `action`. */
export function jobStepUsing(workflow: string, job: string, action: string): WorkflowStep {
  const jobs = (parse(workflow) as { jobs: Record<string, { steps?: WorkflowStep[] }> }).jobs;
  const step = jobs[job]?.steps?.find((candidate) => candidate.uses === action);
  if (step === undefined) throw new Error(`no step of job ${job} uses ${action}`);
  return step;
}

/** The step that uses `action` (e.g. `OWNER/REPO@v1`, `OWNER/REPO/plan@v1`). */
export function stepUsing(workflow: string, action: string): WorkflowStep {
  const step = stepsOf(workflow).find((candidate) => candidate.uses === action);
  if (step === undefined) throw new Error(`no step uses ${action}`);
  return step;
}

/**
 * `${{ expression }}` replaced with its value in `context` (an expression is looked up as
 * written, e.g. `vars.DEPLOY_API_URL`); an expression the context does not hold is an error,
 * so that an example that grows a new one is not run with an empty string in its place.
 */
export function evaluate(text: string, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_whole, expression: string) => {
    const value = context[expression];
    if (value === undefined) throw new Error(`the test gives no value for \${{ ${expression} }}`);
    return value;
  });
}

/** A step's `with:` (or `env:`) as the runner hands it over: strings, expressions evaluated. */
export function evaluated(
  values: Yaml | undefined,
  context: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values ?? {}).map(([key, value]) => [key, evaluate(String(value), context)]),
  );
}

/** The config files a block of kind `yaml config` shows, by the path its first line names. */
export function configFile(file: string, name: string): Record<string, string> {
  const block = theBlock(
    file,
    (candidate) => candidate.meta === 'config' && startingWith(`# ${name}`)(candidate),
  );
  return { [name]: block.text };
}

/** The first `script:` line of the job `job` of a `yaml gitlab-ci` block of `file`. */
export function gitLabScript(file: string, job: string): string {
  const blocks = codeBlocks(file).filter((block) => block.meta === 'gitlab-ci');
  for (const block of blocks) {
    const jobs = parse(block.text) as Record<string, { script?: string[] }>;
    const line = jobs[job]?.script?.[0];
    if (line !== undefined) return line;
  }
  throw new Error(`${file}: no GitLab job '${job}' with a script`);
}

interface CircleCiConfig {
  version?: unknown;
  jobs: Record<string, { steps: (string | { run?: string })[] }>;
  workflows?: Yaml;
}

/** What the docs' `npx --yes SPEC` installs: this repository at its tag (issue 56). */
export const INSTALL_SPEC = 'github:OWNER/REPO#v1';

/** The `run:` line of the CircleCI config of `file` that runs the package. */
export function circleCiRun(file: string): { config: CircleCiConfig; line: string } {
  const block = theBlock(file, (candidate) => candidate.meta === 'circleci');
  const config = parse(block.text) as CircleCiConfig;
  const line = Object.values(config.jobs)
    .flatMap((job) => job.steps)
    .map((step) => (typeof step === 'object' ? step.run : undefined))
    .find((run) => run?.includes(INSTALL_SPEC) === true);
  if (line === undefined) throw new Error(`${file}: no CircleCI step runs ${INSTALL_SPEC}`);
  return { config, line };
}

/** The shell line of the Jenkinsfile's `sh '…'` step that runs the package. */
export function jenkinsSh(file: string): string {
  const block = theBlock(file, (candidate) => candidate.language === 'groovy');
  const match = /^\s*sh '([^']*)'$/m.exec(block.text);
  if (match?.[1]?.includes(INSTALL_SPEC) !== true) {
    throw new Error(`${file}: no sh '…' step runs ${INSTALL_SPEC}`);
  }
  return match[1];
}

/** The lines of `sh` blocks of `file` that start with `prefix` (e.g. `deploy-agent deploy`). */
export function shellLines(file: string, prefix: string): string[] {
  return codeBlocks(file)
    .filter((block) => block.language === 'sh')
    .flatMap((block) => block.text.split('\n'))
    .filter((line) => line.startsWith(prefix));
}

/** A command line's words as written (quotes kept, nothing expanded), for comparing two lines. */
export function words(line: string): string[] {
  return line.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
}

/**
 * A folder holding `npx` and `deploy-agent` as a CI image with Node has them, for a shell that
 * runs a documented line: `npx --yes github:OWNER/REPO#v1 ARGS` and `deploy-agent ARGS` both run
 * this checkout's dist/cli.js (the package's bin) under Node 24. Any other `npx` is refused.
 */
export function packageOnPath(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'doc-examples-bin-'));
  const cli = path.join(ROOT, 'dist', 'cli.js');
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const scripts = {
    npx: [
      '#!/bin/sh',
      `if [ "$1" != --yes ] || [ "$2" != ${quote(INSTALL_SPEC)} ]; then`,
      `  echo "this test runs only npx --yes ${INSTALL_SPEC}, not: npx $*" >&2; exit 127`,
      'fi',
      'shift 2',
      `exec ${quote(NODE24)} ${quote(cli)} "$@"`,
    ],
    'deploy-agent': ['#!/bin/sh', `exec ${quote(NODE24)} ${quote(cli)} "$@"`],
  };
  for (const [name, lines] of Object.entries(scripts)) {
    const file = path.join(folder, name);
    writeFileSync(file, `${lines.join('\n')}\n`);
    chmodSync(file, 0o755);
  }
  return folder;
}
