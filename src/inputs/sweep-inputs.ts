/**
 * The sweep step's inputs (sweep/action.yml) that reach the service, and its own (the
 * patterns, `on-orphans`, `dry-run`); the GitHub ones are the GitHub adapter's to add. A
 * name matches a pattern only when it is the pattern with a positive decimal number, no
 * leading zero, for `{number}` and, with a manifest, one of its agents' exact names for
 * `{agent}`, compared as whole texts (never a wildcard, no regular expression built from
 * a name). A step without `agents` sweeps a manifest of one nameless agent, laid out flat.
 */
import { UNSAFE_IN_AN_INPUT } from '../common/characters.js';
import { AGENT_PLACEHOLDER, fillPlaceholder, placeholderCount } from '../common/placeholders.js';
import { input, type InputValues } from './declare.js';
import { INPUTS, pick } from './core-inputs.js';
import { fail, InputError } from './errors.js';
import type { Manifest } from './manifest.js';
import { namedAgents } from './name-template.js';
import { parseBoolean, parseOneOf, unlessEmpty } from './parsers.js';
import { checkedAccess, ACCESS_INPUT_NAMES, type ServiceAccess } from './service-access.js';

const PLACEHOLDER = '{number}';
/** A pull request's number as a name spells it: positive, no leading zero. */
const NUMBER = /^[1-9][0-9]*$/;

/** A pattern split at its one `{number}`. */
export interface NamePattern {
  /** As written, for messages. */
  text: string;
  /** What comes before `{number}`, `{agent}` in it when the pattern holds one. */
  before: string;
  after: string;
}

export const ON_ORPHANS = ['warn', 'fail', 'none'] as const;
export type OnOrphans = (typeof ON_ORPHANS)[number];

/** `text` split at its only `{number}`; `what` says what the pattern names, for the message. */
function splitPattern(text: string, what: string): NamePattern {
  const parts = text.split(PLACEHOLDER);
  if (parts.length !== 2) {
    fail(
      `must hold {number} exactly once, where the pull request's number stands in ${what} (e.g. my-agent-pr-{number}), got '${text}'`,
    );
  }
  if (UNSAFE_IN_AN_INPUT.test(text)) fail('must not contain control characters or line breaks');
  const [before = '', after = ''] = parts;
  const agents = placeholderCount(text, AGENT_PLACEHOLDER);
  if (agents > 1) fail(`may hold {agent} at most once, got '${text}'`);
  if (/[{}]/.test(fillPlaceholder(before + after, AGENT_PLACEHOLDER, ''))) {
    fail(`may hold no other {…} than {number} and {agent}, got '${text}'`);
  }
  return { text, before, after };
}

function parseNamePattern(raw: string): NamePattern {
  if (raw === '') fail('is required (e.g. my-agent-pr-{number})');
  const pattern = splitPattern(raw, 'the deployment name');
  if (pattern.before === '' && pattern.after === '') {
    fail('must hold more than {number}: every deployment named with digits alone would match');
  }
  return pattern;
}

/**
 * The pull request's number `name` stands for under `pattern`, its digits as
 * written (however many: whether GitHub can have such a pull request is the
 * sweep's to judge); undefined when it does not match exactly.
 */
export function digitsIn(pattern: NamePattern, name: string): string | undefined {
  const { before, after } = pattern;
  if (name.length <= before.length + after.length) return undefined;
  if (!name.startsWith(before) || !name.endsWith(after)) return undefined;
  const digits = name.slice(before.length, name.length - after.length);
  return NUMBER.test(digits) ? digits : undefined;
}

/** The pattern with `number` in its place. */
export function filled(pattern: NamePattern, number: number): string {
  return `${pattern.before}${number}${pattern.after}`;
}

/** The sweep's inputs that reach the service, in sweep/action.yml's order. */
export const SWEEP_SERVICE_INPUTS = pick(ACCESS_INPUT_NAMES);

const holdsAgent = (raw: string): boolean => raw.includes(AGENT_PLACEHOLDER);
const AGENT_EXAMPLE = 'e.g. {agent}-pr-{number}';

/**
 * What is wrong with `name-pattern` beside `agents`, if anything: `{agent}`
 * without a manifest (nothing would fill it, and it is never a wildcard), or
 * a manifest without `{agent}` (its agents would not name the previews).
 */
function namePatternBesideAgents(raw: string, set: Readonly<Record<string, string>>) {
  const manifest = (set.agents ?? '') !== '';
  if (holdsAgent(raw) && !manifest) {
    return `holds {agent}, which only the names of the agents in agents fill: give agents (the deploy step's manifest), or write the agent's name in name-pattern`;
  }
  if (!holdsAgent(raw) && manifest && raw !== '') {
    return `does not hold {agent}, and agents is given: with agents, name-pattern holds {agent} once where each agent's name stands (${AGENT_EXAMPLE}); to sweep the previews of one name, leave agents empty`;
  }
  return undefined;
}

