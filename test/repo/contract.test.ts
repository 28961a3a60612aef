/**
 * Each action.yml, its entry's declarations and the tables of the document
 * that describes it must tell the same story: the same inputs and outputs, in
 * the same order, with the same required flags, defaults and descriptions.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GITHUB_OUTPUT_NAMES } from '../../src/github/inputs.ts';
import { defaultText, namesOf, type Declarations } from '../../src/inputs/declare.ts';
import { DEPLOY_INPUTS } from '../../src/main.ts';
import { PLAN_INPUTS } from '../../src/plan.ts';
import { PLAN_OUTPUT_NAMES } from '../../src/run/decisions/plan-outputs.ts';
import { RETIRE_OUTPUT_NAMES } from '../../src/run/flows/retire-run.ts';
import { RETIRE_INPUTS } from '../../src/retire.ts';
import { SWEEP_OUTPUT_NAMES } from '../../src/run/flows/sweep-run.ts';
import { SWEEP_INPUTS } from '../../src/sweep.ts';
import { OUTPUT_NAMES } from '../../src/run/decisions/report.ts';
import {
  ROOT,
  WORKFLOW_REPOSITORY,
  actionYml,
  expandDefault,
  withDefaults,
} from '../support/action.ts';

/** The rows of the first markdown table under `heading`, each a list of cells. */
function markdownTable(markdown: string, heading: string): string[][] {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`README.md has no '${heading}' heading`);
  const level = /^#+/.exec(heading)?.[0] ?? '#';
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    const trimmed = line.trim();
    const nextHeading = /^(#+)\s/.exec(trimmed);
    if (nextHeading !== null && (nextHeading[1]?.length ?? 0) <= level.length) break;
    if (trimmed.startsWith('|')) {
      rows.push(tableCells(trimmed));
    } else if (rows.length > 0) {
      break; // the first table under the heading has ended
    }
  }
  if (rows.length < 2) throw new Error(`README.md has no table under '${heading}'`);
  const [header, separator, ...body] = rows;
  if (separator === undefined || !separator.every((cell) => /^:?-+:?$/.test(cell))) {
    throw new Error(`the table under '${heading}' has no separator row`);
  }
  return [header ?? [], ...body];
}

/** The cells of one table row, split at unescaped `|`, with markdown escapes undone. */
function tableCells(row: string): string[] {
  const cells = row
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|\s*$/, '')
    .split(/(?<!\\)\|/);
  return cells.map((cell) => unescapeMarkdown(cell.trim()));
}

/** Undoes backslash escapes of ASCII punctuation (`\|`, `\*`, `\_`, ...). */
function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** `` `name` `` → `name`; anything else unchanged (so that a missing backtick shows). */
function unquote(cell: string): string {
  const match = /^`(.*)`$/.exec(cell);
  return match?.[1] ?? cell;
}

/**
 * Every action of the repository (action.yml, and each sub-action's): its
 * entry's declared inputs and outputs, and the document whose tables
 * describe it. A new entry adds a row.
 */
const ACTIONS = [
  {
    file: 'action.yml',
    main: 'dist/index.js',
    inputs: DEPLOY_INPUTS as Declarations,
    outputs: [...OUTPUT_NAMES, ...GITHUB_OUTPUT_NAMES] as readonly string[],
    doc: 'README.md',
  },
  {
    file: 'plan/action.yml',
    main: '../dist/plan.js',
    inputs: PLAN_INPUTS as Declarations,
    outputs: PLAN_OUTPUT_NAMES as readonly string[],
    doc: 'docs/plan.md',
  },
  {
    file: 'retire/action.yml',
    main: '../dist/retire.js',
    inputs: RETIRE_INPUTS as Declarations,
    outputs: RETIRE_OUTPUT_NAMES as readonly string[],
    doc: 'docs/retire.md',
  },
  {
    file: 'sweep/action.yml',
    main: '../dist/sweep.js',
    inputs: SWEEP_INPUTS as Declarations,
    outputs: SWEEP_OUTPUT_NAMES as readonly string[],
    doc: 'docs/sweep.md',
  },
];

