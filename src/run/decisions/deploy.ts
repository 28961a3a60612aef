/**
 * Which repository, which deployment of the name, reuse or create: never two from one name
 * where the service lets the action prevent it, and a warning with every id where it cannot.
 */
import { ActionError, CancelledError } from '../../common/errors.js';
import type { RemedyWords } from '../../service/answers.js';
import type { ServiceError } from '../../service/errors.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import { formatDuration, untrusted } from '../../common/runtime.js';
import { CREATE_CALL } from '../../service/endpoints.js';
import type { Deployment, DeploymentCreateRequest, Repository } from '../../service/schemas.js';
import { inGroup, type RunDependencies } from '../ports/dependencies.js';
import type { DeployedResult } from '../ports/summaries.js';
import { findDeployment, fullName, pickOne, resolveRepository } from './find.js';

/** The listing may lag a create (no read-after-write): the name is looked up after each pause. */
export const SETTLE_PAUSES_MS = [0, 1_000, 2_000, 3_000];

export interface DeployResult extends DeployedResult {
  /** Sent, or what a create would send. */
  request: DeploymentCreateRequest;
  repository?: Repository;
}

/** A create stored under another name fails the step (the next run would not find it); the outputs still say what was created. */
class RenamedError extends ActionError {
  override name = 'RenamedError';
  readonly created: DeployResult & { deployment: Deployment };

  constructor(created: DeployResult & { deployment: Deployment }, words: RemedyWords) {
    const { deployment, request } = created;
    super(
      `The service stored deployment ${deployment.id} as '${untrusted(deployment.name)}', not '${request.name}': it changes names, so the next run would not find it and would create another. Set ${words.name} to '${untrusted(deployment.name)}'.`,
    );
    this.created = created;
  }
}

export function buildCreateRequest(
  spec: DeploySpec,
  repository?: Repository,
): DeploymentCreateRequest {
  const request: DeploymentCreateRequest = {
    name: spec.name,
    source: spec.source,
    source_config: { ...spec.sourceConfig },
    source_revision_config: { ...spec.sourceRevisionConfig },
    secrets: spec.secrets.map((secret) => ({ ...secret })),
  };
  // A codehost deployment builds on push unless the step says otherwise.
  if (spec.source === 'codehost' && spec.sourceConfig.build_on_push === undefined) {
    request.source_config.build_on_push = true;
  }
  if (repository !== undefined) {
    request.source_config.repo_url = repository.url;
    request.source_config.integration_id = repository.host_integration_id;
    request.source_revision_config.repo_ref ??= repository.default_branch;
  }
  if (spec.source === 'external_docker' && spec.secretReferences !== null) {
    request.secret_references = spec.secretReferences;
  }
  return request;
}

/** Carries the deployment the run found, so the outputs can still say which. */
export class NotReusableError extends ActionError {
  override name = 'NotReusableError';
  readonly deployment: Deployment;

  constructor(message: string, deployment: Deployment) {
    super(message);
    this.deployment = deployment;
  }
}

function checkReusable(
  deployment: Deployment,
  spec: DeploySpec,
  words: Pick<RemedyWords, 'asker'>,
): Deployment {
  if (deployment.source !== spec.source) {
    throw new NotReusableError(
      `Deployment '${spec.name}' (${deployment.id}) exists with source ${deployment.source}, but source ${spec.source} was asked for. A deployment's name and source cannot change: use another name, or deploy with source ${deployment.source}.`,
      deployment,
    );
  }
  if (deployment.status === 'AWAITING_DELETE') {
    throw new NotReusableError(
      `Deployment '${spec.name}' (${deployment.id}) is AWAITING_DELETE: it is being deleted, and the name is unavailable until it is gone. Wait for the deletion to finish and run ${words.asker} again, or deploy under another name.`,
      deployment,
    );
  }
  return deployment;
}

async function findSettled(
  name: string,
  dependencies: RunDependencies,
): Promise<Deployment | undefined> {
  const { service, clock, signal, logger } = dependencies;
  for (const pause of SETTLE_PAUSES_MS) {
    await clock.sleep(pause, signal);
    const found = pickOne(await service.findByName(name), name, logger);
    if (found !== undefined) return found;
  }
  return undefined;
}

const settleWindow = formatDuration(SETTLE_PAUSES_MS.reduce((sum, pause) => sum + pause, 0));

