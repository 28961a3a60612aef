/**
 * The deploy flow: resolve the repository (codehost), find the deployment by
 * its exact name, reuse it or create it — never two from one name.
 */
import { ActionError, CancelledError } from './errors.js';
import type { Clock, Logger, ServiceClient } from './client.js';
import { ServiceError, seconds } from './client.js';
import type { CodehostPlan, Plan } from './inputs.js';
import {
  DeploymentListSchema,
  DeploymentSchema,
  RepositoryListSchema,
  type Deployment,
  type DeploymentCreateRequest,
  type Repository,
} from './schemas.js';

/** The largest page the service serves. */
export const PAGE_LIMIT = 100;
/** Pages read at most in one search: 100,000 deployments that contain the name. */
export const MAX_PAGES = 1_000;
/** Repositories named in the error when the wanted one is not listed. */
const REPOSITORIES_SHOWN = 5;

export interface FlowDependencies {
  client: ServiceClient;
  logger: Logger;
  clock: Clock;
  signal?: AbortSignal;
  /** Pages read at most when searching by name. */
  maxPages?: number;
}

export interface DeployResult {
  /** Absent only in a dry run that would create the deployment. */
  deployment?: Deployment;
  created: boolean;
  /** The request body that was sent, or, when it was not, that a create would send. */
  request: DeploymentCreateRequest;
  repository?: Repository;
  repoRef?: string;
}

const sameRepository = (repository: Repository, plan: CodehostPlan) =>
  repository.owner.toLowerCase() === plan.repository.owner.toLowerCase() &&
  repository.name.toLowerCase() === plan.repository.name.toLowerCase();

/** `GET /v1/integrations/forge/codehost/{id}/repos`, and the entry for `plan.repository`. */
export async function resolveRepository(
  client: ServiceClient,
  plan: CodehostPlan,
): Promise<Repository> {
  const repositories = await client.request({
    method: 'GET',
    // The id is a validated uuid: nothing else reaches the path.
    path: `/v1/integrations/forge/codehost/${encodeURIComponent(plan.integrationId)}/repos`,
    schema: RepositoryListSchema,
    remedies: {
      404: `Check the integration-id input: the service knows no integration ${plan.integrationId}.`,
    },
  });
  const exact = repositories.find(
    (repository) =>
      repository.owner === plan.repository.owner && repository.name === plan.repository.name,
  );
  const match = exact ?? repositories.find((repository) => sameRepository(repository, plan));
  if (match !== undefined) return match;
  const wanted = `${plan.repository.owner}/${plan.repository.name}`;
  if (repositories.length === 0) {
    throw new ActionError(
      `Repository ${wanted} is not available to integration ${plan.integrationId}: the integration lists no repositories. Grant the integration access to ${wanted}.`,
    );
  }
  const shown = repositories
    .slice(0, REPOSITORIES_SHOWN)
    .map((repository) => `${repository.owner}/${repository.name}`);
  const more =
    repositories.length > REPOSITORIES_SHOWN
      ? ` and ${repositories.length - REPOSITORIES_SHOWN} more`
      : '';
  throw new ActionError(
    `Repository ${wanted} is not available to integration ${plan.integrationId}. It lists: ${shown.join(', ')}${more}. Check the repository input, or grant the integration access to ${wanted}.`,
  );
}

/**
 * Searches `name_contains=name` page by page for the deployment named exactly
 * `name`. The service does not say where the list ends: a short or empty page,
 * or an offset that does not advance, ends it; `maxPages` stops a service
 * that never ends it.
 */
export async function findDeployment(
  client: ServiceClient,
  name: string,
  logger: Logger,
  maxPages = MAX_PAGES,
): Promise<Deployment | undefined> {
  let offset = 0;
  for (let page = 1; page <= maxPages; page++) {
    const list = await client.request({
      method: 'GET',
      path: '/v2/deployments',
      query: { name_contains: name, limit: PAGE_LIMIT, offset },
      schema: DeploymentListSchema,
    });
    const match = list.resources.find((deployment) => deployment.name === name);
    if (match !== undefined) return match;
    if (list.resources.length < PAGE_LIMIT) return undefined;
    if (list.offset <= offset) {
      logger.warning(
        `GET /v2/deployments returned offset ${list.offset} after offset ${offset}: it does not advance, so the list is taken to end here`,
      );
      return undefined;
    }
    offset = list.offset;
  }
  throw new ActionError(
    `GET /v2/deployments: no end of the list after ${maxPages} pages of ${PAGE_LIMIT} deployments whose names contain '${name}'; stopped rather than risk creating a duplicate. Use a more distinctive name, or report the service's pagination.`,
  );
}

/** The body of `POST /v2/deployments` for the plan (and the resolved repository). */
export function buildCreateRequest(plan: Plan, repository?: Repository): DeploymentCreateRequest {
  const request: DeploymentCreateRequest = {
    name: plan.name,
    source: plan.source,
    source_config: { ...plan.sourceConfig },
    source_revision_config: { ...plan.sourceRevisionConfig },
    secrets: plan.secrets.map((secret) => ({ ...secret })),
  };
  if (repository !== undefined) {
    request.source_config.repo_url = repository.url;
    request.source_config.integration_id = repository.host_integration_id;
    request.source_revision_config.repo_ref ??= repository.default_branch;
  }
  if (plan.source === 'external_docker' && plan.secretReferences !== null) {
    request.secret_references = plan.secretReferences;
  }
  return request;
}

