/** The command's own words (options, variables, the CI) where the action's (inputs, the step) do not fit. */
import type { InputName } from '../inputs/core-inputs.js';
import { LIST_CAP, type ListOwnInput } from '../inputs/fleet-inputs.js';
import type { PLAN_OWN_INPUTS } from '../inputs/plan-inputs.js';
import { DEPLOYMENT_TYPES, STATUSES } from '../service/schemas.js';
import type { RemedyWords } from '../service/answers.js';

const COMMAND_WORDS: RemedyWords = {
  apiKey: 'DEPLOY_API_KEY or --api-key-file',
  apiKeyHeader: '--api-key-header',
  headers: '--header or DEPLOY_HEADERS',
  integrationId: '--integration-id',
  apiUrl: '--api-url (DEPLOY_API_URL)',
  name: '--name',
  repository: '--repository',
  waitTimeout: '--wait-timeout',
  healthCheckHeaders: '--health-check-header (or DEPLOY_HEALTH_CHECK_HEADERS)',
  onDriftFail: '--on-drift fail',
  onChangeFail: '--on-change fail',
  // GitLab's word; commandWords says pull request elsewhere (a GitHub pull request on CircleCI).
  changeRequest: 'merge request',
  asker: 'the command',
  secrets: 'DEPLOY_SECRETS, --secrets-file or --secret NAME',
  healthCheck: '--health-check',
  commit: '--commit',
  noWait: 'no --wait',
};

/** A merge request on GitLab, a pull request elsewhere; the API URL named as it was given. */
export function commandWords(
  env: Readonly<Record<string, string | undefined>>,
  apiUrlFrom: string | undefined,
): RemedyWords {
  return {
    ...COMMAND_WORDS,
    ...(env.GITLAB_CI === 'true' ? {} : { changeRequest: 'pull request' }),
    ...(apiUrlFrom === undefined ? {} : { apiUrlFrom }),
  };
}

export const COMMAND_DESCRIPTIONS: Readonly<Partial<Record<InputName, string>>> = {
  'api-key': 'Credential sent in the header named by --api-key-header. Masked and never printed.',
  'api-key-header':
    'Header that carries the API key (not one the command sets itself, such as Host or Content-Type).',
  config:
    'A JSON or YAML object, inline or as a path to a .json, .yaml or .yml file in the current folder (at most 1 MiB), with optional keys source_config, source_revision_config and secret_references. Unknown and repeated keys are an error.',
  repository:
    "owner/name of the repository to deploy with codehost, matched case-insensitively against the integration's repository listing. Defaults to the CI system's project slug (e.g. GitLab's CI_PROJECT_PATH); where there is none, required for codehost.",
  'on-drift':
    'What to do when a reused deployment differs from what the command asks for: warn or fail.',
};

export const PLAN_OPTION_DESCRIPTIONS: Readonly<Record<keyof typeof PLAN_OWN_INPUTS, string>> = {
  'on-change':
    'fail: exit 1 when the plan holds a difference the deploy would not apply, so a required CI job can block the merge. none: it only reports.',
};

export const LIST_OPTION_DESCRIPTIONS: Readonly<Record<ListOwnInput, string>> = {
  'name-contains': 'Only deployments whose name contains VALUE (the service matches it).',
  status: `Only deployments in this status (${STATUSES.join(', ')}; another value is passed on with a warning).`,
  'remote-reconciled': 'Only deployments that are (true) or are not (false) remote-reconciled.',
  'tag-value-ids': 'Only deployments with these tag values: uuids separated by commas.',
  'image-version': 'Only deployments of this image version.',
  'deployment-type': `Only deployments of this type (${DEPLOYMENT_TYPES.join(', ')}; another, such as serverless, is passed on with a warning).`,
  'deployment-ids': 'Only these deployments: uuids separated by commas.',
  limit: 'Shows at most N deployments: the first N in the order the service answers them.',
  all: `Shows every deployment, up to ${LIST_CAP.toLocaleString('en-US')} (with a warning when there are more); instead of --limit.`,
};
