/** The arguments after the command: the options given, and what to write instead of each wrong one. */
import { parseArgs } from 'node:util';
import { REFUSED_OPTIONS, type Command, type OptionSpec } from './option-table.js';

/** The action's input name a person may try → the option it is here (`wait-for-ready` → `wait`). */
function renamedOptions(table: readonly OptionSpec[]): Map<string, string> {
  const renamed = new Map<string, string>();
  for (const spec of table) {
    if (spec.role.kind === 'input' && spec.role.input !== spec.option) {
      renamed.set(spec.role.input, spec.option);
    }
  }
  return renamed;
}

function unknownOption(raw: string, command: Command, table: readonly OptionSpec[]): string {
  const name = raw.replace(/^-+/, '');
  const refused = REFUSED_OPTIONS[name];
  if (refused !== undefined) return `${raw} is not an option: ${refused}`;
  const renamed = renamedOptions(table).get(name);
  if (renamed !== undefined)
    return `unknown option ${raw}: the action's ${name} is --${renamed} here`;
  const elsewhere = table.find((spec) => spec.option === name);
  if (elsewhere !== undefined) {
    return `${command} takes no option ${raw} (it is an option of ${elsewhere.commands.join(', ')})`;
  }
  const near = table
    .map((spec) => spec.option)
    .filter((option) => option.startsWith(name.slice(0, 3)) && name.length > 0);
  const hint = near.length > 0 ? ` (did you mean ${near.map((o) => `--${o}`).join(', ')}?)` : '';
  return `unknown option ${raw}${hint}; see deploy-agent ${command} --help`;
}

/** Whether an option not the command's takes a value; an unknown one is taken to, so its value is not a second error. */
function takesValue(raw: string, table: readonly OptionSpec[]): boolean {
  const name = raw.replace(/^-+/, '');
  if (REFUSED_OPTIONS[name] !== undefined) return true;
  const option = renamedOptions(table).get(name) ?? name;
  const spec = table.find((known) => known.option === option);
  return spec === undefined || spec.type === 'string';
}

export type Given = Map<string, { raw: string; values: string[] }>;

interface OptionToken {
  rawName: string;
  value?: string;
  inlineValue?: boolean;
}

/** What one option token gives (`true` for a flag) after the option's earlier `values`, or what is wrong. */
function optionValue(
  token: OptionToken,
  spec: OptionSpec,
  values: readonly string[],
): { value: string } | { problem: string } {
  const { rawName, value, inlineValue } = token;
  if (spec.type === 'boolean') {
    if (inlineValue === true) {
      return { problem: `${rawName} is a flag and takes no value (write ${rawName} alone)` };
    }
    return { value: 'true' };
  }
  if (value === undefined || (inlineValue !== true && value.startsWith('--'))) {
    return {
      problem: `${rawName} needs a ${spec.valueName ?? 'value'}${value === undefined ? '' : ` (the next argument is the option ${value}; write ${rawName}=VALUE for a value that starts with --)`}`,
    };
  }
  if (spec.multiple !== true && values.length > 0)
    return { problem: `${rawName} is given more than once` };
  return { value };
}

/** Not echoed: a value put where it does not belong may be a secret. */
function strayArgument(
  index: number,
  previous: string | undefined,
  specs: ReadonlyMap<string, OptionSpec>,
): string {
  const after = previous === undefined ? '' : ` after ${previous}`;
  const flag = previous !== undefined && specs.get(previous.slice(2))?.type === 'boolean';
  return `unexpected argument ${index + 2}${after}: ${flag ? `${previous} is a flag and takes no value` : 'options are --name VALUE or --name=VALUE'}`;
}

function tokensOf(args: readonly string[], specs: ReadonlyMap<string, OptionSpec>) {
  const options = Object.fromEntries(
    [...specs.values()].map((spec) => [
      spec.option,
      { type: spec.type, multiple: spec.multiple === true },
    ]),
  );
  return parseArgs({
    args: [...args],
    options: { ...options, help: { type: 'boolean', short: 'h' } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  }).tokens;
}

/** Reads `args` against `command`'s options; every mistake goes to `problems`. */
export function readTokens(
  args: readonly string[],
  command: Command,
  table: readonly OptionSpec[],
  problems: string[],
): Given {
  const specs = new Map(
    table.filter((spec) => spec.commands.includes(command)).map((spec) => [spec.option, spec]),
  );
  const given: Given = new Map();
  let previous: string | undefined;
  // An option that is not the command's, whose value is the next argument: that value is not a stray.
  let valueOfUnknown = false;
  for (const token of tokensOf(args, specs)) {
    const isValueOfUnknown = valueOfUnknown;
    valueOfUnknown = false;
    if (token.kind === 'option-terminator') {
      problems.push('-- ends the options, but the command takes no arguments after it');
      break;
    }
    if (token.kind === 'positional') {
      if (!isValueOfUnknown) problems.push(strayArgument(token.index, previous, specs));
      continue;
    }
    previous = token.rawName;
    if (token.name === 'help') {
      given.set('help', { raw: token.rawName, values: [] });
      continue;
    }
    const spec = token.rawName.startsWith('--') ? specs.get(token.name) : undefined;
    if (spec === undefined) {
      problems.push(unknownOption(token.rawName, command, table));
      valueOfUnknown = token.inlineValue !== true && takesValue(token.rawName, table);
      continue;
    }
    const entry = given.get(spec.option) ?? { raw: token.rawName, values: [] };
    const read = optionValue(token, spec, entry.values);
    if ('problem' in read) {
      problems.push(read.problem);
      continue;
    }
    entry.values.push(read.value);
    given.set(spec.option, entry);
  }
  return given;
}
