/**
 * The command and the action cannot disagree: the command's options, their
 * variables, defaults and help come from the declared inputs (`INPUTS`) and
 * action.yml, and docs/command.md's table of options is the option table.
 *
 * The command mirrors the core only: action.yml's inputs and outputs that
 * are not in `INPUTS` and `OUTPUT_NAMES` are the GitHub side's (declared in
 * src/github/), and test/repo/contract.test.ts checks that action.yml is the
 * union of the two. Here they must simply not be options of the command.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionDescriptions, commandHelp } from '../../src/cli/help.ts';
import { COMMANDS, optionTable, variableOf, type OptionSpec } from '../../src/cli/option-table.ts';
import { dotenvName, outputsJson, outputsDotenv } from '../../src/cli/outputs.ts';
import { INPUTS, INPUT_NAMES, type InputName } from '../../src/inputs/core-inputs.ts';
import { OUTPUT_NAMES } from '../../src/run/decisions/report.ts';
import { ROOT, actionYml } from '../support/action.ts';
import { runCli } from './run-cli.ts';

const action = actionYml();
const planAction = actionYml('plan/action.yml');
const descriptions = actionDescriptions(readFileSync(path.join(ROOT, 'action.yml'), 'utf8'));
const table = optionTable(descriptions);

/** The options through which an input reaches the command. */
function optionsOf(input: InputName): OptionSpec[] {
  const roles: Partial<Record<InputName, string>> = {
    'api-key': 'api-key-file',
    secrets: 'secrets-file',
  };
  return table.filter(
    (spec) =>
      (spec.role.kind === 'input' && spec.role.input === input) ||
      (spec.role.kind === 'header' && spec.role.input === input) ||
      spec.role.kind === roles[input],
  );
}

