import { given, readInputs, type InputReader, type InputValues } from './declare.js';
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

export const STATUS_INPUTS = pick([
  ...ACCESS_INPUT_NAMES,
  'name',
  'agents',
  'wait-for-ready',
  'wait-timeout',
  ...HEALTH_INPUT_NAMES,
  'dashboard-url',
]);

/** The deployment of that exact name, looked up read-only, and maybe waited for. */
export interface StatusRequest extends ServiceAccess {
  name: string;
  waitForReady: boolean;
  waitTimeoutSeconds: number;
  health?: HealthRequest;
  dashboardUrl?: string;
}

interface AgentLookup {
  key: string;
  spec: StatusRequest;
}

/** Each agent looked up as if alone; without a manifest, a manifest of one, laid out `flat`. */
export interface StatusAsked {
  layout: 'flat' | 'keyed';
  source: string;
  agents: AgentLookup[];
}

/** Of an entry only its check counts: the rest describes a deploy, which `status` does not make. */
function agentLookups(
  manifest: Manifest,
  inputs: InputValues<typeof STATUS_INPUTS>,
  lookup: StatusRequest,
  run: RunDescription,
): AgentLookup[] {
  const { agents, problems } = namedAgents(manifest, inputs.name);
  const lookups = agents.map((agent) => {
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

function lookupOf(inputs: InputValues<typeof STATUS_INPUTS>, access: ServiceAccess): StatusRequest {
  return {
    ...access,
    sensitiveValues: [...access.sensitiveValues, ...healthSensitiveValues(inputs)],
    ...given({ health: healthRequest(inputs) }),
    name: inputs.name,
    waitForReady: inputs['wait-for-ready'],
    waitTimeoutSeconds: inputs['wait-timeout'],
    ...given({ dashboardUrl: inputs['dashboard-url'] }),
  };
}

/**
 * The run is read without its repository (`status` takes no `repository`), so an empty
 * api key on a pull request whose head names its repository reads as a fork's.
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
