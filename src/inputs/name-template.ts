/**
 * The deploy step's `name` beside `agents`: without a manifest it is the
 * deployment's name, and required; with one it is either empty (each
 * agent's deployment is named by the agent's name) or a template holding
 * `{agent}` exactly once, which each agent's name fills (`{agent}-pr-7`).
 */
import { NAME_REQUIRED, parseName } from './parsers.js';

/** What stands for the agent's name in the template. */
export const AGENT_PLACEHOLDER = '{agent}';

/** How many times `text` holds `{agent}`. */
export function placeholderCount(text: string): number {
  return text.split(AGENT_PLACEHOLDER).length - 1;
}

/** `name` as given: empty beside `agents`, else one name (checked against `agents` apart). */
export function parseNameOrTemplate(raw: string): string {
  return raw === '' ? '' : parseName(raw);
}

/**
 * What is wrong with `name` beside the raw `agents` of its set, if anything:
 * empty without a manifest, or with one a text that does not hold `{agent}`
 * exactly once.
 */
export function nameBesideAgents(
  raw: string,
  set: Readonly<Record<string, string>>,
): string | undefined {
  if ((set.agents ?? '') === '') return raw === '' ? NAME_REQUIRED : undefined;
  if (raw === '') return undefined;
  const count = placeholderCount(raw);
  if (count === 1) return undefined;
  const held = count === 0 ? 'does not hold {agent}' : `holds {agent} ${count} times`;
  return `${held}: with agents it is empty (each deployment named by its agent's name) or holds {agent} exactly once, which each agent's name fills (like {agent}-pr-7)`;
}

/** The deployment name of the agent named `agentName`: the template filled, else its name. */
export function deploymentName(template: string, agentName: string): string {
  return template === '' ? agentName : template.replace(AGENT_PLACEHOLDER, () => agentName);
}
