/**
 * The deploy step's `name` beside `agents`: without a manifest it is the
 * deployment's name, and required; with one it is either empty (each
 * agent's deployment is named by the agent's name) or a template holding
 * `{agent}` exactly once, which each agent's name fills (`{agent}-pr-7`).
 */
import { AGENT_PLACEHOLDER, fillPlaceholder, placeholderCount } from '../common/placeholders.js';
import { Invalid, type InputProblem } from './errors.js';
import type { AgentEntry, Manifest } from './manifest.js';
import { NAME_REQUIRED, parseName } from './parsers.js';
import { formatIssuePath } from '../service/issues.js';

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
  const count = placeholderCount(raw, AGENT_PLACEHOLDER);
  if (count === 1) return undefined;
  const held = count === 0 ? 'does not hold {agent}' : `holds {agent} ${count} times`;
  return `${held}: with agents it is empty (each deployment named by its agent's name) or holds {agent} exactly once, which each agent's name fills (like {agent}-pr-7)`;
}

/** The deployment name of the agent named `agentName`: the template filled (as text), else its name. */
export function deploymentName(template: string, agentName: string): string {
  return template === '' ? agentName : fillPlaceholder(template, AGENT_PLACEHOLDER, agentName);
}

/** One agent of a manifest, named: its key, its entry, its name and its deployment's. */
export interface NamedAgent {
  key: string;
  entry: AgentEntry;
  /** The agent's name: its entry's `name`, else its key. */
  name: string;
  /** Its deployment's name: the template filled with the agent's name, else that name. */
  deploymentName: string;
}

/** A problem for each value that more than one agent has, naming the agents (`support` and `docs`). */
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

/**
 * Every agent of `manifest` with a valid name, and the problems of the
 * others: a name (or, filled in `template`, a deployment name) that is not
 * one, named by its path (`agents.research.name`); two agents with one
 * deployment name; and the manifest's own (a bad key, an unknown entry
 * key). Every entry that reads a manifest names its agents so.
 */
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