interface InputRow {
  name: string;
  nameCell: string;
  required: string;
  default: string;
  description: string;
}

function documentedInputs(document: string): InputRow[] {
  const [header, ...rows] = markdownTable(document, '## Inputs');
  expect(header, 'columns of the inputs table').toEqual([
    'input',
    'required',
    'default',
    'description',
  ]);
  return rows.map((cells, index) => {
    expect(cells, `inputs table, row ${index + 1}: number of cells`).toHaveLength(4);
    const [nameCell = '', required = '', defaultCell = '', description = ''] = cells;
    return {
      name: unquote(nameCell),
      nameCell,
      required,
      default: defaultCell,
      description,
    };
  });
}

function documentedOutputs(
  document: string,
): { name: string; nameCell: string; description: string }[] {
  const [header, ...rows] = markdownTable(document, '## Outputs');
  expect(header, 'columns of the outputs table').toEqual(['output', 'description']);
  return rows.map((cells, index) => {
    expect(cells, `outputs table, row ${index + 1}: number of cells`).toHaveLength(2);
    const [nameCell = '', description = ''] = cells;
    return { name: unquote(nameCell), nameCell, description };
  });
}

describe.each(ACTIONS)('$file', ({ file, main, inputs, outputs, doc }) => {
  const action = actionYml(file);
  const document = readFileSync(`${ROOT}${doc}`, 'utf8');
  const declaredInputs = Object.entries(action.inputs ?? {});
  const declaredOutputs = Object.entries(action.outputs ?? {});
  const codeInputNames = namesOf(inputs);
  /** The code's declaration of an input of action.yml. */
  const inCode = (name: string) => {
    const declared = inputs[name];
    if (declared === undefined) throw new Error(`input '${name}' is not declared in src/`);
    return declared;
  };

  describe('on its own', () => {
    it(`runs ${main} on node24`, () => {
      expect(action.runs?.using, 'runs.using').toBe('node24');
      expect(action.runs?.main, 'runs.main').toBe(main);
    });

    it('has a name, a description and branding', () => {
      expect(action.name, 'name').toMatch(/\S/);
      expect(action.description, 'description').toMatch(/\S/);
      expect(action.branding?.icon, 'branding.icon').toMatch(/\S/);
      expect(action.branding?.color, 'branding.color').toMatch(/\S/);
    });

    it.each(declaredInputs)('input %s has a description', (name, declared) => {
      expect(declared.description?.trim() ?? '', `input '${name}' has no description`).not.toBe('');
    });

    it.each(declaredInputs)(
      'input %s declares required and, when optional, a default',
      (name, declared) => {
        expect(typeof declared.required, `input '${name}': required must be true or false`).toBe(
          'boolean',
        );
        if (declared.required === true) {
          expect(declared.default, `input '${name}' is required, so it must have no default`).toBe(
            undefined,
          );
        } else {
          expect(
            typeof declared.default,
            `input '${name}' is optional, so action.yml must declare its default`,
          ).toBe('string');
        }
      },
    );

    it.each(declaredOutputs)('output %s has a description', (name, declared) => {
      expect(declared.description?.trim() ?? '', `output '${name}' has no description`).not.toBe(
        '',
      );
    });
  });

  describe('and the code', () => {
    it('declare the same inputs in the same order', () => {
      expect(
        declaredInputs.map(([name]) => name),
        `${file} inputs vs its entry's declared inputs`,
      ).toEqual(codeInputNames);
    });

    it.each(declaredInputs.filter(([, declared]) => declared.default !== undefined))(
      'input %s: its parser accepts the default action.yml declares',
      (name) => {
        const fallback = withDefaults({}, file)[name] ?? '';
        const run = { workspace: ROOT, repository: WORKFLOW_REPOSITORY };
        expect(() => inCode(name).parse(fallback, run)).not.toThrow();
      },
    );

    it.each(declaredInputs)(
      'input %s: the code declares the default action.yml does',
      (name, declared) => {
        const code = inCode(name).default;
        // A default taken from the run is the expression action.yml evaluates for it.
        const spelled = typeof code === 'object' ? `\${{ github.${code.run} }}` : code;
        expect(spelled, `the default of input '${name}' in src/`).toBe(declared.default);
      },
    );

    it('evaluates a default taken from the run with the run, as the runner does', () => {
      const run = { workspace: ROOT, repository: WORKFLOW_REPOSITORY };
      const runnerDefaults = withDefaults({}, file);
      // `${{ github.token }}`, which the code keeps as text (no token), is a test run's empty one.
      const evaluated = (text: string) => expandDefault(text, { repository: '', token: '' });
      for (const name of codeInputNames) {
        expect(evaluated(defaultText(inCode(name), run)), name).toBe(runnerDefaults[name]);
      }
    });

    it('declare the same outputs in the same order', () => {
      expect(
        declaredOutputs.map(([name]) => name),
        `${file} outputs vs its entry's outputs`,
      ).toEqual([...outputs]);
    });
  });

  describe(`and ${doc}`, () => {
    it('list the same inputs in the same order', () => {
      expect(
        documentedInputs(document).map((row) => row.name),
        `${doc} inputs table vs ${file} inputs`,
      ).toEqual(declaredInputs.map(([name]) => name));
    });

    it('list the same outputs in the same order', () => {
      expect(
        documentedOutputs(document).map((row) => row.name),
        `${doc} outputs table vs ${file} outputs`,
      ).toEqual(declaredOutputs.map(([name]) => name));
    });

    it.each(declaredInputs)('agree on input %s', (name, declared) => {
      const row = documentedInputs(document).find((candidate) => candidate.name === name);
      expect(row, `input '${name}' is missing from the ${doc} inputs table`).toBeDefined();
      if (row === undefined) return;
      expect(row.nameCell, `input '${name}': ${doc} writes the name in backticks`).toBe(
        `\`${name}\``,
      );
      expect(row.required, `input '${name}': ${doc} 'required' vs ${file}`).toBe(
        declared.required === true ? 'yes' : 'no',
      );
      const declaredDefault = declared.default ?? '';
      expect(row.default, `input '${name}': ${doc} 'default' vs ${file}`).toBe(
        declaredDefault === '' ? '' : `\`${declaredDefault}\``,
      );
      expect(row.description, `input '${name}': ${doc} description vs ${file}`).toBe(
        declared.description?.trim(),
      );
    });

    it.each(declaredOutputs)('agree on output %s', (name, declared) => {
      const row = documentedOutputs(document).find((candidate) => candidate.name === name);
      expect(row, `output '${name}' is missing from the ${doc} outputs table`).toBeDefined();
      if (row === undefined) return;
      expect(row.nameCell, `output '${name}': ${doc} writes the name in backticks`).toBe(
        `\`${name}\``,
      );
      expect(row.description, `output '${name}': ${doc} description vs ${file}`).toBe(
        declared.description?.trim(),
      );
    });
  });
});

describe('markdownTable', () => {
  const doc = [
    '# Title',
    '## Inputs',
    'Some text.',
    '',
    '| a | b |',
    '| --- | :-: |',
    '| `x` | one \\| two |',
    '| y | \\*\\*\\* |',
    '',
    '| other | table |',
    '| - | - |',
    '## Outputs',
    '| c |',
    '|---|',
    '| z |',
  ].join('\n');

  it('reads the first table under a heading, splitting on unescaped pipes only', () => {
    expect(markdownTable(doc, '## Inputs')).toEqual([
      ['a', 'b'],
      ['`x`', 'one | two'],
      ['y', '***'],
    ]);
    expect(markdownTable(doc, '## Outputs')).toEqual([['c'], ['z']]);
  });

  it('says which heading is missing', () => {
    expect(() => markdownTable(doc, '## Nothing')).toThrow("no '## Nothing' heading");
  });
});
