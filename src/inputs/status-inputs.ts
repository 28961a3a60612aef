/**
 * `deploy-agent status`'s inputs that reach the service: how to reach it,
 * the name, the wait's, and the dashboard's address for its output. It
 * looks a deployment up: no source, no plan, no commit.
 */
import { readInputs, type InputReader, type InputValues } from './declare.js';
import { pick, type InputName } from './core-inputs.js';
import { entryInputs } from './deploy-request.js';
import { InputError } from './errors.js';
import type { Manifest } from './manifest.js';
import { namedAgents } from './name-template.js';
import {
  HEALTH_INPUT_NAMES,
  healthRequest,
  healthSensitiveValues,
  unusedHealthProblems,
} from './health-inputs.js';
import type { HealthRequest } from './deploy-spec.js';
import { wordsOf, type RunDescription } from './run-description.js';
import { checkedAccess, ACCESS_INPUT_NAMES, type ServiceAccess } from './service-access.js';

/** The core's inputs `status` takes, in action.yml's order. */
export const STATUS_INPUTS = pick([
  ...ACCESS_INPUT_NAMES,
  'name',
  'agents',
  'wait-for-ready',
  'wait-timeout',
  ...HEALTH_INPUT_NAMES,
  'dashboard-url',
]);

/** What `status` asks of the service: the deployment of that exact name, looked up read-only, and maybe waited for. */
export interface StatusRequest extends ServiceAccess {
  /** The deployment's name, matched exactly. */
  name: string;
  /** Wait until it is live. */
  waitForReady: boolean;
  waitTimeoutSeconds: number;
  /** The check of the deployment's own address, part of live (off when absent). */
  health?: HealthRequest;
  /** Where a person opens the deployment: a template of `{id}`, `{tenant_id}`, `{name}`. */
  dashboardUrl?: string;
}

/** One agent of a manifest, as `status` looks it up: its key, and its deployment's look-up. */
export interface AgentLookup {
  key: string;
  /** The look-up; `spec.name` is the agent's deployment name (the template filled). */
  spec: StatusRequest;
}

/**
 * `status` of every agent of a manifest (`agents`), each looked up as if alone; without
 * one, the one deployment's look-up as a manifest of one, laid out `flat`.
 */
export interface StatusAsked {
  layout: 'flat' | 'keyed';
  /** Where the manifest came from: its file's path, or `inline`. */
  source: string;
  agents: AgentLookup[];
}

/**
 * Every agent's look-up: its deployment name is the `name` template (if
 * any) filled with the agent's name (its entry's `name`, else its key);
 * the rest of an entry describes a deploy, which `status` does not make.
 * Two agents with one deployment name are an input error, as for `deploy`.
 */
function agentLookups(
  manifest: Manifest,
  inputs: InputValues<typeof STATUS_INPUTS>,
  lookup: StatusRequest,
  run: RunDescription,
): AgentLookup[] {
  const { agents, problems } = namedAgents(manifest, inputs.name);
  const lookups = agents.map((agent) => {
    // The entry's check over the step's, parsed as the deploy parses it.
    const own = entryInputs(agent, ['health-check', 'health-check-expect'], run);
    problems.push(...own.problems);
    const checked = { ...inputs, ...own.overrides };
    const spec: StatusRequest = {
      ...lookup,
      name: agent.deploymentName,
      sensitiveValues: [...lookup.sensitiveValues, ...healthSensitiveValues(checked)],
    };
    const health = healthRequest(checked);
    if (health === undefined) delete spec.health;
    else spec.health = health;
    return { key: agent.key, spec };
  });
  if (problems.length > 0) throw new InputError(problems);
  return lookups;
}

/** The look-up the inputs ask for, the name aside. */
function lookupOf(inputs: InputValues<typeof STATUS_INPUTS>, access: ServiceAccess): StatusRequest {
  const dashboardUrl = inputs['dashboard-url'];
  const health = healthRequest(inputs);
  return {
    ...access,
    sensitiveValues: [...access.sensitiveValues, ...healthSensitiveValues(inputs)],
    ...(health === undefined ? {} : { health }),
    name: inputs.name,
    waitForReady: inputs['wait-for-ready'],
    waitTimeoutSeconds: inputs['wait-timeout'],
    ...(dashboardUrl === undefined ? {} : { dashboardUrl }),
  };
}

/**
 * Reads and checks `status`'s inputs, before any request; throws an
 * `InputError` naming each bad one: one look-up, or with a manifest
 * (`agents`) one an agent. The run is read without its repository,
 * as `status` always read it (it takes no `repository`); so an empty api
 * key on a pull request whose head names its repository reads as a fork's.
 */
export function readStatusRequest(read: InputReader<InputName>, run: RunDescription): StatusAsked {
  const inputs = readInputs(STATUS_INPUTS, read, { ...run, repository: undefined });
  const manifest = inputs.agents;
  const problems = unusedHealthProblems(inputs, wordsOf(run), manifest);
  if (problems.length > 0) throw new InputError(problems);
  const lookup = lookupOf(inputs, checkedAccess(inputs));
  if (manifest === undefined) {
    return { layout: 'flat', source: 'inline', agents: [{ key: lookup.name, spec: lookup }] };
  }
  const agents = agentLookups(manifest, inputs, lookup, run);
  return { layout: 'keyed', source: manifest.source, agents };
}
