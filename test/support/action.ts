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

/**
 * Every input's value as the runner hands it over: the given ones, else the
 * declared default (with `${{ github.repository }}` evaluated), else ''.
 */
export function withDefaults(
  given: Record<string, string>,
  file = 'action.yml',
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, declared] of Object.entries(actionYml(file).inputs)) {
    const fallback = (declared.default ?? '').replace(
      '${{ github.repository }}',
      WORKFLOW_REPOSITORY,
    );
    values[name] = given[name] ?? fallback;
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