function checkSource(deployment: Deployment, plan: Plan): Deployment {
  if (deployment.source !== plan.source) {
    throw new ActionError(
      `Deployment '${plan.name}' (${deployment.id}) exists with source ${deployment.source}, but source ${plan.source} was asked for. A deployment's name and source cannot change: use another name, or set source to ${deployment.source}.`,
    );
  }
  return deployment;
}

/**
 * `POST /v2/deployments`. An answer-less failure or a 5xx may have created
 * the deployment anyway: the name is looked up again before any new attempt.
 * A 409 means another run created it: it is looked up and reused.
 */
export async function createDeployment(
  request: DeploymentCreateRequest,
  dependencies: FlowDependencies,
): Promise<{ deployment: Deployment; created: boolean }> {
  const { client, logger, clock, signal } = dependencies;
  const lookUp = () => findDeployment(client, request.name, logger, dependencies.maxPages);
  const { attempts } = client.retryPolicy;
  for (let attempt = 1; ; attempt++) {
    try {
      const deployment = await client.request({
        method: 'POST',
        path: '/v2/deployments',
        body: request,
        schema: DeploymentSchema,
        idempotent: false,
      });
      return { deployment, created: true };
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      if (error.status === 409) {
        logger.info(
          `POST /v2/deployments answered 409: another run created '${request.name}'; looking it up`,
        );
        const existing = await lookUp();
        if (existing !== undefined) return { deployment: existing, created: false };
        throw new ActionError(
          `${error.message}\nThe service says '${request.name}' exists, but no deployment of that exact name is listed.`,
        );
      }
      if (!error.ambiguous) throw error;
      logger.warning(
        `POST /v2/deployments may or may not have created '${request.name}' (${error.details.problem}): looking it up before trying again`,
      );
      const existing = await lookUp().catch((lookUpError: unknown) => {
        if (!(lookUpError instanceof ActionError) || lookUpError instanceof CancelledError) {
          throw lookUpError;
        }
        throw new ActionError(
          `${error.message}\nThe create may have taken effect, and looking '${request.name}' up failed too: ${lookUpError.message}\nRunning the step again is safe: it finds the deployment before creating one.`,
        );
      });
      if (existing !== undefined) {
        logger.info(`'${request.name}' exists (${existing.id}): using it`);
        return { deployment: existing, created: true };
      }
      if (attempt >= attempts) {
        throw new ServiceError({ ...error.details, attempts: attempt });
      }
      const delayMs = client.delayBeforeRetry(attempt);
      logger.warning(
        `retrying POST /v2/deployments in ${seconds(delayMs)} (attempt ${attempt + 1} of ${attempts}): it was not created`,
      );
      await clock.sleep(delayMs, signal);
    }
  }
}

export interface DeployOptions {
  /** Called as soon as the deployment is known, before any wait. */
  onDeployment?: (result: DeployResult) => void;
  /** Runs a phase of the flow in a log group. */
  group?: <T>(name: string, phase: () => Promise<T>) => Promise<T>;
}

/** Resolve, find, then reuse or create (or, in a dry run, say what would be created). */
export async function deploy(
  plan: Plan,
  dependencies: FlowDependencies,
  options: DeployOptions = {},
): Promise<DeployResult> {
  const { client, logger } = dependencies;
  const group = options.group ?? ((_name, phase) => phase());
  let repository: Repository | undefined;
  if (plan.source === 'codehost') {
    const wanted = `${plan.repository.owner}/${plan.repository.name}`;
    repository = await group(`Resolving repository ${wanted}`, async () => {
      const found = await resolveRepository(client, plan);
      logger.info(`${wanted}: ${found.url} (default branch ${found.default_branch})`);
      return found;
    });
  }
  const request = buildCreateRequest(plan, repository);
  const repoRef =
    repository !== undefined ? (request.source_revision_config.repo_ref ?? undefined) : undefined;
  const base = { request, repository, repoRef };

  const existing = await group(`Looking for deployment '${plan.name}'`, async () => {
    const found = await findDeployment(client, plan.name, logger, dependencies.maxPages);
    logger.info(
      found === undefined
        ? `no deployment is named '${plan.name}'`
        : `found '${plan.name}': ${found.id} (${found.status})`,
    );
    return found;
  });

  let result: DeployResult;
  if (existing !== undefined) {
    checkSource(existing, plan);
    logger.info(
      `reusing ${existing.id}: the service has no update call, so changes to its configuration or secrets are not applied by this run`,
    );
    result = { ...base, deployment: existing, created: false };
  } else if (plan.dryRun) {
    logger.info(`dry run: would POST /v2/deployments to create '${plan.name}'`);
    result = { ...base, created: false };
  } else {
    result = await group(`Creating deployment '${plan.name}'`, async () => {
      const outcome = await createDeployment(request, dependencies);
      checkSource(outcome.deployment, plan);
      logger.info(
        outcome.created
          ? `created ${outcome.deployment.id} (${outcome.deployment.status})`
          : `reusing ${outcome.deployment.id}, created by another run (${outcome.deployment.status})`,
      );
      return { ...base, ...outcome };
    });
  }
  options.onDeployment?.(result);
  return result;
}
