/** `config` merged under the explicit inputs, and every check across inputs reported together. */
import { commitRequest } from './commit.js';
import type { ParsedInputs } from './core-inputs.js';
import { given } from './declare.js';
import { InputError, Invalid, type InputProblem } from './errors.js';
import { parseImageReference } from './image-reference.js';
import type { DeploySpec, DeploySpecCommon, SourceFields } from './deploy-spec.js';
import { healthProblems, healthRequest, healthSensitiveValues } from './health-inputs.js';
import { wordsOf, type RunDescription } from './run-description.js';
import { accessProblems, serviceAccess } from './service-access.js';
import {
  DEPLOYMENT_TYPES,
  unknownValueWarning,
  type SecretReference,
  type SourceConfigRequest,
  type SourceRevisionConfigRequest,
} from '../service/schemas.js';

interface Requested {
  sourceConfig: SourceConfigRequest;
  sourceRevisionConfig: SourceRevisionConfigRequest;
  secretReferences: SecretReference[] | null;
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

/** `config`'s image, checked as `image-uri` is, unless the input (which wins) is given. */
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

/** A `deployment_type` the action does not know is sent as it is (the service decides). */
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
    ...given({ health }),
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

export function buildDeploySpec(inputs: ParsedInputs, run: RunDescription): DeploySpec {
  const wanted = requested(inputs);
  const problems = combinationProblems(inputs, wanted, run);
  const fields = sourceFields(inputs, wanted);
  if (Array.isArray(fields)) throw new InputError([...problems, ...fields]);
  if (problems.length > 0) throw new InputError(problems);
  return { ...commonFields(inputs, wanted, fields, run), ...fields };
}