/** `environment-pattern` holding `{agent}` without a manifest: nothing would fill it. */
function environmentPatternBesideAgents(raw: string, set: Readonly<Record<string, string>>) {
  return holdsAgent(raw) && (set.agents ?? '') === ''
    ? `holds {agent}, which only the names of the agents in agents fill: give agents, or write the agent's name in environment-pattern`
    : undefined;
}

/** Its own, after the GitHub ones in sweep/action.yml. */
export const SWEEP_OWN_INPUTS = {
  'name-pattern': input(parseNamePattern, { besides: namePatternBesideAgents }),
  agents: INPUTS.agents,
  'environment-pattern': input(
    unlessEmpty((raw) => splitPattern(raw, 'the environment name')),
    {
      default: '',
      besides: environmentPatternBesideAgents,
    },
  ),
  'on-orphans': input((raw) => parseOneOf(ON_ORPHANS, raw), { default: 'warn' }),
  'dry-run': input(parseBoolean, { default: 'false' }),
};

/** The dashboard's address, last in sweep/action.yml. */
export const SWEEP_DASHBOARD_INPUT = pick(['dashboard-url']);

/** An agent of the manifest: its key, and its name (its entry's `name`, else its key). */
export interface SweptAgent {
  key: string;
  name: string;
}

export interface SweepRequest extends ServiceAccess {
  /** The previews' names; with `agents`, `{agent}` in it stands for each agent's name. */
  names: NamePattern;
  /** Whose previews: the manifest's agents, whose names are the only texts `{agent}` stands for. */
  agents: readonly SweptAgent[];
  /** `keyed` with a manifest (each orphan names its agent), `flat` without. */
  layout: 'flat' | 'keyed';
  environments?: NamePattern;
  onOrphans: OnOrphans;
  dryRun: boolean;
  /** Where a person opens (and deletes) a deployment: a template of `{id}`, `{tenant_id}`, `{name}`. */
  dashboardUrl?: string;
}

/**
 * The manifest's agents, each with its name: its entry's `name`, else its
 * key; a bad `name`, or one name of two agents, an input error, as the
 * deploy step's. Without a manifest, one nameless agent: its pattern holds
 * no `{agent}` to fill.
 */
function sweptAgents(manifest: Manifest | undefined): SweptAgent[] {
  if (manifest === undefined) return [{ key: '', name: '' }];
  const { agents, problems } = namedAgents(manifest, '');
  if (problems.length > 0) throw new InputError(problems);
  return agents.map(({ key, name }) => ({ key, name }));
}

/** The sweep these inputs ask for, checked against each other before any request. */
export function sweepRequest(
  inputs: InputValues<typeof SWEEP_SERVICE_INPUTS> &
    InputValues<typeof SWEEP_OWN_INPUTS> &
    InputValues<typeof SWEEP_DASHBOARD_INPUT>,
): SweepRequest {
  const access = checkedAccess(inputs);
  const environments = inputs['environment-pattern'];
  const dashboardUrl = inputs['dashboard-url'];
  const manifest = inputs.agents;
  return {
    ...access,
    names: inputs['name-pattern'],
    agents: sweptAgents(manifest),
    layout: manifest === undefined ? 'flat' : 'keyed',
    ...(environments === undefined ? {} : { environments }),
    onOrphans: inputs['on-orphans'],
    dryRun: inputs['dry-run'],
    ...(dashboardUrl === undefined ? {} : { dashboardUrl }),
  };
}

/** One agent's previews: its name, and the pattern with `{agent}` filled by it. */
export interface AgentPattern {
  agent: SweptAgent;
  names: NamePattern;
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

/** The patterns to look for: one an agent. */
export function agentPatterns(names: NamePattern, agents: readonly SweptAgent[]): AgentPattern[] {
  return agents.map((agent) => ({ agent, names: forAgent(names, agent.name) }));
}

/** Every pattern `name` matches exactly: its agent and the digits of its number. */
export function matchesOf(patterns: readonly AgentPattern[], name: string) {
  return patterns.flatMap(({ agent, names }) => {
    const digits = digitsIn(names, name);
    return digits === undefined ? [] : [{ agent, digits }];
  });
}

/** What each pattern's listing searches for: its longest literal part, each text once. */
export function searchTexts(patterns: readonly AgentPattern[]): string[] {
  const longest = ({ before, after }: NamePattern) =>
    before.length >= after.length ? before : after;
  return [...new Set(patterns.map(({ names }) => longest(names)))];
}

/**
 * The environment of a preview: the pattern with the pull request's number
 * and, when it holds `{agent}`, the preview's agent's name.
 */
export function environmentOf(pattern: NamePattern, number: number, agent?: SweptAgent): string {
  return filled(forAgent(pattern, agent?.name ?? ''), number);
}
