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
import { AGENT_PLACEHOLDER } from '../common/placeholders.js';
import { nameBesideAgents, namedAgents, parseNameOrTemplate } from './name-template.js';
import { checkedAccess, ACCESS_INPUT_NAMES, type ServiceAccess } from './service-access.js';

/**
 * `name` beside `agents` in a retire: one name without a manifest; with one,
 * a template holding `{agent}` exactly once. Never empty: each agent's own
 * name is what its production deployment is called, never a preview.
 */
function retireNameBesides(raw: string, set: Readonly<Record<string, string>>): string | undefined {
  if ((set.agents ?? '') !== '' && !raw.includes(AGENT_PLACEHOLDER)) {
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

/** A preview to retire: its key (an agent's, or the step's name) and its deployment's name. */
export interface PreviewToRetire {
  key: string;
  /** The preview's deployment name: the step's `name`, or its template with `{agent}` filled. */
  name: string;
}

/** What a retire asks of the service: each preview's deployment, looked up read-only. */
export interface RetireAsked extends ServiceAccess {
  /** `flat`: the step without `agents`, its one preview; `keyed`: a manifest's, keyed by agent. */
  layout: 'flat' | 'keyed';
  /** Where the manifest was read: its path, or `inline`. */
  source?: string;
  agents: readonly PreviewToRetire[];
  /** Where a person opens (and deletes) the deployment: a template of `{id}`, `{tenant_id}`, `{name}`. */
  dashboardUrl?: string;
}

/** One preview of a retire, with what GitHub is told of it. */
export interface AgentPreview extends PreviewToRetire {
  /** The agent's name: its entry's `name`, else its key. */
  agentName: string;
  /** The entry's own `environment`, as written, when it sets one. */
  environment?: string;
}

/** The retire these inputs ask for: a manifest of one preview without `agents`. */
export interface RetireRequest extends RetireAsked {
  /** The step's `name`: with `agents`, the template holding `{agent}`. */
  nameTemplate: string;
  agents: AgentPreview[];
}

type RetireInputs = InputValues<typeof RETIRE_SERVICE_INPUTS> &
  InputValues<typeof RETIRE_DASHBOARD_INPUT>;

/** The previews these inputs name: the manifest's, else the step's one; or every problem at once. */
function previews(inputs: RetireInputs): Pick<RetireRequest, 'layout' | 'source' | 'agents'> {
  const manifest = inputs.agents;
  if (manifest === undefined) {
    const { name } = inputs;
    return { layout: 'flat', agents: [{ key: name, name, agentName: name }] };
  }
  const { agents: named, problems } = namedAgents(manifest, inputs.name);
  const agents = named.map(({ key, name: agentName, deploymentName: name, entry }) => {
    const { environment } = entry;
    return { key, name, agentName, ...(environment === undefined ? {} : { environment }) };
  });
  if (problems.length > 0) throw new InputError(problems);
  return { layout: 'keyed', source: manifest.source, agents };
}

/** The retire these inputs ask for, checked against each other before any request. */
export function retireRequest(inputs: RetireInputs): RetireRequest {
  const access = checkedAccess(inputs);
  const dashboardUrl = inputs['dashboard-url'];
  return {
    ...access,
    ...previews(inputs),
    nameTemplate: inputs.name,
    ...(dashboardUrl === undefined ? {} : { dashboardUrl }),
  };
}
