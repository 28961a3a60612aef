import { given, input, type InputValues } from './declare.js';
import { DASHBOARD_INPUT, INPUTS, pick } from './core-inputs.js';
import { InputError } from './errors.js';
import { AGENT_PLACEHOLDER } from '../common/text.js';
import { nameBesideAgents, namedAgents, parseNameOrTemplate } from './name-template.js';
import { checkedAccess, ACCESS_INPUT_NAMES, type ServiceAccess } from './service-access.js';

/** Never empty beside `agents`: each agent's own name is its production deployment's, never a preview. */
function retireNameBesides(raw: string, set: Readonly<Record<string, string>>): string | undefined {
  if ((set.agents ?? '') !== '' && !raw.includes(AGENT_PLACEHOLDER)) {
    return `${raw === '' ? 'is empty' : 'does not hold {agent}'}: with agents it is the previews' name template, holding {agent} exactly once, which each agent's name fills (like {agent}-pr-7)`;
  }
  return nameBesideAgents(raw, set);
}

export const RETIRE_SERVICE_INPUTS = {
  ...pick([...ACCESS_INPUT_NAMES]),
  name: input(parseNameOrTemplate, { default: '', besides: retireNameBesides }),
  agents: INPUTS.agents,
};

/** A preview to retire: its key (an agent's, or the step's name) and its deployment's name. */
export interface PreviewToRetire {
  key: string;
  name: string;
}

/** What a retire asks of the service: each preview's deployment, looked up read-only. */
export interface RetireAsked extends ServiceAccess {
  layout: 'flat' | 'keyed';
  /** Where the manifest was read: its path, or `inline`. */
  source?: string;
  agents: readonly PreviewToRetire[];
  dashboardUrl?: string;
}

/** One preview of a retire, with what GitHub is told of it. */
interface AgentPreview extends PreviewToRetire {
  agentName: string;
  environment?: string;
}

/** Without `agents`, a manifest of one preview. */
export interface RetireRequest extends RetireAsked {
  nameTemplate: string;
  agents: AgentPreview[];
}

type RetireInputs = InputValues<typeof RETIRE_SERVICE_INPUTS> & InputValues<typeof DASHBOARD_INPUT>;

function previews(inputs: RetireInputs): Pick<RetireRequest, 'layout' | 'source' | 'agents'> {
  const manifest = inputs.agents;
  if (manifest === undefined) {
    const { name } = inputs;
    return { layout: 'flat', agents: [{ key: name, name, agentName: name }] };
  }
  const { agents: named, problems } = namedAgents(manifest, inputs.name);
  const agents = named.map(({ key, name: agentName, deploymentName: name, entry }) => ({
    key,
    name,
    agentName,
    ...given({ environment: entry.environment }),
  }));
  if (problems.length > 0) throw new InputError(problems);
  return { layout: 'keyed', source: manifest.source, agents };
}

export function retireRequest(inputs: RetireInputs): RetireRequest {
  return {
    ...checkedAccess(inputs),
    ...previews(inputs),
    nameTemplate: inputs.name,
    ...given({ dashboardUrl: inputs['dashboard-url'] }),
  };
}
