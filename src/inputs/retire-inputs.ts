/**
 * The retire step's inputs (retire/action.yml) that reach the service:
 * how to reach it, the preview's deployment name and the dashboard's
 * address. The GitHub ones (`environment`, `github-token`, `pr-comment`
 * defaulting to `true`) are the GitHub adapter's to add.
 */
import type { InputValues } from './declare.js';
import { pick } from './core-inputs.js';
import { checkedAccess, ACCESS_INPUT_NAMES, type ServiceAccess } from './service-access.js';

/** The core's inputs a retire takes to reach the service, in retire/action.yml's order. */
export const RETIRE_SERVICE_INPUTS = pick([...ACCESS_INPUT_NAMES, 'name']);

/** The dashboard's address, last in retire/action.yml. */
export const RETIRE_DASHBOARD_INPUT = pick(['dashboard-url']);

/** What a retire asks of the service: the preview's deployment, looked up read-only. */
export interface RetireRequest extends ServiceAccess {
  /** The preview's deployment name. */
  name: string;
  /** Where a person opens (and deletes) the deployment: a template of `{id}`, `{tenant_id}`, `{name}`. */
  dashboardUrl?: string;
}

/** The retire these inputs ask for, checked against each other before any request. */
export function retireRequest(
  inputs: InputValues<typeof RETIRE_SERVICE_INPUTS> & InputValues<typeof RETIRE_DASHBOARD_INPUT>,
): RetireRequest {
  const access = checkedAccess(inputs);
  const dashboardUrl = inputs['dashboard-url'];
  return {
    ...access,
    name: inputs.name,
    ...(dashboardUrl === undefined ? {} : { dashboardUrl }),
  };
}
