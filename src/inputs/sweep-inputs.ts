/**
 * A name matches a pattern only when it is the pattern with a positive decimal number, no
 * leading zero, for `{number}` and, with a manifest, one of its agents' exact names for
 * `{agent}`, compared as whole texts (never a wildcard, no regular expression built from a name).
 */
import { UNSAFE_IN_AN_INPUT } from '../common/characters.js';
import { AGENT_PLACEHOLDER, fillPlaceholder, placeholderCount } from '../common/text.js';
import { given, input, type InputValues } from './declare.js';
import { DASHBOARD_INPUT, INPUTS, pick } from './core-inputs.js';
import { fail, InputError } from './errors.js';
import type { Manifest } from './manifest.js';
import { namedAgents } from './name-template.js';
import { parseBoolean, parseOneOf, unlessEmpty } from './parsers.js';
import { checkedAccess, ACCESS_INPUT_NAMES, type ServiceAccess } from './service-access.js';

const PLACEHOLDER = '{number}';
const NUMBER = /^[1-9][0-9]*$/;

/** A pattern split at its one `{number}`; `text` as written, for messages. */
export interface NamePattern {
  text: string;
  before: string;
  after: string;
}

const ON_ORPHANS = ['warn', 'fail', 'none'] as const;
type OnOrphans = (typeof ON_ORPHANS)[number];

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

/** `name`'s digits under `pattern`, however many (whether such a pull request exists is the sweep's to judge). */
function digitsIn(pattern: NamePattern, name: string): string | undefined {
  const { before, after } = pattern;
  if (name.length <= before.length + after.length) return undefined;
  if (!name.startsWith(before) || !name.endsWith(after)) return undefined;
  const digits = name.slice(before.length, name.length - after.length);
  return NUMBER.test(digits) ? digits : undefined;
}

export function filled(pattern: NamePattern, number: number): string {
  return `${pattern.before}${number}${pattern.after}`;
}

export const SWEEP_SERVICE_INPUTS = pick(ACCESS_INPUT_NAMES);

const holdsAgent = (raw: string): boolean => raw.includes(AGENT_PLACEHOLDER);
const AGENT_EXAMPLE = 'e.g. {agent}-pr-{number}';

/** `{agent}` without a manifest fills with nothing (never a wildcard); a manifest without it names no previews. */
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

function environmentPatternBesideAgents(raw: string, set: Readonly<Record<string, string>>) {
  return holdsAgent(raw) && (set.agents ?? '') === ''
    ? `holds {agent}, which only the names of the agents in agents fill: give agents, or write the agent's name in environment-pattern`
    : undefined;
}

export const SWEEP_OWN_INPUTS = {
  'name-pattern': input(parseNamePattern, { besides: namePatternBesideAgents }),
  agents: INPUTS.agents,
  'environment-pattern': input(
    unlessEmpty((raw) => splitPattern(raw, 'the environment name')),
    { default: '', besides: environmentPatternBesideAgents },
  ),
  'on-orphans': input((raw) => parseOneOf(ON_ORPHANS, raw), { default: 'warn' }),
  'dry-run': input(parseBoolean, { default: 'false' }),
};

/** An agent of the manifest: its key, and its entry's `name`, else its key. */
export interface SweptAgent {
  key: string;
  name: string;
}

export interface SweepRequest extends ServiceAccess {
  names: NamePattern;
  /** The only texts `{agent}` stands for; without a manifest, one nameless agent. */
  agents: readonly SweptAgent[];
  layout: 'flat' | 'keyed';
  environments?: NamePattern;
  onOrphans: OnOrphans;
  dryRun: boolean;
  dashboardUrl?: string;
}

/** A bad `name`, or one name of two agents, is an input error, as in the deploy step. */
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
    InputValues<typeof DASHBOARD_INPUT>,
): SweepRequest {
  const manifest = inputs.agents;
  return {
    ...checkedAccess(inputs),
    names: inputs['name-pattern'],
    agents: sweptAgents(manifest),
    layout: manifest === undefined ? 'flat' : 'keyed',
    ...given({ environments: inputs['environment-pattern'] }),
    onOrphans: inputs['on-orphans'],
    dryRun: inputs['dry-run'],
    ...given({ dashboardUrl: inputs['dashboard-url'] }),
  };
}

export interface AgentPattern {
  agent: SweptAgent;
  names: NamePattern;
}

export function forAgent(pattern: NamePattern, name: string): NamePattern {
  const fill = (text: string) => fillPlaceholder(text, AGENT_PLACEHOLDER, name);
  return {
    text: fill(pattern.text),
    before: fill(pattern.before),
    after: fill(pattern.after),
  };
}

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

export function environmentOf(pattern: NamePattern, number: number, agent?: SweptAgent): string {
  return filled(forAgent(pattern, agent?.name ?? ''), number);
}
