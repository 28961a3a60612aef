/**
 * `deploy-agent status`'s inputs that reach the service: how to reach it,
 * the name, the wait's, and the dashboard's address for its output. It
 * looks a deployment up: no source, no plan, no commit.
 */
import { readInputs, type InputReader } from './declare.js';
import { pick, type InputName } from './core-inputs.js';
import type { RunDescription } from './run-description.js';
import { checkedAccess, ACCESS_INPUT_NAMES, type ServiceAccess } from './service-access.js';

/** The core's inputs `status` takes, in action.yml's order. */
export const STATUS_INPUTS = pick([
  ...ACCESS_INPUT_NAMES,
  'name',
  'wait-for-ready',
  'wait-timeout',
  'dashboard-url',
]);

/** What `status` asks of the service: the deployment of that exact name, looked up read-only, and maybe waited for. */
export interface StatusRequest extends ServiceAccess {
  /** The deployment's name, matched exactly. */
  name: string;
  /** Wait until it is live. */
  waitForReady: boolean;
  waitTimeoutSeconds: number;
  /** Where a person opens the deployment: a template of `{id}`, `{tenant_id}`, `{name}`. */
  dashboardUrl?: string;
}

/**
 * Reads and checks `status`'s inputs, before any request; throws an
 * `InputError` naming each bad one. The run is read without its repository,
 * as `status` always read it (it takes no `repository`); so an empty api
 * key on a pull request whose head names its repository reads as a fork's.
 */
export function readStatusRequest(
  read: InputReader<InputName>,
  run: RunDescription,
): StatusRequest {
  const inputs = readInputs(STATUS_INPUTS, read, { ...run, repository: undefined });
  const access = checkedAccess(inputs);
  const dashboardUrl = inputs['dashboard-url'];
  return {
    ...access,
    name: inputs.name,
    waitForReady: inputs['wait-for-ready'],
    waitTimeoutSeconds: inputs['wait-timeout'],
    ...(dashboardUrl === undefined ? {} : { dashboardUrl }),
  };
}
