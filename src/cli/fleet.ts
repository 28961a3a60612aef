/**
 * `deploy-agent list` and `repos`: GET only, their inputs checked by the
 * action's reader before any request. Exit 0 when nothing matches too
 * (stderr says so), 1 on a service failure, 130 when interrupted.
 */
import { CancelledError, describeError } from '../common/errors.js';
import { lineSafeJson } from '../common/characters.js';
import { systemClock } from '../common/runtime.js';
import { readInputs } from '../inputs/declare.js';
import { InputError } from '../inputs/errors.js';
import {
  FLEET_SHARED_INPUTS,
  LIST_CAP,
  LIST_OWN_INPUTS,
  listRequest,
  REPOS_INPUTS,
  reposRequest,
} from '../inputs/fleet-inputs.js';
import type { RunDescription } from '../inputs/run-description.js';
import type { ServiceAccess } from '../inputs/service-access.js';
import { paceFrom } from '../run/ports/pace.js';
import { ServiceClient } from '../service/client.js';
import { Service, type PagedListing } from '../service/endpoints.js';
import { proxyDispatcher, proxySettingsFrom } from '../service/proxy.js';
import type { CliRequest } from './arguments.js';
import { describeInputError } from './input-errors.js';
import { describeCiRun, runDescription } from './ci.js';
import {
  DEPLOYMENT_COLUMNS,
  deploymentsJsonStream,
  lines,
  REPOSITORY_COLUMNS,
  table,
} from './fleet-output.js';
import type { FleetCommand } from './option-table.js';
import { openSession, type Session } from './session.js';
import { commandWords } from './wording.js';
import { EXIT, type CliWorld } from './world.js';

const DEFAULT_WIDTH = 80;

type FleetContext = Pick<Session, 'log' | 'redactor' | 'signal'> & {
  request: CliRequest;
  world: CliWorld;
  run: RunDescription;
};

function serviceOf(access: ServiceAccess, context: FleetContext): Service {
  const { world, log, redactor, signal, run } = context;
  for (const value of access.sensitiveValues) redactor.add(value);
  const client = new ServiceClient({
    baseUrl: access.apiUrl,
    headers: access.headers,
    retry: paceFrom(world.env).retry,
    clock: systemClock,
    logger: log,
    signal,
    redact: (text) => redactor.redact(text),
    dispatcher: proxyDispatcher(proxySettingsFrom(world.env)),
    words: run.words,
  });
  // A listed deployment carries its secrets: the service registers each value as its page is parsed.
  return new Service(client, log, {
    mask: (value) => redactor.add(value),
    redact: (text) => redactor.redact(text),
  });
}

/**
 * With `--json` or piped, each page as it arrives, so memory does not grow
 * with the fleet and no page is read once stdout's reader has gone; on a
 * terminal, one table (its widths need every row).
 */
async function writeListing(
  service: Service,
  asked: ReturnType<typeof listRequest>,
  context: FleetContext,
): Promise<PagedListing> {
  const { request, world } = context;
  const { stdout } = world;
  const options = { probe: asked.all };
  if (!request.json && stdout.isTTY === true) {
    const { deployments, more } = await service.list(asked.filters, asked.limit, options);
    if (deployments.length > 0) {
      stdout.write(table(deployments, DEPLOYMENT_COLUMNS, stdout.columns ?? DEFAULT_WIDTH));
    }
    return { count: deployments.length, more };
  }
  const json = request.json ? deploymentsJsonStream((text) => stdout.write(text)) : undefined;
  try {
    return await service.listPages(
      asked.filters,
      asked.limit,
      (page) => {
        // The reader has gone (`| head`): nothing more to read for it.
        if (stdout.closed === true) return false;
        if (json === undefined) stdout.write(lines(page, DEPLOYMENT_COLUMNS));
        else json.page(page);
        return true;
      },
      options,
    );
  } finally {
    // Also when a page fails or the run is interrupted: stdout stays one JSON array, of what was listed.
    json?.end();
  }
}

async function list(context: FleetContext): Promise<void> {
  const { request, world, run, log } = context;
  const asked = listRequest(
    readInputs({ ...FLEET_SHARED_INPUTS, ...LIST_OWN_INPUTS }, (name) => request.inputs[name], run),
  );
  for (const warning of asked.warnings) log.warning(warning);
  const service = serviceOf(asked.access, context);
  const { count, more } = await writeListing(service, asked, context);
  if (more) {
    log.warning(
      `more than ${LIST_CAP.toLocaleString('en-US')} deployments match: --all shows the first ${LIST_CAP.toLocaleString('en-US')} (its cap); narrow the list with a filter`,
    );
  }
  if (count === 0 && world.stdout.closed !== true) log.info('no deployment matches');
}

async function repos(context: FleetContext): Promise<void> {
  const { request, world, run, log } = context;
  const { stdout } = world;
  const asked = reposRequest(readInputs(REPOS_INPUTS, (name) => request.inputs[name], run));
  const repositories = await serviceOf(asked.access, context).listRepositories(asked.integrationId);
  if (repositories.length === 0) log.info('the integration has no repository to deploy');
  if (request.json) stdout.write(`${lineSafeJson(repositories, 2)}\n`);
  else if (stdout.isTTY !== true) stdout.write(lines(repositories, REPOSITORY_COLUMNS));
  else if (repositories.length > 0) {
    stdout.write(table(repositories, REPOSITORY_COLUMNS, stdout.columns ?? DEFAULT_WIDTH));
  }
}

export async function runFleet(
  command: FleetCommand,
  request: CliRequest,
  world: CliWorld,
): Promise<number> {
  const session = openSession(request.secretValues, world);
  const { log, redactor, signal } = session;
  const ci = describeCiRun(world.env, world.cwd);
  const run = runDescription(ci, world.cwd, commandWords(world.env, request.origins['api-url']));
  const context: FleetContext = { request, world, run, log, redactor, signal };
  try {
    await session.interruptible(() => (command === 'list' ? list(context) : repos(context)));
    return EXIT.done;
  } catch (error) {
    if (error instanceof InputError) {
      log.error(describeInputError(error, request, ci));
      return EXIT.usage;
    }
    if (error instanceof CancelledError || signal.aborted) {
      log.error(`${command} was interrupted`);
      return EXIT.interrupted;
    }
    log.error(describeError(error));
    return EXIT.failed;
  }
}
