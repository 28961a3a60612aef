/**
 * action.yml as the runner reads it: the declared inputs with their defaults,
 * so that tests see exactly what a workflow step would.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Declared {
  description?: string;
  required?: boolean;
  default?: string;
}

export interface ActionYml {
  name: string;
  description: string;
  branding?: { icon?: string; color?: string };
  inputs: Record<string, Declared>;
  outputs: Record<string, { description?: string }>;
  runs: { using: string; main: string };
}

/** The action.yml at `file` (the deploy step's, or a sub-action's such as `plan/action.yml`). */
export function actionYml(file = 'action.yml'): ActionYml {
  return parse(readFileSync(`${ROOT}${file}`, 'utf8')) as ActionYml;
}

/** The value of `${{ github.repository }}` in tests. */
export const WORKFLOW_REPOSITORY = 'acme/agent';

/** What a declared default's `${{ github.* }}` expressions stand for in a run. */
export interface DefaultContext {
  repository: string;
  token: string;
}

/**
 * A declared default as the runner evaluates it: `${{ github.repository }}` and
 * `${{ github.token }}` filled in from `context`. Any other expression is an error, so that a
 * default that grows one is never handed to the action unexpanded.
 */
export function expandDefault(text: string, context: DefaultContext): string {
  const values: Record<string, string> = {
    'github.repository': context.repository,
    'github.token': context.token,
  };
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (whole, expression: string) => {
    const value = values[expression];
    if (value === undefined) throw new Error(`no value for the default ${whole} of action.yml`);
    return value;
  });
}

/**
 * Every input's value as the runner hands it over: the given ones, else the
 * declared default (its `${{ github.* }}` evaluated), else ''.
 */
export function withDefaults(
  given: Record<string, string>,
  file = 'action.yml',
): Record<string, string> {
  const values: Record<string, string> = {};
  // No runner's token: a test of the GitHub features gives its own (github-step.ts).
  const context = { repository: WORKFLOW_REPOSITORY, token: '' };
  for (const [name, declared] of Object.entries(actionYml(file).inputs)) {
    values[name] = given[name] ?? expandDefault(declared.default ?? '', context);
  }
  for (const name of Object.keys(given)) {
    if (!(name in values))
      throw new Error(`test gives input '${name}', which ${file} does not declare`);
  }
  return values;
}

/** An `InputReader` over a name → value map (defaults applied), trimmed like core.getInput. */
export function reader(given: Record<string, string>): (name: string) => string {
  const values = withDefaults(given);
  return (name) => (values[name] ?? '').trim();
}
