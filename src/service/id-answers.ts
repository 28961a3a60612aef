/**
 * The answer to a status check of several deployments, read record by
 * record: one record the service garbled is only its own deployment's
 * answer, one agent's problem, not every agent's.
 */
import { z } from 'zod';
import { ServiceError } from './errors.js';
import { schemaMismatch } from './issues.js';
import { DeploymentSchema, type Deployment } from './schemas.js';
import type { DeploymentVetting } from './vet.js';

/** What a status check answers for one id: the deployment, or why its record is not taken. */
export type IdAnswer = Deployment | ServiceError;

/**
 * Each id asked, as `records` list it: its record checked alone (vetted),
 * or why it cannot be taken (a record that fails the schema, or the id
 * listed twice with different contents). An id nobody asked for is no
 * answer; an id the answer omits has none. Every record's secret values
 * are registered first, whatever its shape. `pathOf` names the request
 * for one id, as a failure of it alone would.
 */
export function answersByIds(
  records: readonly unknown[],
  ids: readonly string[],
  vetting: DeploymentVetting,
  pathOf: (id: string) => string,
): Map<string, IdAnswer> {
  for (const record of records) vetting.hide(record);
  const unusable = (id: string, problem: string) =>
    new ServiceError({
      method: 'GET',
      path: pathOf(id),
      problem: `the answer's record of ${id} ${problem}`,
    });
  const asked = new Set(ids);
  const listed = new Map<string, string>();
  const answers = new Map<string, IdAnswer>();
  records.forEach((record, index) => {
    const id = idOf(record);
    if (id === undefined || !asked.has(id)) return;
    const text = JSON.stringify(record);
    const earlier = listed.get(id);
    if (earlier !== undefined) {
      if (earlier !== text)
        answers.set(id, unusable(id, 'is listed twice, with different contents'));
      return;
    }
    listed.set(id, text);
    const parsed = DeploymentSchema.safeParse(record);
    if (parsed.success) {
      answers.set(id, vetting.vet(parsed.data));
      return;
    }
    answers.set(id, unusable(id, schemaMismatch(atIndex(parsed.error, index))));
  });
  return answers;
}

/** A record's problems, with the paths they would have in the whole answer (`resources[2].created_at`). */
function atIndex(error: z.ZodError, index: number): z.ZodError {
  return new z.ZodError(
    error.issues.map((issue) => ({ ...issue, path: ['resources', index, ...issue.path] })),
  );
}

/** The `id` a listed record claims, whatever else it holds. */
function idOf(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null || !('id' in record)) return undefined;
  return typeof record.id === 'string' ? record.id : undefined;
}
