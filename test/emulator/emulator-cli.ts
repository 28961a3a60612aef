/**
 * `npm run emulator -- [--port 0] [--api-key K] [--repository owner/name] [--head-sha [BRANCH=]SHA]...
 * [--url-file PATH]`:
 * the emulator of the service as a process of its own, for the CI self-test job (which runs
 * the action with `uses: ./` against it) and for trying the action by hand.
 *
 * It seeds the repository listing of one integration with the workflow's repository, makes
 * created deployments turn READY after `--ready-after-ms`, then prints `KEY=value` lines that a
 * shell can parse, `EMULATOR_URL=...` last, once it answers requests. It logs every request it
 * gets and runs until SIGTERM or SIGINT.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { INTEGRATION as INTEGRATION_ID } from '../support/ids.ts';
import { startEmulator } from './emulator.ts';

const USAGE = `Usage: npm run emulator -- [options]

  --port N             port on 127.0.0.1 (default 0: any free port)
  --api-key K          answer 401 unless the X-Api-Key header is K (default: no key needed)
  --repository O/N     repository in the integration's listing
                       (default: $GITHUB_REPOSITORY, else acme/agent)
  --head-sha [BRANCH=]SHA
                       the commit at the head of BRANCH (default main) of the repository, which
                       a create tracking that branch builds; repeat it for other branches (a pull
                       request's head branch). Main's default: $GITHUB_SHA when it is a full sha,
                       else a made-up one
  --ready-after-ms N   a created deployment is READY when read N ms after its creation
                       (default 1000)
  --url-file PATH      also write the URL to PATH, once the emulator answers
  -h, --help           print this`;

function fail(message: string): never {
  console.error(`emulator: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function integer(name: string, text: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) > max) {
    fail(`--${name} must be a whole number from 0 to ${max}, got '${text}'`);
  }
  return Number(text);
}

function parse() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        'api-key': { type: 'string' },
        repository: { type: 'string' },
        'head-sha': { type: 'string', multiple: true },
        'ready-after-ms': { type: 'string', default: '1000' },
        'url-file': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}
const parsed = parse();
if (parsed.help) {
  console.log(USAGE);
  process.exit(0);
}

const port = integer('port', parsed.port, 65_535);
const readyAfterMs = integer('ready-after-ms', parsed['ready-after-ms'], 3_600_000);
const repository = parsed.repository ?? (process.env.GITHUB_REPOSITORY || 'acme/agent');
const match = /^([^/\s]+)\/([^/\s]+)$/.exec(repository);
if (match === null) fail(`--repository must be owner/name, got '${repository}'`);
const [, owner, name] = match as unknown as [string, string, string];
const FULL_SHA = /^[0-9a-f]{40}$/i;

/** The heads `--head-sha` sets, branch → sha; a sha without a branch is main's. */
function heads(given: readonly string[]): Map<string, string> {
  const set = new Map<string, string>();
  for (const value of given) {
    const equals = value.lastIndexOf('=');
    const branch = equals < 0 ? 'main' : value.slice(0, equals);
    const sha = value.slice(equals + 1);
    if (branch === '' || !FULL_SHA.test(sha)) {
      fail(`--head-sha must be [BRANCH=]SHA with a full 40-hex commit sha, got '${value}'`);
    }
    set.set(branch, sha);
  }
  return set;
}
const headShas = heads(parsed['head-sha'] ?? []);
const runSha = process.env.GITHUB_SHA ?? '';
if (!headShas.has('main') && FULL_SHA.test(runSha)) headShas.set('main', runSha);
const headSha = headShas.get('main');

const emu = await startEmulator({ port, apiKey: parsed['api-key'], readyAfterMs }).catch(
  (error: unknown) =>
    fail(`cannot listen: ${error instanceof Error ? error.message : String(error)}`),
);
const [repo] = emu.seedRepos(INTEGRATION_ID, [{ owner, name, default_branch: 'main' }]);
// A run on a real runner is for a pushed commit: on the tracked branch, that is what a create
// builds, so that a step targeting it (commit: auto) sees it live and no commit drift.
if (repo !== undefined) {
  for (const [branch, sha] of headShas) emu.setHead(repo.url, branch, sha);
}

// Listening for the signals before the URL is out: whoever reads it may stop the emulator at once.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(signal));
console.log(`INTEGRATION_ID=${INTEGRATION_ID}`);
console.log(`REPOSITORY=${owner}/${name}`);
if (headSha !== undefined) console.log(`HEAD_SHA=${headSha}`);
console.log(`EMULATOR_URL=${emu.url}`);
const urlFile = parsed['url-file'];
if (urlFile !== undefined) {
  // Written whole and then renamed, so that a reader polling for the file never sees half a URL.
  writeFileSync(`${urlFile}.partial`, `${emu.url}\n`);
  renameSync(`${urlFile}.partial`, urlFile);
}

// The emulator records requests but has no hook per request: print the new ones as they come,
// each with its arrival time (which tells the self-test test which step sent it).
let logged = 0;
function logRequests(): void {
  for (; logged < emu.requests.length; logged++) {
    const request = emu.requests[logged];
    if (request === undefined) break;
    const query = new URLSearchParams(request.query).toString();
    const target = `${request.path}${query === '' ? '' : `?${query}`}`;
    console.log(`request: ${new Date(request.time).toISOString()} ${request.method} ${target}`);
  }
}
const ticker = setInterval(logRequests, 100);

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearInterval(ticker);
  logRequests();
  await emu.close();
  console.log(`stopped on ${signal} after ${emu.requests.length} requests`);
  process.exit(0);
}
