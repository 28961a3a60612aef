/**
 * The `agents` input: a manifest of agents, a JSON or YAML object given
 * inline or as the path of a file in the workspace (read as `config`'s is),
 * with one key, `agents`, mapping each agent's key to its entry. An entry
 * sets some of the inputs that describe one deployment, as text; what it
 * does not set comes from the step. Every structural problem is kept, each
 * named by its path (`agents.research.image_url`: unknown key), and reported
 * with every problem of the agents' values: one hides no other.
 */
import { z } from 'zod';
import { fail, type InputProblem } from './errors.js';
import { AGENT_PLACEHOLDER, placeholderCount } from '../common/placeholders.js';
import { formatIssuePath } from '../service/issues.js';
import { isFilePath, readDocument } from './workspace-document.js';

/** The most agents one manifest may hold. */
export const MAX_AGENTS = 50;

/** The longest an agent's key may be. */
export const MAX_AGENT_KEY_LENGTH = 40;

const AGENT_KEY = /^[a-z0-9][a-z0-9-]*$/;

/** What each input an entry may set must be: text; `secrets` a list of the step's secret names. */
const ENTRY_FIELDS = {
  name: z.string(),
  source: z.string(),
  config: z.string(),
  'integration-id': z.string(),
  repository: z.string(),
  'repo-ref': z.string(),
  'agent-config-path': z.string(),
  'image-uri': z.string(),
  secrets: z.array(z.string()),
  commit: z.string(),
  environment: z.string(),
  'health-check': z.string(),
  'health-check-expect': z.string(),
} as const;

type EntryField = keyof typeof ENTRY_FIELDS;

/** The inputs an entry sets, each as text; `secrets` a list of the step's secret names. */
export type AgentEntry = { -readonly [K in EntryField]?: z.infer<(typeof ENTRY_FIELDS)[K]> };

/** The one key of the manifest. */
const TOP_KEY = 'agents';

/** One agent of the manifest: its key and what its entry sets. */
export interface ManifestAgent {
  key: string;
  entry: AgentEntry;
}

export interface Manifest {
  /** Where it came from: the file's path as given, or `inline`. */
  source: string;
  /**
   * Its agents, in the manifest's order, a bad key's included; each entry
   * holds what it sets that is of the right kind, so that every other value
   * of every agent is still checked.
   */
  agents: ManifestAgent[];
  /**
   * What is wrong with its keys and its entries' shapes, each named by its
   * path (`agents.research.image_url`: unknown key): reported with the
   * problems of the agents' values (name-template.ts `namedAgents`), never
   * alone, so that one hides no other.
   */
  problems: InputProblem[];
}

/** A plain object (a mapping), as a manifest's parts must be. */
function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What is wrong with an agent's key, if anything. */
function keyProblem(key: string): InputProblem | undefined {
  const problem = !AGENT_KEY.test(key)
    ? 'a key must be lower-case letters, digits and -, starting with a letter or a digit'
    : key.length > MAX_AGENT_KEY_LENGTH
      ? `a key must be at most ${MAX_AGENT_KEY_LENGTH} characters, this one has ${key.length}`
      : undefined;
  return problem === undefined ? undefined : { input: formatIssuePath(['agents', key]), problem };
}

/** What is wrong with one field's value, if anything (zod's message, or the environment's own). */
function fieldProblem(field: EntryField, value: unknown): string | undefined {
  const result = ENTRY_FIELDS[field].safeParse(value);
  if (!result.success) return result.error.issues.map((issue) => issue.message).join('; ');
  return field === 'environment' ? environmentHoldsAgentTwice(value as string) : undefined;
}

/**
 * The entry of the agent `key`, as written: every key it has (`Object.keys`,
 * so `__proto__` too) checked, the values of the right kind kept, and a
 * problem for every other key or value. A null entry sets nothing.
 */
function readEntry(key: string, raw: unknown): { entry: AgentEntry; problems: InputProblem[] } {
  const entry: Record<string, unknown> = {};
  const problems: InputProblem[] = [];
  if (raw === null || raw === undefined) return { entry, problems };
  if (!isMapping(raw)) {
    const problem = "must be a mapping of the entry's inputs (or empty)";
    return { entry, problems: [{ input: formatIssuePath(['agents', key]), problem }] };
  }
  for (const field of Object.keys(raw)) {
    const input = formatIssuePath(['agents', key, field]);
    if (!Object.hasOwn(ENTRY_FIELDS, field)) {
      problems.push({ input, problem: 'unknown key' });
      continue;
    }
    const problem = fieldProblem(field as EntryField, raw[field]);
    if (problem === undefined) entry[field] = raw[field];
    else problems.push({ input, problem });
  }
  return { entry, problems };
}

/**
 * The manifest's agents, each key as written (a key `__proto__` is a key
 * like any other, and a bad one), with every problem of their keys and
 * entries; a document that holds no agents to check, or more than a
 * manifest takes, fails at once.
 */
function manifestAgents(document: unknown): { agents: ManifestAgent[]; problems: InputProblem[] } {
  if (!isMapping(document)) {
    fail('must be a JSON or YAML object with one key, agents, mapping each agent to its entry');
  }
  const unknown = Object.keys(document).filter((key) => key !== TOP_KEY);
  const problems: InputProblem[] = unknown.map((key) => ({
    input: 'agents',
    problem: `${formatIssuePath([key])}: unknown key (a manifest has one key, agents)`,
  }));
  // Nothing to check agent by agent: fail at once, with the document's other problems.
  const stop = (problem: string) => fail([...problems.map((p) => p.problem), problem].join('; '));
  const agents = Object.hasOwn(document, TOP_KEY) ? document[TOP_KEY] : null;
  if (agents !== null && agents !== undefined && !isMapping(agents)) {
    stop('agents: must be a mapping of each agent to its entry');
  }
  const given: Record<string, unknown> = isMapping(agents) ? agents : {};
  const keys = Object.keys(given);
  if (keys.length === 0) stop('agents: the manifest holds no agent');
  if (keys.length > MAX_AGENTS) {
    stop(`agents: holds ${keys.length} agents; a manifest takes at most ${MAX_AGENTS}`);
  }
  const read = keys.map((key) => {
    const bad = keyProblem(key);
    if (bad !== undefined) problems.push(bad);
    const { entry, problems: own } = readEntry(key, given[key]);
    problems.push(...own);
    return { key, entry };
  });
  return { agents: read, problems };
}

/** The manifest `raw` gives, inline or as a file in `workspace`; undefined when empty. */
export function parseManifest(raw: string, workspace: string): Manifest | undefined {
  if (raw === '') return undefined;
  const source = isFilePath(raw) ? raw : 'inline';
  return { source, ...manifestAgents(readDocument(raw, workspace)) };
}

/**
 * What is wrong with an environment beside a manifest (the step's, or an
 * entry's), if anything: `{agent}` more than once. Once, each agent has its
 * own; never, the agents share one.
 */
export function environmentHoldsAgentTwice(text: string): string | undefined {
  const count = placeholderCount(text, AGENT_PLACEHOLDER);
  return count > 1
    ? `holds {agent} ${count} times: an environment holds {agent} at most once, which each agent's name fills (like preview-{agent})`
    : undefined;
}