describe('the options, from the declared inputs', () => {
  it.each(INPUT_NAMES)('%s is an input of action.yml and reaches the command', (input) => {
    expect(Object.keys(action.inputs)).toContain(input);
    const [option] = optionsOf(input);
    expect(option, `no option for the input ${input}`).toBeDefined();
    // Its variable is always DEPLOY_ + the input's name (a flag's: its option's).
    expect(option?.variable).toBe(
      variableOf(option?.type === 'boolean' ? (option.option ?? input) : input),
    );
  });

  it('shows the default action.yml declares (the repository: the CI project instead)', () => {
    for (const spec of table) {
      if (spec.role.kind !== 'input') continue;
      const declared = action.inputs[spec.role.input]?.default ?? '';
      if (declared.includes('${{')) {
        expect(spec.defaultText).toMatch(/CI system's project/);
      } else {
        expect(spec.defaultText ?? '', spec.option).toBe(declared);
      }
      expect(INPUTS[spec.role.input].default ?? '', spec.option).toBe(
        declared.includes('${{') ? INPUTS[spec.role.input].default : declared,
      );
    }
  });

  it("has no option nor variable for action.yml's GitHub-only inputs", () => {
    const githubOnly = Object.keys(action.inputs).filter(
      (input) => !(INPUT_NAMES as readonly string[]).includes(input),
    );
    for (const input of githubOnly) {
      expect(table.map((spec) => spec.option)).not.toContain(input);
      expect(table.map((spec) => spec.variable)).not.toContain(variableOf(input));
    }
  });

  it("takes plan/action.yml's inputs for plan: the core's it shares, and its own with their defaults", () => {
    const githubOnly = ['github-token', 'pr-comment'];
    const planInputs = Object.keys(planAction.inputs).filter((name) => !githubOnly.includes(name));
    for (const input of planInputs) {
      const spec =
        table.find(
          (option) =>
            (option.role.kind === 'input' || option.role.kind === 'plan-input') &&
            option.role.input === input,
        ) ?? optionsOf(input as InputName)[0];
      expect(spec?.commands, `no plan option for ${input}`).toContain('plan');
      if (spec?.role.kind === 'plan-input') {
        expect(spec.defaultText ?? '').toBe(planAction.inputs[input]?.default ?? '');
      }
    }
    const planOptions = table.filter((spec) => spec.commands.includes('plan'));
    for (const spec of planOptions) {
      if (spec.role.kind === 'input' || spec.role.kind === 'plan-input') {
        expect(planInputs, spec.option).toContain(spec.role.input);
      }
    }
    expect(planOptions.map((spec) => spec.option)).not.toEqual(
      expect.arrayContaining(['wait', 'wait-timeout', 'commit', 'on-drift', 'dry-run']),
    );
  });

  it('has one variable per option, DEPLOY_ and upper case', () => {
    const variables = table.flatMap((spec) => (spec.variable === undefined ? [] : [spec.variable]));
    expect(new Set(variables).size).toBe(variables.length);
    for (const variable of variables) expect(variable).toMatch(/^DEPLOY_[A-Z_]+$/);
  });
});

describe('the help', () => {
  it.each(COMMANDS)(
    'of %s lists each of its options with its variable, default and action.yml description',
    (command) => {
      const help = commandHelp(command, descriptions).replace(/\s+/g, ' ');
      for (const spec of table.filter((option) => option.commands.includes(command))) {
        expect(help).toContain(`--${spec.option}`);
        if (spec.variable !== undefined) expect(help).toContain(`env ${spec.variable}`);
        if (spec.defaultText !== undefined) expect(help).toContain(`default: ${spec.defaultText}`);
        expect(help).toContain(spec.description.replace(/\s+/g, ' '));
      }
    },
  );

  it("is action.yml's, read from the package, when dist/cli.js runs", async () => {
    const run = await runCli(['deploy', '--help']);
    expect(run.exitCode).toBe(0);
    const help = run.stdout.replace(/\s+/g, ' ');
    for (const input of ['api-url', 'wait-timeout'] as const) {
      expect(help).toContain((descriptions[input] ?? 'missing').replace(/\s+/g, ' '));
    }
  });
});

describe('the outputs', () => {
  it('--json and --dotenv carry every output of the core, named as the contract says', () => {
    const outputs = Object.fromEntries(OUTPUT_NAMES.map((name) => [name, `v-${name}`]));
    const json = outputsJson({ ...outputs, drift: '[]', deployment: '{}' });
    expect(Object.keys(json).sort()).toEqual([...OUTPUT_NAMES].sort());
    const { text } = outputsDotenv(outputs);
    for (const name of OUTPUT_NAMES) {
      if (name === 'drift' || name === 'deployment') continue;
      expect(text).toContain(`${dotenvName(name)}=v-${name}\n`);
    }
    expect(dotenvName('deployment-id')).toBe('DEPLOYMENT_ID');
  });

  it("are action.yml's outputs, but for the GitHub side's", () => {
    for (const name of OUTPUT_NAMES) expect(Object.keys(action.outputs)).toContain(name);
  });
});

/** The rows of the command's table of options: the first table under `## Options of deploy-agent` of docs/command.md. */
function documentedOptionRows(): string[][] {
  const page = readFileSync(path.join(ROOT, 'docs', 'command.md'), 'utf8');
  const section = (page.split('\n## Options of `deploy-agent`\n')[1] ?? '').split(/\n#/)[0] ?? '';
  const table = /(?:^\|.*\n?)+/m.exec(section)?.[0] ?? '';
  const [, , ...rows] = table.trim().split('\n');
  return rows.map((row) =>
    row
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim()),
  );
}

/** The action's input that an option of secrets stands for. */
const SECRET_INPUTS: Partial<Record<OptionSpec['role']['kind'], InputName>> = {
  'api-key-file': 'api-key',
  header: 'headers',
  'secrets-file': 'secrets',
  secret: 'secrets',
};

/** docs/command.md's row for one option: option, variable, action input, default, commands. */
function expectedRow(spec: OptionSpec): string[] {
  const value = spec.type === 'string' ? ` ${spec.valueName ?? 'VALUE'}` : '';
  const code = (text: string | undefined) => (text === undefined ? '' : `\`${text}\``);
  const input =
    spec.role.kind === 'input' || spec.role.kind === 'plan-input' || spec.role.kind === 'header'
      ? spec.role.input
      : SECRET_INPUTS[spec.role.kind];
  return [
    code(`--${spec.option}${value}`),
    code(spec.variable),
    input === undefined ? '' : code(input),
    spec.defaultText?.includes("CI system's") === true ? 'the CI project' : code(spec.defaultText),
    spec.commands.join(', '),
  ];
}

/** The table as docs/command.md writes it (printed when it differs). */
function markdownOptionTable(): string {
  const header = ['option', 'variable', 'action input', 'default', 'commands'];
  return [header, header.map(() => '---'), ...table.map(expectedRow)]
    .map((cells) => `| ${cells.join(' | ')} |`)
    .join('\n');
}

describe("docs/command.md's table of options", () => {
  it('is the option table, row by row', () => {
    expect(
      documentedOptionRows(),
      `docs/command.md's table should be:\n${markdownOptionTable()}\n`,
    ).toEqual(table.map(expectedRow));
  });
});
