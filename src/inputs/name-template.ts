import { AGENT_PLACEHOLDER, fillPlaceholder, placeholderCount } from '../common/text.js';
import { Invalid, type InputProblem } from './errors.js';
import type { AgentEntry, Manifest } from './manifest.js';
import { NAME_REQUIRED, parseName } from './parsers.js';
import { formatIssuePath } from '../service/issues.js';

/** Empty beside `agents`, else one name (checked against `agents` apart). */
export function parseNameOrTemplate(raw: string): string {
  return raw === '' ? '' : parseName(raw);
}

/** Without a manifest `name` is required; with one, empty or holding `{agent}` exactly once. */
export function nameBesideAgents(
  raw: string,
  set: Readonly<Record<string, string>>,
): string | undefined {
  if ((set.agents ?? '') === '') return raw === '' ? NAME_REQUIRED : undefined;
  if (raw === '') return undefined;
  const count = placeholderCount(raw, AGENT_PLACEHOLDER);
  if (count === 1) return undefined;
  const held = count === 0 ? 'does not hold {agent}' : `holds {agent} ${count} times`;
  return `${held}: with agents it is empty (each deployment named by its agent's name) or holds {agent} exactly once, which each agent's name fills (like {agent}-pr-7)`;
}

export function deploymentName(template: string, agentName: string): string {
  return template === '' ? agentName : fillPlaceholder(template, AGENT_PLACEHOLDER, agentName);
}

/** `name` is its entry's `name`, else its key. */
export interface NamedAgent {
  key: string;
  entry: AgentEntry;
  name: string;
  deploymentName: string;
}

/** A problem for each value more than one agent has, naming them (`support and docs`). */
export function sharedValues(
  values: readonly { key: string; value: string | undefined }[],
  problem: (value: string, keys: string) => InputProblem,
): InputProblem[] {
  const byValue = new Map<string, string[]>();
  for (const { key, value } of values) {
    if (value !== undefined) byValue.set(value, [...(byValue.get(value) ?? []), key]);
  }
  return [...byValue]
    .filter(([, keys]) => keys.length > 1)
    .map(([value, keys]) =>
      problem(value, `${keys.slice(0, -1).join(', ')} and ${keys[keys.length - 1] ?? ''}`),
    );
}

/** Every agent with a valid (deployment) name, and every problem: the others', shared names, the manifest's own. */
export function namedAgents(
  manifest: Manifest,
  template: string,
): { agents: NamedAgent[]; problems: InputProblem[] } {
  const agents: NamedAgent[] = [];
  // Its keys' and entries' shapes, reported here with the rest, so that one hides no other.
  const problems: InputProblem[] = [...manifest.problems];
  for (const { key, entry } of manifest.agents) {
    try {
      const name = parseName((entry.name ?? key).trim());
      agents.push({ key, entry, name, deploymentName: parseName(deploymentName(template, name)) });
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      problems.push({ input: formatIssuePath(['agents', key, 'name']), problem: error.message });
    }
  }
  const names = agents.map(({ key, deploymentName: value }) => ({ key, value }));
  problems.push(
    ...sharedValues(names, (name, keys) => ({
      input: 'agents',
      problem: `agents ${keys} would have one deployment name, '${name}': give each its own name`,
    })),
  );
  return { agents, problems };
}
