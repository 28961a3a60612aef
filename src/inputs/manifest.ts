/**
 * The `agents` input: a manifest of agents, a JSON or YAML object given
 * inline or as the path of a file in the workspace (read as `config`'s is),
 * with one key, `agents`, mapping each agent's key to its entry. An entry
 * sets some of the inputs that describe one deployment, as text; what it
 * does not set comes from the step. Every structural problem is reported at
 * once, each named by its path (`agents.research.image_url: unknown key`).
 */
import { z } from 'zod';
import { fail } from './errors.js';
import { formatIssuePath, formatZodIssues } from '../service/issues.js';
import { isFilePath, readDocument } from './workspace-document.js';

/** The most agents one manifest may hold. */
export const MAX_AGENTS = 50;

/** The longest an agent's key may be. */
export const MAX_AGENT_KEY_LENGTH = 40;

const AGENT_KEY = /^[a-z0-9][a-z0-9-]*$/;

/** The inputs an entry may set, each as text; `secrets` a list of the step's secret names. */
export const AgentEntrySchema = z.strictObject({
  name: z.string().optional(),
  source: z.string().optional(),
  config: z.string().optional(),
  'integration-id': z.string().optional(),
  repository: z.string().optional(),
  'repo-ref': z.string().optional(),
  'agent-config-path': z.string().optional(),
  'image-uri': z.string().optional(),
  secrets: z.array(z.string()).optional(),
  commit: z.string().optional(),
  environment: z.string().optional(),
  'health-check': z.string().optional(),
  'health-check-expect': z.string().optional(),
});
export type AgentEntry = z.infer<typeof AgentEntrySchema>;

/** An entry left empty (`support:` or `support: {}`) takes every value from the step. */
const ManifestSchema = z.strictObject({
  agents: z.record(z.string(), AgentEntrySchema.nullable()).nullable(),
});

/** One agent of the manifest: its key and what its entry sets. */
export interface ManifestAgent {
  key: string;
  entry: AgentEntry;
}

export interface Manifest {
  /** Where it came from: the file's path as given, or `inline`. */
  source: string;
  /** Its agents, in the manifest's order. */
  agents: ManifestAgent[];
}

/** What is wrong with an agent's key, if anything. */
function keyProblem(key: string): string | undefined {
  const where = formatIssuePath(['agents', key]);
  if (!AGENT_KEY.test(key)) {
    return `${where}: a key must be lower-case letters, digits and -, starting with a letter or a digit`;
  }
  if (key.length > MAX_AGENT_KEY_LENGTH) {
    return `${where}: a key must be at most ${MAX_AGENT_KEY_LENGTH} characters, this one has ${key.length}`;
  }
  return undefined;
}

/** The manifest's agents, or every problem of its shape, its keys and its size at once. */
function manifestAgents(document: unknown): ManifestAgent[] {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    fail('must be a JSON or YAML object with one key, agents, mapping each agent to its entry');
  }
  const result = ManifestSchema.safeParse(document);
  if (!result.success) fail(formatZodIssues(result.error).join('; '));
  const entries = Object.entries(result.data.agents ?? {});
  const problems = entries.flatMap(([key]) => keyProblem(key) ?? []);
  if (entries.length === 0) problems.push('agents: the manifest holds no agent');
  if (entries.length > MAX_AGENTS) {
    problems.push(`agents: holds ${entries.length} agents; a manifest takes at most ${MAX_AGENTS}`);
  }
  if (problems.length > 0) fail(problems.join('; '));
  return entries.map(([key, entry]) => ({ key, entry: entry ?? {} }));
}

/** The manifest `raw` gives, inline or as a file in `workspace`; undefined when empty. */
export function parseManifest(raw: string, workspace: string): Manifest | undefined {
  if (raw === '') return undefined;
  const source = isFilePath(raw) ? raw : 'inline';
  return { source, agents: manifestAgents(readDocument(raw, workspace)) };
}
