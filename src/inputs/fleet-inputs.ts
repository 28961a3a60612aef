/**
 * The inputs of the fleet's commands: `list` takes the service's inputs and
 * every filter of the deployments' listing (docs/how-it-works.md, "The
 * service's interface"), `--limit` and `--all`; `repos` the
 * service's inputs and the integration. Values the interface constrains are
 * checked before any request; a `status` or `deployment-type` the action
 * does not know is passed on with a warning: the service decides.
 */
import { input, type InputValues } from './declare.js';
import { pick } from './core-inputs.js';
import { fail, InputError } from './errors.js';
import { parseBoolean, parseGuid, unlessEmpty } from './parsers.js';
import { UNSAFE_IN_AN_INPUT } from '../common/characters.js';
import type { DeploymentFilters } from '../service/endpoints.js';
import { unknownValueWarning } from '../service/known-values.js';
import { DEPLOYMENT_TYPES, STATUSES } from '../service/schemas.js';
import { checkedAccess, ACCESS_INPUT_NAMES, type ServiceAccess } from './service-access.js';

/** The most `list --all` reads: 100 pages of 100. */
export const LIST_CAP = 10_000;
/** How many deployments `list` shows when neither `--limit` nor `--all` says. */
export const DEFAULT_LIST_LIMIT = 100;

/** One line of text: a filter value is sent in a query, never with a control character. */
function parseFilterText(raw: string): string {
  if (UNSAFE_IN_AN_INPUT.test(raw)) fail('must not contain control characters or line breaks');
  return raw;
}

/** Comma-separated uuids (`a,b`), spaces around each allowed; each checked. */
function parseIdList(raw: string): string[] {
  const ids = raw.split(',').map((id) => id.trim());
  if (ids.some((id) => id === '')) fail(`must be uuids separated by commas, got '${raw}'`);
  return ids.map((id) => {
    try {
      return parseGuid(id);
    } catch {
      return fail(`must be uuids separated by commas; '${id}' is not a uuid`);
    }
  });
}

/** A whole number of deployments, at least 1. */
function parseLimit(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    fail(`must be a whole number, at least 1, got '${raw}'`);
  return Number(raw);
}

/** The service's inputs, shared by both commands. */
export const FLEET_SHARED_INPUTS = pick(ACCESS_INPUT_NAMES);

/** `list`'s own inputs: the filters, in the order the service's interface lists them, then how many. */
export const LIST_OWN_INPUTS = {
  'name-contains': input(unlessEmpty(parseFilterText)),
  status: input(unlessEmpty(parseFilterText)),
  'remote-reconciled': input(unlessEmpty(parseBoolean)),
  'tag-value-ids': input(unlessEmpty(parseIdList)),
  'image-version': input(unlessEmpty(parseFilterText)),
  'deployment-type': input(unlessEmpty(parseFilterText)),
  'deployment-ids': input(unlessEmpty(parseIdList)),
  limit: input(parseLimit, { default: String(DEFAULT_LIST_LIMIT) }),
  all: input(parseBoolean, { default: 'false' }),
};
export type ListOwnInput = keyof typeof LIST_OWN_INPUTS;

/** `repos`'s: the service's, and the integration whose repositories are listed. */
export const REPOS_INPUTS = pick([...ACCESS_INPUT_NAMES, 'integration-id']);

export interface ListRequest {
  access: ServiceAccess;
  filters: DeploymentFilters;
  /** How many deployments at most: `--limit`, or the cap with `--all`. */
  limit: number;
  /** `--all`: a warning when the cap cuts the list. */
  all: boolean;
  /** One for each value the action does not know (passed on as given), to log before any request. */
  warnings: string[];
}

export interface ReposRequest {
  access: ServiceAccess;
  integrationId: string;
}

/** What `list` asks for, from its inputs each read on its own. */
export function listRequest(
  inputs: InputValues<typeof FLEET_SHARED_INPUTS> & InputValues<typeof LIST_OWN_INPUTS>,
): ListRequest {
  const ids = (list: string[] | undefined) => (list === undefined ? undefined : list.join(','));
  const filters: DeploymentFilters = {
    name_contains: inputs['name-contains'],
    status: inputs.status,
    remote_reconciled: inputs['remote-reconciled'],
    tag_value_ids: ids(inputs['tag-value-ids']),
    image_version: inputs['image-version'],
    deployment_type: inputs['deployment-type'],
    deployment_ids: ids(inputs['deployment-ids']),
  };
  const warnings = [
    unknownValueWarning('status', inputs.status, STATUSES),
    unknownValueWarning('deployment-type', inputs['deployment-type'], DEPLOYMENT_TYPES),
  ].filter((warning) => warning !== undefined);
  return {
    access: checkedAccess(inputs),
    filters: Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)),
    limit: inputs.all ? LIST_CAP : inputs.limit,
    all: inputs.all,
    warnings,
  };
}

/** What `repos` asks for. */
export function reposRequest(inputs: InputValues<typeof REPOS_INPUTS>): ReposRequest {
  const integrationId = inputs['integration-id'];
  if (integrationId === undefined) {
    throw new InputError([{ input: 'integration-id', problem: 'is required (a uuid)' }]);
  }
  return { access: checkedAccess(inputs), integrationId };
}
