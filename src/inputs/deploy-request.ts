/**
 * Each agent's inputs are the step's, overridden by what its entry sets (parsed as the step's
 * are); its secrets the step's it lists. Every problem of every agent is reported at once,
 * before any request, each named by its path (`agents.research.config`).
 */
import type { DeploySpec } from './deploy-spec.js';
import { buildDeploySpec } from './build-deploy-spec.js';
import { INPUTS, type InputName, type ParsedInputs } from './core-inputs.js';
import { given, type DeclaredInput } from './declare.js';
import { InputError, Invalid, type InputProblem } from './errors.js';
import type { AgentEntry, Manifest } from './manifest.js';
import { AGENT_PLACEHOLDER } from '../common/text.js';
import { namedAgents, sharedValues, type NamedAgent } from './name-template.js';
import { HEALTH_INPUT_NAMES, unusedHealthProblems } from './health-inputs.js';
import { wordsOf, type RunDescription } from './run-description.js';
import type { RemedyWords } from '../service/answers.js';
import { ACCESS_INPUT_NAMES, accessProblems } from './service-access.js';
import { formatIssuePath } from '../service/issues.js';
import { repositoryPath, workspacePath } from './paths.js';

/**
 * An entry's `paths` (its patterns as written), and the files that change the agent whatever
 * they match: the manifest's file, the `config` file the agent uses (its entry's or the
 * step's) and its `agent-config-path` file, each relative to the repository's root, with `/`.
 */
export interface AgentPaths {
  patterns: string[];
  always: string[];
}

/** One agent of the manifest; `spec.name` is its deployment's name (the template filled). */
export interface AgentRequest {
  key: string;
  name: string;
  spec: DeploySpec;
  environment?: string;
  /** Only when its entry sets `paths`. */
  paths?: AgentPaths;
}

/** A step without `agents` is a manifest of one, laid out `flat`. */
export interface DeployRequest {
  layout: 'flat' | 'keyed';
  /** Where the manifest came from: its file's path, or `inline`. */
  source: string;
  nameTemplate?: string;
  agents: AgentRequest[];
}

/** The inputs an entry sets that are parsed as the step's are (`name` and `secrets` aside). */
const ENTRY_INPUTS = [
  'source',
  'config',
  'integration-id',
  'repository',
  'repo-ref',
  'agent-config-path',
  'image-uri',
  'commit',
  'health-check',
  'health-check-expect',
] as const satisfies readonly (InputName & keyof AgentEntry)[];

const pathOf = (key: string, field: string): string => formatIssuePath(['agents', key, field]);

/** The step's secrets the entry lists (all when it lists none). */
function agentSecrets(
  { key, entry }: NamedAgent,
  inputs: ParsedInputs,
  words: RemedyWords,
): { value: ParsedInputs['secrets'] } | { problems: InputProblem[] } {
  const listed = entry.secrets;
  if (listed === undefined) return { value: inputs.secrets };
  const given = new Set(inputs.secrets.map((secret) => secret.name));
  const unknown = [...new Set(listed.filter((name) => !given.has(name)))];
  if (unknown.length > 0) {
    return {
      problems: unknown.map((name) => ({
        input: pathOf(key, 'secrets'),
        problem: `'${name}' is not one of ${words.asker}'s secrets (${words.secrets} gives ${given.size === 0 ? 'none' : [...given].join(', ')})`,
      })),
    };
  }
  return { value: inputs.secrets.filter((secret) => listed.includes(secret.name)) };
}

export function entryInputs(
  { key, entry }: Pick<NamedAgent, 'key' | 'entry'>,
  fields: readonly (InputName & keyof AgentEntry)[],
  run: RunDescription,
): { overrides: Partial<ParsedInputs>; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  const overrides: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = entry[field];
    if (typeof raw !== 'string') continue;
    try {
      overrides[field] = (INPUTS[field] as DeclaredInput<unknown>).parse(raw.trim(), run);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      problems.push({ input: pathOf(key, field), problem: error.message });
    }
  }
  return { overrides, problems };
}

