/** Messages of a failed parse: one line per problem, each starting with the field's path. */
import type { z } from 'zod';

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * A readable path: `source_config.resource_spec`, `resources[0].id`,
 * `labels["app.kubernetes.io/name"]`; `(root)` when empty.
 */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && PLAIN_KEY.test(segment))
      out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out === '' ? '(root)' : out;
}

/** `resource_spec.min_scal: unknown key` (one line per key), `resources[0].id: Invalid input: …`. */
export function formatZodIssues(error: z.ZodError): string[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => `${formatIssuePath([...issue.path, key])}: unknown key`)
      : [`${formatIssuePath(issue.path)}: ${issue.message}`],
  );
}

/** Its first five problems shown and the rest counted. */
export function schemaMismatch(error: z.ZodError): string {
  const issues = formatZodIssues(error);
  const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
  return `does not match the service's schema: ${issues.slice(0, 5).join('; ')}${more}`;
}
