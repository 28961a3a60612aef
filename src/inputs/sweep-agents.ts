/**
 * The sweep's name pattern beside a manifest: `{agent}` filled with each of
 * the manifest's agents' exact names, never a wildcard, so a deployment
 * matches only when it is the pattern with one of those names and a number.
 * Every comparison is of whole texts (no regular expression is built from a
 * name); a name two agents' patterns both give is ambiguous, and matches
 * neither.
 */
import { fillPlaceholder } from '../common/placeholders.js';
import { AGENT_PLACEHOLDER } from './name-template.js';
import { digitsIn, filled, searchText, type NamePattern, type SweptAgent } from './sweep-inputs.js';

/** One agent's previews: its name, and the pattern with `{agent}` filled by it. */
export interface AgentPattern {
  /** The agent; undefined for a pattern without `{agent}` (no manifest). */
  agent?: SweptAgent;
  names: NamePattern;
}

/** What a deployment's name matches: the agent (if any) and the digits of its number. */
export interface PatternMatch {
  agent?: SweptAgent;
  digits: string;
}

/** `pattern` with `{agent}` replaced by `name`, as text. */
export function forAgent(pattern: NamePattern, name: string): NamePattern {
  const fill = (text: string) => fillPlaceholder(text, AGENT_PLACEHOLDER, name);
  return {
    text: fill(pattern.text),
    before: fill(pattern.before),
    after: fill(pattern.after),
  };
}

/** The patterns to look for: one an agent with a manifest, else the pattern itself. */
export function agentPatterns(
  names: NamePattern,
  agents: readonly SweptAgent[] | undefined,
): AgentPattern[] {
  if (agents === undefined) return [{ names }];
  return agents.map((agent) => ({ agent, names: forAgent(names, agent.name) }));
}

/** Every pattern `name` matches exactly, with the digits it gives. */
export function matchesOf(patterns: readonly AgentPattern[], name: string): PatternMatch[] {
  return patterns.flatMap(({ agent, names }) => {
    const digits = digitsIn(names, name);
    if (digits === undefined) return [];
    return [agent === undefined ? { digits } : { agent, digits }];
  });
}

/** What each pattern's listing searches for: its longest literal part, each text once. */
export function searchTexts(patterns: readonly AgentPattern[]): string[] {
  return [...new Set(patterns.map(({ names }) => searchText(names)))];
}

/**
 * The environment of a preview: the pattern with the pull request's number
 * and, when it holds `{agent}`, the preview's agent's name.
 */
export function environmentOf(
  pattern: NamePattern,
  number: number,
  agent: SweptAgent | undefined,
): string {
  return filled(agent === undefined ? pattern : forAgent(pattern, agent.name), number);
}
