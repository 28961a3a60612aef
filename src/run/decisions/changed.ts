/**
 * Whether a pull request changes an agent: the first changed file (in the change's order) that
 * the agent always depends on, or that its `paths` include. The patterns are read in order
 * and the last one that matches a file decides: a pattern with a leading `!` excludes it.
 */
import picomatch from 'picomatch';
import type { AgentChange } from '../ports/changes.js';
import { PATTERN_OPTIONS, patternParts } from '../../inputs/paths.js';

interface Rule {
  pattern: string;
  exclude: boolean;
  matches: (file: string) => boolean;
}

/** The pattern that includes `file` (the last that matches it, not an exclusion), or undefined. */
function including(rules: readonly Rule[], file: string): string | undefined {
  for (let index = rules.length - 1; index >= 0; index -= 1) {
    const rule = rules[index] as Rule;
    if (rule.matches(file)) return rule.exclude ? undefined : rule.pattern;
  }
  return undefined;
}

export function agentChange(
  paths: { patterns: readonly string[]; always: readonly string[] },
  files: readonly string[],
): AgentChange {
  // The manifest's and config's paths are the workspace's; the checkout may sit below it
  // (`actions/checkout`'s `path:`) or the command run in a folder of it: a changed file that
  // ends with one, or that one ends with, changes the agent (one preview too many, never one
  // left out).
  const always = (file: string) =>
    paths.always.some(
      (given) => given === file || file.endsWith(`/${given}`) || given.endsWith(`/${file}`),
    );
  // Each pattern compiled once, for every file.
  const rules: Rule[] = paths.patterns.map((pattern) => {
    const { exclude, glob } = patternParts(pattern);
    return { pattern, exclude, matches: picomatch(glob, PATTERN_OPTIONS) };
  });
  for (const file of files) {
    if (always(file)) return { changed: true, file };
    const pattern = including(rules, file);
    if (pattern !== undefined) return { changed: true, file, pattern };
  }
  return { changed: false };
}
