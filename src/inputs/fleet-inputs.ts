/** A `status` or `deployment-type` the action does not know is passed on with a warning: the service decides. */
import { given, input, type InputValues } from './declare.js';
import { pick } from './core-inputs.js';
import { fail, InputError } from './errors.js';
import { parseBoolean, parseGuid, unlessEmpty } from './parsers.js';
import { UNSAFE_IN_AN_INPUT } from '../common/characters.js';
import type { DeploymentFilters } from '../service/endpoints.js';
import { DEPLOYMENT_TYPES, STATUSES, unknownValueWarning } from '../service/schemas.js';
import { checkedAccess, ACCESS_INPUT_NAMES, type ServiceAccess } from './service-access.js';

/** The most `list --all` reads: 100 pages of 100. */
export const LIST_CAP = 10_000;
const DEFAULT_LIST_LIMIT = 100;

/** One line of text: a filter value is sent in a query, never with a control character. */
function parseFilterText(raw: string): string {
  if (UNSAFE_IN_AN_INPUT.test(raw)) fail('must not contain control characters or line breaks');
  return raw;
}

/** Comma-separated uuids, spaces around each allowed. */
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

function parseLimit(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    fail(`must be a whole number, at least 1, got '${raw}'`);
  return Number(raw);
}

export const FLEET_SHARED_INPUTS = pick(ACCESS_INPUT_NAMES);

/** The filters, in the order the service's interface lists them, then how many. */
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

export const REPOS_INPUTS = pick([...ACCESS_INPUT_NAMES, 'integration-id']);

/** `all`: a warning when the cap cuts the list; `warnings` logged before any request. */
interface ListRequest {
  access: ServiceAccess;
  filters: DeploymentFilters;
  limit: number;
  all: boolean;
  warnings: string[];
}

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
    filters: given(filters),
    limit: inputs.all ? LIST_CAP : inputs.limit,
    all: inputs.all,
    warnings,
  };
}

export function reposRequest(inputs: InputValues<typeof REPOS_INPUTS>): {
  access: ServiceAccess;
  integrationId: string;
} {
  const integrationId = inputs['integration-id'];
  if (integrationId === undefined) {
    throw new InputError([{ input: 'integration-id', problem: 'is required (a uuid)' }]);
  }
  return { access: checkedAccess(inputs), integrationId };
}