function agentInputs(
  agent: NamedAgent,
  inputs: ParsedInputs,
  run: RunDescription,
): { inputs: ParsedInputs; problems: InputProblem[] } {
  const { overrides, problems } = entryInputs(agent, ENTRY_INPUTS, run);
  const secrets = agentSecrets(agent, inputs, wordsOf(run));
  if ('problems' in secrets) problems.push(...secrets.problems);
  else overrides.secrets = secrets.value;
  return { inputs: { ...inputs, ...overrides, name: agent.deploymentName }, problems };
}

/** The files of a manifest from `source` (inline: none), its config and its agent-config-path. */
function agentPaths(
  patterns: string[] | undefined,
  own: ParsedInputs,
  source: string,
  run: RunDescription,
): { paths?: AgentPaths } {
  if (patterns === undefined) return {};
  const configFile = own.config.file;
  const agentConfig = own['agent-config-path'];
  const always = [
    source === 'inline' ? undefined : workspacePath(source, run.workspace),
    configFile === undefined ? undefined : workspacePath(configFile, run.workspace),
    agentConfig === undefined ? undefined : repositoryPath(agentConfig),
  ].filter((file): file is string => file !== undefined);
  return { paths: { patterns, always: [...new Set(always)] } };
}

/** One agent's request, or its problems: its entry's, else its spec's. */
function agentRequest(
  agent: NamedAgent,
  inputs: ParsedInputs,
  run: RunDescription,
  source: string,
): AgentRequest | InputProblem[] {
  const own = agentInputs(agent, inputs, run);
  if (own.problems.length > 0) return own.problems;
  // The service's access is the step's, checked once; so are health headers or text without a check.
  const access: readonly string[] = [...ACCESS_INPUT_NAMES, ...stepOnlyHealth(agent)];
  try {
    const spec = buildDeploySpec(own.inputs, run);
    return {
      key: agent.key,
      name: agent.name,
      spec,
      ...given({ environment: agent.entry.environment }),
      ...agentPaths(agent.entry.paths, own.inputs, source, run),
    };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error.problems
      .filter((problem) => !access.includes(problem.input))
      .map((problem) => ({ ...problem, input: pathOf(agent.key, problem.input) }));
  }
}

/** The step's health headers and text may serve the agents that set a check, and need not fit the others. */
function stepOnlyHealth(agent: NamedAgent): string[] {
  return HEALTH_INPUT_NAMES.filter((name) => name !== 'health-check' && !(name in agent.entry));
}

/** Two entries that name one environment without `{agent}`. */
function sharedEnvironments(manifest: Manifest): InputProblem[] {
  return sharedValues(
    manifest.agents.map(({ key, entry }) => ({
      key,
      value:
        entry.environment?.includes(AGENT_PLACEHOLDER) === true ? undefined : entry.environment,
    })),
    (environment, keys) => ({
      input: 'agents',
      problem: `agents ${keys} name one environment, '${environment}': each would mark the other's deployment inactive`,
    }),
  );
}

/** Every agent of the manifest, or the one deployment; else one `InputError` naming every problem. */
export function deployRequest(inputs: ParsedInputs, run: RunDescription): DeployRequest {
  if (inputs.agents !== undefined) return manifestRequest(inputs, run);
  const spec = buildDeploySpec(inputs, run);
  return { layout: 'flat', source: 'inline', agents: [{ key: spec.name, name: spec.name, spec }] };
}

export function manifestRequest(inputs: ParsedInputs, run: RunDescription): DeployRequest {
  const manifest = inputs.agents;
  if (manifest === undefined) {
    throw new InputError([{ input: 'agents', problem: 'is empty: there is no manifest to read' }]);
  }
  const named = namedAgents(manifest, inputs.name);
  const problems: InputProblem[] = [
    ...accessProblems(inputs),
    ...unusedHealthProblems(inputs, wordsOf(run), manifest),
    ...named.problems,
  ];
  const agents: AgentRequest[] = [];
  for (const agent of named.agents) {
    const request = agentRequest(agent, inputs, run, manifest.source);
    if (Array.isArray(request)) problems.push(...request);
    else agents.push(request);
  }
  problems.push(...sharedEnvironments(manifest));
  if (problems.length > 0) throw new InputError(problems);
  return {
    layout: 'keyed',
    source: manifest.source,
    ...(inputs.name === '' ? {} : { nameTemplate: inputs.name }),
    agents,
  };
}
