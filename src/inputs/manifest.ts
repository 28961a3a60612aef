/**
 * The `agents` input. Every structural problem is kept, named by its path
 * (`agents.research.image_url`: unknown key), and reported with every problem of the
 * agents' values (name-template.ts `namedAgents`): one hides no other.
 */
import { z } from 'zod';
import { fail, type InputProblem } from './errors.js';
import { AGENT_PLACEHOLDER, placeholderCount } from '../common/text.js';
import { formatIssuePath } from '../service/issues.js';
import { isFilePath, readDocument } from './workspace-document.js';
import { readPaths } from './paths.js';

const MAX_AGENTS = 50;
const MAX_AGENT_KEY_LENGTH = 40;

const AGENT_KEY = /^[a-z0-9][a-z0-9-]*$/;

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
  /** Checked pattern by pattern (paths.ts `readPaths`); its type is this. */
  paths: z.array(z.string()),
} as const;

type EntryField = keyof typeof ENTRY_FIELDS;

/** Each as text; `secrets` a list of the step's secret names, `paths` of glob patterns. */
export type AgentEntry = { -readonly [K in EntryField]?: z.infer<(typeof ENTRY_FIELDS)[K]> };

export interface ManifestAgent {
  key: string;
  entry: AgentEntry;
}

export interface Manifest {
  /** The file's path as given, or `inline`. */
  source: string;
  /** A bad key's included; each entry keeps its values of the right kind, so every other is still checked. */
  agents: ManifestAgent[];
  problems: InputProblem[];
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keyProblem(key: string): InputProblem | undefined {
  const problem = !AGENT_KEY.test(key)
    ? 'a key must be lower-case letters, digits and -, starting with a letter or a digit'
    : key.length > MAX_AGENT_KEY_LENGTH
      ? `a key must be at most ${MAX_AGENT_KEY_LENGTH} characters, this one has ${key.length}`
      : undefined;
  return problem === undefined ? undefined : { input: formatIssuePath(['agents', key]), problem };
}

function fieldProblem(field: EntryField, value: unknown): string | undefined {
  const result = ENTRY_FIELDS[field].safeParse(value);
  if (!result.success) return result.error.issues.map((issue) => issue.message).join('; ');
  return field === 'environment' ? environmentHoldsAgentTwice(value as string) : undefined;
}

/** Every key checked (`Object.keys`, so `__proto__` too); a null entry sets nothing. */
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
    if (field === 'paths') {
      const read = readPaths(key, raw[field]);
      if (read.paths !== undefined) entry[field] = read.paths;
      problems.push(...read.problems);
      continue;
    }
    const problem = fieldProblem(field as EntryField, raw[field]);
    if (problem === undefined) entry[field] = raw[field];
    else problems.push({ input, problem });
  }
  return { entry, problems };
}

/** A document that holds no agents to check, or more than a manifest takes, fails at once. */
function manifestAgents(document: unknown): { agents: ManifestAgent[]; problems: InputProblem[] } {
  if (!isMapping(document)) {
    fail('must be a JSON or YAML object with one key, agents, mapping each agent to its entry');
  }
  const unknown = Object.keys(document).filter((key) => key !== 'agents');
  const problems: InputProblem[] = unknown.map((key) => ({
    input: 'agents',
    problem: `${formatIssuePath([key])}: unknown key (a manifest has one key, agents)`,
  }));
  // Nothing to check agent by agent: fail at once, with the document's other problems.
  const stop = (problem: string) => fail([...problems.map((p) => p.problem), problem].join('; '));
  const agents = Object.hasOwn(document, 'agents') ? document.agents : null;
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

export function parseManifest(raw: string, workspace: string): Manifest | undefined {
  if (raw === '') return undefined;
  const source = isFilePath(raw) ? raw : 'inline';
  return { source, ...manifestAgents(readDocument(raw, workspace)) };
}

/** An environment beside a manifest holds `{agent}` once (each agent its own) or never (shared). */
export function environmentHoldsAgentTwice(text: string): string | undefined {
  const count = placeholderCount(text, AGENT_PLACEHOLDER);
  return count > 1
    ? `holds {agent} ${count} times: an environment holds {agent} at most once, which each agent's name fills (like preview-{agent})`
    : undefined;
}