/** After a 409 or a create that may have taken effect: a 409 with nothing listed fails; an ambiguous create is tried again. */
function reconcileCreate(name: string, dependencies: RunDependencies) {
  const { logger } = dependencies;
  return async (failure: ServiceError): Promise<Deployment | undefined> => {
    const conflict = failure.status === 409;
    logger.info(
      conflict
        ? `${CREATE_CALL} answered 409: another run created '${name}'; looking it up`
        : `${CREATE_CALL} may or may not have created '${name}' (${failure.details.problem}): looking it up before trying again`,
    );
    const found = await findSettled(name, dependencies).catch((lookUpError: unknown) => {
      if (!(lookUpError instanceof ActionError) || lookUpError instanceof CancelledError) {
        throw lookUpError;
      }
      throw new ActionError(
        `${failure.message}\n${conflict ? 'The service says it exists' : 'The create may have taken effect'}, and looking '${name}' up failed too: ${lookUpError.message}\nRunning ${dependencies.service.words.asker} again is safe: it finds the deployment before creating one.`,
      );
    });
    if (found !== undefined) {
      logger.info(`'${name}' exists (${found.id}): using it`);
      return found;
    }
    if (conflict) {
      throw new ActionError(
        `${failure.message}\nThe service says '${name}' exists, but no deployment of that exact name was listed within ${settleWindow}. Run ${dependencies.service.words.asker} again later.`,
      );
    }
    logger.info(`'${name}' is not listed after ${settleWindow}: it was not created`);
    return undefined;
  };
}

/** After a create: the stored name must be the asked one, and a look-up warns when two runs raced to the name. */
async function checkCreated(
  created: DeployResult & { deployment: Deployment },
  dependencies: RunDependencies,
) {
  const { deployment } = created;
  const name = created.request.name;
  if (deployment.name !== name) throw new RenamedError(created, dependencies.service.words);
  const ids = new Set([
    deployment.id,
    ...(await dependencies.service.findByName(name, { proving: false })).map((d) => d.id),
  ]);
  if (ids.size > 1) {
    dependencies.logger.warning(
      `${ids.size} deployments are now named '${name}': ${[...ids].join(', ')}. Another run created one at the same time, and the service does not enforce unique names. Delete the extra ones in the service, and give the deploy job a 'concurrency:' group so that runs of this step never overlap.`,
    );
  }
}

interface DeployHooks {
  onRequest?: (request: DeploymentCreateRequest) => void;
  /** Told the moment the service answers, before the checks after it (which may fail or be cancelled). */
  onCreated?: (created: DeployResult & { deployment: Deployment }) => void;
}

/** The create, reconciled; a deployment found by a look-up is checked like any found by its name. */
async function create(
  spec: DeploySpec,
  request: DeploymentCreateRequest,
  repository: Repository | undefined,
  dependencies: RunDependencies,
  onCreated: DeployHooks['onCreated'],
) {
  const { value, via } = await dependencies.service.create(
    request,
    reconcileCreate(request.name, dependencies),
  );
  const deployment =
    via === 'answer' ? value : checkReusable(value, spec, dependencies.service.words);
  // A deployment that answered a 409 was created by another run.
  const created = via !== 'conflict';
  if (created) onCreated?.({ request, repository, deployment, created });
  // The reconcile look-up found the exact name and warned about duplicates already.
  if (via === 'answer')
    await checkCreated({ request, repository, deployment, created }, dependencies);
  return { deployment, created };
}

/**
 * Resolve, find, then reuse or create (or say what a dry run would). The hooks hear the body
 * and the created deployment at once, so a run that fails later still says what exists.
 */
export async function deploy(
  spec: DeploySpec,
  dependencies: RunDependencies,
  { onRequest, onCreated }: DeployHooks = {},
): Promise<DeployResult> {
  const { service, logger } = dependencies;
  const group = inGroup(dependencies);
  const repository =
    spec.source === 'codehost'
      ? await group(`Resolving repository ${fullName(spec.repository)}`, 'resolve', async () => {
          const found = await resolveRepository(service, spec, dependencies.repositories);
          logger.info(
            `${fullName(spec.repository)}: ${untrusted(found.url)} (default branch ${untrusted(found.default_branch)})`,
          );
          return found;
        })
      : undefined;
  const request = buildCreateRequest(spec, repository);
  onRequest?.(request);
  const existing = await findDeployment(spec.name, dependencies, (found) =>
    logger.info(
      found === undefined
        ? `no deployment is named '${spec.name}'`
        : `found '${spec.name}': ${found.id} (${untrusted(found.status)})`,
    ),
  );
  const reused = existing && checkReusable(existing, spec, service.words);
  if (reused !== undefined) return { request, repository, deployment: reused, created: false };
  if (spec.dryRun) {
    logger.info(`dry run: would ${CREATE_CALL} to create '${spec.name}'`);
    return { request, repository, created: false };
  }
  return group(`Creating deployment '${spec.name}'`, 'create', async () => {
    const outcome = await create(spec, request, repository, dependencies, onCreated);
    logger.info(
      outcome.created
        ? `created ${outcome.deployment.id} (${untrusted(outcome.deployment.status)})`
        : `reusing ${outcome.deployment.id}, created by another run (${untrusted(outcome.deployment.status)})`,
    );
    return { request, repository, ...outcome };
  });
}
