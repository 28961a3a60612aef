/**
 * `npm run local -- [FILE]` (default .env): runs the built action (dist/index.js) under Node 24
 * against a real service, with the inputs and the run's GITHUB_* values of a dotenv file (see
 * .env.example), as a workflow step would. It streams the step's log, then prints the outputs
 * and the job summary, like `npm run demo`, and exits with the action's exit code.
 *
 * The file's INPUT_<NAME> variables are the inputs, named as the runner names them: `INPUT_`
 * and the input's name upper-cased, hyphens kept (INPUT_API-URL). An input it leaves out gets
 * its action.yml default (`${{ github.token }}`: the file's GITHUB_TOKEN, else empty).
 * GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE and RUNNER_TEMP are temporary files and
 * folders unless the file sets them.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { actionYml, expandDefault } from '../test/support/action.ts';
import { BUNDLE, NODE24, parseOutputFile } from '../test/support/run-action.ts';

/** What the runner calls an input's variable. */
function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/** Variables of the shell that a run on this machine may need: the proxy and its CA. */
const PASSED_THROUGH = [
  'PATH',
  'HOME',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
];

function fail(message: string): never {
  console.error(`npm run local: ${message}`);
  process.exit(2);
}

// npm runs scripts in the package's folder; paths the user typed are relative to where they were.
const invokedFrom = process.env.INIT_CWD ?? process.cwd();
const args = process.argv.slice(2);
if (args.length > 1 || args[0] === '-h' || args[0] === '--help') {
  console.log('Usage: npm run local -- [FILE]   (default .env; see .env.example)');
  process.exit(args.length > 1 ? 2 : 0);
}
const envFile = path.resolve(invokedFrom, args[0] ?? '.env');
if (!existsSync(envFile)) {
  fail(`${envFile} does not exist. Copy .env.example to .env and fill it in.`);
}
const fromFile = parseEnv(readFileSync(envFile, 'utf8'));

const declared = actionYml().inputs;
const byVariable = new Map(Object.keys(declared).map((name) => [inputVariable(name), name]));
const given = new Map<string, string>();
const context: Record<string, string> = {};
const ignored: string[] = [];
for (const [key, value = ''] of Object.entries(fromFile)) {
  if (key.startsWith('INPUT_')) {
    const name = byVariable.get(key);
    if (name === undefined) {
      const near = byVariable.get(key.replace(/_/g, '-').replace(/^INPUT-/, 'INPUT_'));
      fail(
        `${key} in ${envFile} is not an input of action.yml` +
          (near === undefined ? '.' : `: did you mean ${inputVariable(near)}? Hyphens stay.`),
      );
    }
    given.set(name, value);
  } else if (key.startsWith('GITHUB_') || key === 'RUNNER_DEBUG') {
    context[key] = value;
  } else {
    ignored.push(key);
  }
}
if (ignored.length > 0) {
  console.log(`Ignored (neither INPUT_* nor GITHUB_*): ${ignored.join(', ')}`);
}

// Only what this run creates is removed afterwards.
const directory = mkdtempSync(path.join(tmpdir(), 'action-local-'));
const env: Record<string, string> = { GITHUB_ACTIONS: 'true', RUNNER_TEMP: directory };
for (const name of PASSED_THROUGH) {
  const value = process.env[name];
  if (value !== undefined) env[name] = value;
}
Object.assign(env, context);
for (const key of [
  'GITHUB_WORKSPACE',
  'GITHUB_EVENT_PATH',
  'GITHUB_OUTPUT',
  'GITHUB_STEP_SUMMARY',
]) {
  if (env[key]) env[key] = path.resolve(invokedFrom, env[key]);
}
env.GITHUB_WORKSPACE ||= path.join(directory, 'workspace');
env.GITHUB_OUTPUT ||= path.join(directory, 'output');
env.GITHUB_STEP_SUMMARY ||= path.join(directory, 'summary');
mkdirSync(env.GITHUB_WORKSPACE, { recursive: true });
for (const file of [env.GITHUB_OUTPUT, env.GITHUB_STEP_SUMMARY]) {
  if (!existsSync(file)) writeFileSync(file, '');
}
const outputStart = readFileSync(env.GITHUB_OUTPUT, 'utf8').length;
const summaryStart = readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8').length;

// Every declared input is set, as the runner sets it: the given value, else the default. No
// runner hands this run a token: `${{ github.token }}` is the file's GITHUB_TOKEN, else empty.
const defaults = { repository: env.GITHUB_REPOSITORY ?? '', token: context.GITHUB_TOKEN ?? '' };
for (const [name, input] of Object.entries(declared)) {
  env[inputVariable(name)] = given.get(name) ?? expandDefault(input.default ?? '', defaults);
}

const shown = [...given.keys()].map((name) =>
  ['api-key', 'headers', 'secrets'].includes(name) ? `${name}=(set)` : `${name}=${given.get(name)}`,
);
console.log(`Running ${path.relative(process.cwd(), BUNDLE)} under Node 24 with ${envFile}:`);
console.log(`  inputs: ${shown.join(', ') || '(none)'}`);
console.log(`  repository: ${env.GITHUB_REPOSITORY ?? '(GITHUB_REPOSITORY not set)'}`);
console.log(`  workspace: ${env.GITHUB_WORKSPACE}`);
console.log('─'.repeat(30), 'step log', '─'.repeat(30));

const child = spawn(NODE24, [BUNDLE], {
  env,
  cwd: env.GITHUB_WORKSPACE,
  stdio: ['ignore', 'pipe', 'inherit'],
});
// The runner hides its ::add-mask:: commands, which carry the secret values: so does this.
let pending = '';
child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
  const lines = (pending + chunk).split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    process.stdout.write(line.startsWith('::add-mask::') ? '::add-mask::***\n' : `${line}\n`);
  }
});
// Ctrl-C reaches the action too (same process group): it stops and reports, and this process
// waits for that. A SIGTERM sent to this process alone is passed on.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => child.kill('SIGTERM'));

const exitCode = await new Promise<number>((resolve, reject) => {
  child.on('error', reject);
  child.on('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
});
if (pending !== '') process.stdout.write(`${pending}\n`);

const outputs = parseOutputFile(readFileSync(env.GITHUB_OUTPUT, 'utf8').slice(outputStart));
const summary = readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8').slice(summaryStart);
rmSync(directory, { recursive: true, force: true });

console.log('─'.repeat(30), 'outputs', '─'.repeat(31));
for (const [key, value] of Object.entries(outputs)) console.log(`${key}: ${value}`);
console.log('─'.repeat(30), 'job summary (HTML)', '─'.repeat(20));
console.log(summary.trim() || '(empty)');
console.log('─'.repeat(70));
console.log(exitCode === 0 ? 'Succeeded' : `Failed (exit ${exitCode})`);
process.exitCode = exitCode;
