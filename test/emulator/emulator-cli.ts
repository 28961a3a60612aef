/**
 * `npm run emulator -- [--port 0] [--api-key K] [--repository owner/name] [--head-sha [BRANCH=]SHA]...
 * [--url-file PATH] [--addresses [--address-slow-ms N] [--address-header NAME]]`:
 * the emulator of the service as a process of its own, for the CI self-test job (which runs
 * the action with `uses: ./` against it) and for trying the action by hand.
 *
 * It seeds the repository listing of one integration with the workflow's repository, makes
 * created deployments turn READY after `--ready-after-ms`, then prints `KEY=value` lines that a
 * shell can parse, `EMULATOR_URL=...` last, once it answers requests. It logs every request it
 * gets and runs until SIGTERM or SIGINT. With `--addresses`, each deployment also answers at an
 * address of its own (its `custom_url`, `GET /ok`), whose requests are logged too.
 *
 * `npm run emulator -- push --sha SHA [--ref BRANCH] [--repository owner/name] [--url URL]`:
 * a push of SHA to BRANCH of a running emulator (its `POST /_emulator/push`), so that a person
 * trying the product sees a second push: the deployments tracking BRANCH get a revision for SHA,
 * and a create tracking it from then on builds SHA.
 */
import { execFileSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { INTEGRATION as INTEGRATION_ID } from '../support/ids.ts';
import { PUSH_PATH, startEmulator } from './emulator.ts';
import type { AddressBehaviour } from './emulator.ts';

const USAGE = `Usage: npm run emulator -- [options]

  --port N             port on 127.0.0.1 (default 0: any free port)
  --api-key K          answer 401 unless the X-Api-Key header is K (default: no key needed)
  --repository O/N     repository in the integration's listing
                       (default: $GITHUB_REPOSITORY, else acme/agent)
  --head-sha [BRANCH=]SHA
                       the commit at the head of BRANCH (default main) of the repository, which
                       a create tracking that branch builds; repeat it for other branches (a pull
                       request's head branch). Main's default: $GITHUB_SHA when it is a full sha,
                       else the commit checked out where it runs (git rev-parse HEAD). A create on
                       a branch with no head is refused: push one (see push below)
  --ready-after-ms N   a created deployment is READY when read N ms after its creation
                       (default 1000)
  --url-file PATH      also write the URL to PATH, once the emulator answers
  --addresses          give every deployment an address of its own on 127.0.0.1 (its
                       custom_url), whose GET /ok answers {"ok": true} once it is live
  --address-slow-ms N  with --addresses: /ok answers 503 for N ms after a revision goes live
  --address-header NAME
                       with --addresses: /ok answers 401 without the header NAME with the value
                       of the variable NAME upper-cased, - as _ (X-Api-Key: $X_API_KEY), as
                       deploy-agent's --header reads it: npm prints a script's command line
  -h, --help           print this

       npm run emulator -- push --sha SHA [options]

  Pushes SHA to a branch of a running emulator: each deployment tracking the branch with
  build_on_push gets a revision for SHA, and a create tracking it builds SHA from then on.
  --sha SHA            the pushed commit, a full 40-hex sha
  --ref BRANCH         the branch pushed to (default main)
  --repository O/N     the repository (default: $GITHUB_REPOSITORY, else acme/agent)
  --url URL            the running emulator (default: $EMULATOR_URL, else http://127.0.0.1:8787)`;

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

const FULL_SHA = /^[0-9a-f]{40}$/i;

/** The repository `--repository` names, else the run's, else acme/agent; its owner and name. */
function ownerAndName(given: string | undefined): [string, string] {
  const repository = given ?? (process.env.GITHUB_REPOSITORY || 'acme/agent');
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(repository);
  if (match === null) fail(`--repository must be owner/name, got '${repository}'`);
  return [match[1] ?? '', match[2] ?? ''];
}

/** `push`: one request to the running emulator's control route; what it rebuilt, on stdout. */
async function pushCommand(args: string[]): Promise<never> {
  let values;
  try {
    values = parseArgs({
      args,
      options: {
        sha: { type: 'string' },
        ref: { type: 'string', default: 'main' },
        repository: { type: 'string' },
        url: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const sha = values.sha ?? '';
  if (!FULL_SHA.test(sha)) fail(`push: --sha must be a full 40-hex commit sha, got '${sha}'`);
  const [owner, name] = ownerAndName(values.repository);
  // The URL the emulator's listing gives the repository (seedRepos' default).
  const repoUrl = `https://github.com/${owner}/${name}`;
  const base = (values.url ?? (process.env.EMULATOR_URL || 'http://127.0.0.1:8787')).replace(
    /\/+$/,
    '',
  );
  let answer: Response;
  try {
    answer = await fetch(`${base}${PUSH_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ repo_url: repoUrl, ref: values.ref, sha }),
    });
  } catch (error) {
    console.error(
      `emulator: push: no emulator answers at ${base} (${error instanceof Error ? error.message : String(error)}): start it with npm run emulator, or give its --url`,
    );
    process.exit(1);
  }
  const text = await answer.text();
  if (!answer.ok) {
    console.error(`emulator: push: ${answer.status} from ${base}${PUSH_PATH}: ${text}`);
    process.exit(1);
  }
  const { rebuilt } = JSON.parse(text) as { rebuilt: string[] };
  console.log(
    `pushed ${sha.toLowerCase()} to ${owner}/${name} ${values.ref}: ${
      rebuilt.length === 0
        ? 'no deployment tracks it with build_on_push yet; a create tracking it builds this commit'
        : `a revision for it on ${rebuilt.join(', ')}`
    }`,
  );
  process.exit(0);
}

if (process.argv[2] === 'push') await pushCommand(process.argv.slice(3));

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
        addresses: { type: 'boolean', default: false },
        'address-slow-ms': { type: 'string' },
        'address-header': { type: 'string' },
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
const [owner, name] = ownerAndName(parsed.repository);

/** What `--address-slow-ms` and `--address-header` ask of every address. */
function addressBehaviour(): AddressBehaviour {
  const slow = parsed['address-slow-ms'];
  const header = parsed['address-header'];
  if (!parsed.addresses && (slow !== undefined || header !== undefined)) {
    fail(`--address-slow-ms and --address-header need --addresses`);
  }
  const behaviour: AddressBehaviour = {};
  if (slow !== undefined) behaviour.slowStartMs = integer('address-slow-ms', slow, 3_600_000);
  if (header !== undefined) behaviour.requireHeader = requiredHeader(header);
  return behaviour;
}

/** `--address-header NAME`: the header NAME, its value from the variable NAME (`X_API_KEY`). */
function requiredHeader(name: string): { name: string; value: string } {
  if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(name)) {
    fail(
      `--address-header wants a header name (letters, digits and -), its value in a variable: npm prints the command line`,
    );
  }
  const variable = name.toUpperCase().replaceAll('-', '_');
  const value = process.env[variable]?.trim() ?? '';
  if (value === '' || /[\r\n]/.test(value)) {
    fail(`--address-header ${name}: set the variable ${variable} to the header's value (one line)`);
  }
  return { name, value };
}
const behaviour = addressBehaviour();

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
/** The commit checked out where the emulator runs (a clone of the repository), if any. */
function checkedOut(): string | undefined {
  try {
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return FULL_SHA.test(sha) ? sha : undefined;
  } catch {
    return undefined;
  }
}

const headShas = heads(parsed['head-sha'] ?? []);
const runSha = process.env.GITHUB_SHA ?? '';
if (!headShas.has('main')) {
  const main = FULL_SHA.test(runSha) ? runSha : checkedOut();
  if (main !== undefined) headShas.set('main', main);
}
const headSha = headShas.get('main');

// No made-up head: a create would build a commit the run never asked for, which the step
// rightly reads as a newer push than its target ("superseded"). Such a create is refused.
const emu = await startEmulator({
  port,
  apiKey: parsed['api-key'],
  readyAfterMs,
  unknownHead: 'refuse',
  addresses: parsed.addresses,
  addressBehaviour: behaviour,
}).catch((error: unknown) =>
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
let addressesLogged = 0;
function logRequests(): void {
  for (; logged < emu.requests.length; logged++) {
    const request = emu.requests[logged];
    if (request === undefined) break;
    const query = new URLSearchParams(request.query).toString();
    const target = `${request.path}${query === '' ? '' : `?${query}`}`;
    console.log(`request: ${new Date(request.time).toISOString()} ${request.method} ${target}`);
  }
  // A deployment's address: the path only (a health check's query may carry a key).
  for (; addressesLogged < emu.addressRequests.length; addressesLogged++) {
    const request = emu.addressRequests[addressesLogged];
    if (request === undefined) break;
    console.log(
      `address: ${new Date(request.time).toISOString()} ${request.method} ${request.path}`,
    );
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
