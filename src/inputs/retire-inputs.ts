/**
 * The retire step's inputs (retire/action.yml) that reach the service:
 * how to reach it, the preview's deployment name (or, with a manifest, the
 * template of every agent's preview name) and the dashboard's address. The
 * GitHub ones (`environment`, `github-token`, `pr-comment` defaulting to
 * `true`) are the GitHub adapter's to add.
 */
import { input, type InputValues } from './declare.js';
import { INPUTS, pick } from './core-inputs.js';
import { InputError } from './errors.js';
import {
  nameBesideAgents,
  namedAgents,
  parseNameOrTemplate,
  placeholderCount,
} from './name-template.js';
import { checkedAccess, ACCESS_INPUT_NAMES, type ServiceAccess } from './service-access.js';

/**
 * `name` beside `agents` in a retire: one name without a manifest; with one,
 * a template holding `{agent}` exactly once. Never empty: each agent's own
 * name is what its production deployment is called, never a preview.
 */
function retireNameBesides(raw: string, set: Readonly<Record<string, string>>): string | undefined {
  if ((set.agents ?? '') !== '' && placeholderCount(raw) === 0) {
    return `${raw === '' ? 'is empty' : 'does not hold {agent}'}: with agents it is the previews' name template, holding {agent} exactly once, which each agent's name fills (like {agent}-pr-7)`;
  }
  return nameBesideAgents(raw, set);
}

/** The core's inputs a retire takes to reach the service, in retire/action.yml's order. */
export const RETIRE_SERVICE_INPUTS = {
  ...pick([...ACCESS_INPUT_NAMES]),
  name: input(parseNameOrTemplate, { default: '', besides: retireNameBesides }),
  agents: INPUTS.agents,
};

/** The dashboard's address, last in retire/action.yml. */
export const RETIRE_DASHBOARD_INPUT = pick(['dashboard-url']);

/** What a retire asks of the service: the preview's deployment, looked up read-only. */
export interface RetireRequest extends ServiceAccess {
  /** The preview's deployment name. */
  name: string;
  /** Where a person opens (and deletes) the deployment: a template of `{id}`, `{tenant_id}`, `{name}`. */
  dashboardUrl?: string;
}

/** One agent of a manifest whose preview is retired. */
export interface AgentPreview {
  key: string;
  /** The preview's deployment name: the template, `{agent}` the agent's name. */
  name: string;
  /** The agent's name: its entry's `name`, else its key. */
  agentName: string;
  /** The entry's own `environment`, as written, when it sets one. */
  environment?: string;
}

/** The retire of every agent's preview a manifest holds. */
export interface AgentsRetireRequest extends Omit<RetireRequest, 'name'> {
  /** Where the manifest was read: its path, or `inline`. */
  source: string;
  /** The step's `name`, the template holding `{agent}`. */
  nameTemplate: string;
  agents: AgentPreview[];
}

type RetireInputs = InputValues<typeof RETIRE_SERVICE_INPUTS> &
  InputValues<typeof RETIRE_DASHBOARD_INPUT>;

/** The manifest's previews, or every problem of their names at once. */
function previews(inputs: RetireInputs, access: ServiceAccess): AgentsRetireRequest {
  const manifest = inputs.agents;
  if (manifest === undefined) throw new Error('previews: no manifest');
  const { agents: named, problems } = namedAgents(manifest, inputs.name);
  const agents = named.map(({ key, name: agentName, deploymentName: name, entry }) => {
    const { environment } = entry;
    return { key, name, agentName, ...(environment === undefined ? {} : { environment }) };
  });
  if (problems.length > 0) throw new InputError(problems);
  const dashboardUrl = inputs['dashboard-url'];
  return {
    ...access,
    source: manifest.source,
    nameTemplate: inputs.name,
    agents,
    ...(dashboardUrl === undefined ? {} : { dashboardUrl }),
  };
}

/** The retire these inputs ask for, checked against each other before any request. */
export function retireRequest(
  inputs: RetireInputs,
): { kind: 'one'; request: RetireRequest } | { kind: 'agents'; request: AgentsRetireRequest } {
  const access = checkedAccess(inputs);
  if (inputs.agents !== undefined) return { kind: 'agents', request: previews(inputs, access) };
  const dashboardUrl = inputs['dashboard-url'];
  return {
    kind: 'one',
    request: {
      ...access,
      name: inputs.name,
      ...(dashboardUrl === undefined ? {} : { dashboardUrl }),
    },
  };
}
