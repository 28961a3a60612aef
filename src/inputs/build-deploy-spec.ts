/**
 * The core's inputs read into one typed deploy spec, before any request
 * (`readDeploySpec`): from inputs that each parsed on their own, `config` merged
 * under the explicit inputs, the request headers, and the checks that depend
 * on more than one input (mostly on `source`). Every such problem is found
 * before the spec is built, and all of them are reported together.
 */
import { commitRequest } from './commit.js';
import { INPUTS, type InputName, type ParsedInputs } from './core-inputs.js';
import { readInputs, type InputReader } from './declare.js';
import { InputError, Invalid, type InputProblem } from './errors.js';
import { parseImageReference } from './image-reference.js';
import type { DeploySpec, DeploySpecCommon, SourceFields } from './deploy-spec.js';
import { healthProblems, healthRequest, healthSensitiveValues } from './health-inputs.js';
import { wordsOf, type RunDescription } from './run-description.js';
import { accessProblems, serviceAccess } from './service-access.js';
import { unknownValueWarning } from '../service/known-values.js';
import {
  DEPLOYMENT_TYPES,
  type SecretReference,
  type SourceConfigRequest,
  type SourceRevisionConfigRequest,
} from '../service/schemas.js';

/** What the step asks the service for: `config`, with each explicit input written over it. */
interface Requested {
  sourceConfig: SourceConfigRequest;
  sourceRevisionConfig: SourceRevisionConfigRequest;
  secretReferences: SecretReference[] | null;
}

/** The fields of `record` whose value is not undefined: an input that was not given. */
function given<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(record).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

function requested(inputs: ParsedInputs): Requested {
  const { config } = inputs;
  return {
    sourceConfig: {
      ...config.source_config,
      ...given({ integration_id: inputs['integration-id'] }),
    },
    sourceRevisionConfig: {
      ...config.source_revision_config,
      ...given({
        repo_ref: inputs['repo-ref'],
        agent_config_path: inputs['agent-config-path'],
        image_uri: inputs['image-uri'],
      }),
    },
    secretReferences: config.secret_references ?? null,
  };
}

/** Problems of inputs that are each valid but do not go together. */
function combinationProblems(
  inputs: ParsedInputs,
  wanted: Requested,
  run: RunDescription,
): InputProblem[] {
  const problems = [
    ...accessProblems(inputs),
    ...healthProblems(inputs, wordsOf(run)),
    ...configImageProblems(inputs),
  ];
  const { source } = inputs;
  if (source !== 'external_docker' && wanted.secretReferences !== null) {
    problems.push({
      input: 'config',
      problem: `secret_references applies only to source external_docker, not ${source}`,
    });
  }
  if (source !== 'codehost' && inputs.commit.kind === 'sha') {
    problems.push({
      input: 'commit',
      problem: `a commit sha applies only to source codehost, not ${source} (use auto or none)`,
    });
  }
  return problems;
}

function needsImage(source: string, wanted: Requested): InputProblem[] {
  if (wanted.sourceRevisionConfig.image_uri != null) return [];
  return [
    {
      input: 'image-uri',
      problem: `is required with source ${source} (or config.source_revision_config.image_uri)`,
    },
  ];
}

/**
 * The image `config` gives, checked as the `image-uri` input is where it was
 * read; none when the input is given, which `config`'s gives way to.
 */
function configImageProblems(inputs: ParsedInputs): InputProblem[] {
  const image = inputs.config.source_revision_config?.image_uri;
  if (inputs['image-uri'] !== undefined || image === undefined || image === null) return [];
  try {
    parseImageReference(image);
    return [];
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    return [{ input: 'config', problem: `source_revision_config.image_uri ${error.message}` }];
  }
}

function codehostFields(inputs: ParsedInputs, wanted: Requested): SourceFields | InputProblem[] {
  const integrationId = wanted.sourceConfig.integration_id;
  const { repository } = inputs;
  if (integrationId != null && repository !== undefined) {
    return { source: 'codehost', integrationId, repository };
  }
  const problems: InputProblem[] = [];
  if (integrationId == null) {
    problems.push({
      input: 'integration-id',
      problem: 'is required with source codehost (or config.source_config.integration_id)',
    });
  }
  if (repository === undefined) {
    problems.push({
      input: 'repository',
      problem: 'is required with source codehost (owner/name)',
    });
  }
  return problems;
}

/** The fields only the spec's source has, or what that source needs and lacks. */
function sourceFields(inputs: ParsedInputs, wanted: Requested): SourceFields | InputProblem[] {
  const { source } = inputs;
  const missing = (problems: InputProblem[], fields: SourceFields) =>
    problems.length > 0 ? problems : fields;
  switch (source) {
    case 'codehost':
      return codehostFields(inputs, wanted);
    case 'external_docker':
      return missing(needsImage(source, wanted), {
        source,
        secretReferences: wanted.secretReferences,
      });
    case 'internal_docker':
      return missing(needsImage(source, wanted), { source });
    case 'internal_source': {
      const tarball = wanted.sourceRevisionConfig.source_tarball_path;
      const problem = 'source internal_source needs source_revision_config.source_tarball_path';
      return missing(tarball == null ? [{ input: 'config', problem }] : [], { source });
    }
    case 'internal_template':
      return { source };
  }
}

/**
 * The spec's warnings: one for a `deployment_type` the action does not know,
 * which is sent as it is (the service decides).
 */
function specWarnings(wanted: Requested): string[] {
  const type = wanted.sourceConfig.deployment_type;
  const warning = unknownValueWarning(
    'config: source_config.deployment_type',
    type,
    DEPLOYMENT_TYPES,
  );
  return warning === undefined ? [] : [warning];
}

function commonFields(
  inputs: ParsedInputs,
  wanted: Requested,
  fields: SourceFields,
  run: RunDescription,
): DeploySpecCommon {
  const access = serviceAccess(inputs);
  const health = healthRequest(inputs);
  return {
    apiUrl: access.apiUrl,
    headers: access.headers,
    name: inputs.name,
    sourceConfig: wanted.sourceConfig,
    sourceRevisionConfig: wanted.sourceRevisionConfig,
    secrets: inputs.secrets,
    waitForReady: inputs['wait-for-ready'],
    waitTimeoutSeconds: inputs['wait-timeout'],
    ...(health === undefined ? {} : { health }),
    commit: commitRequest(inputs.commit, fields, run),
    onDrift: inputs['on-drift'],
    dryRun: inputs['dry-run'],
    dashboardUrl: inputs['dashboard-url'],
    sensitiveValues: [
      ...access.sensitiveValues,
      ...healthSensitiveValues(inputs),
      ...inputs.secrets.map((secret) => secret.value),
    ],
    warnings: specWarnings(wanted),
  };
}

/** The deploy spec, or an `InputError` naming every input that does not fit the others. */
export function buildDeploySpec(inputs: ParsedInputs, run: RunDescription): DeploySpec {
  const wanted = requested(inputs);
  const problems = combinationProblems(inputs, wanted, run);
  const fields = sourceFields(inputs, wanted);
  if (Array.isArray(fields)) throw new InputError([...problems, ...fields]);
  if (problems.length > 0) throw new InputError(problems);
  return { ...commonFields(inputs, wanted, fields, run), ...fields };
}

/**
 * Reads and validates every core input. Throws an `InputError` naming each
 * bad one: first every input that is wrong on its own, else every input
 * that does not fit the others.
 */
export function readDeploySpec(read: InputReader<InputName>, run: RunDescription): DeploySpec {
  return buildDeploySpec(readInputs(INPUTS, read, run), run);
}
