/**
 * The `config` input: a JSON or YAML object given inline, or the path of a
 * `.json`, `.yaml` or `.yml` file in the workspace (docs/how-it-works.md, "The `config`
 * input"). Unknown keys in the known schema, and keys given twice, are errors
 * that name the key's path.
 */
import { z } from 'zod';
import { fail } from './errors.js';
import {
  SecretReferenceSchema,
  SourceConfigRequestSchema,
  SourceRevisionConfigRequestSchema,
} from '../service/schemas.js';
import { formatZodIssues } from '../service/issues.js';
import { readDocument } from './workspace-document.js';

/** What may be set beyond the dedicated inputs. */
export const ConfigSchema = z.lazy(() =>
  z.strictObject({
    source_config: SourceConfigRequestSchema.nullish(),
    source_revision_config: SourceRevisionConfigRequestSchema.nullish(),
    secret_references: z.array(SecretReferenceSchema).nullish(),
  }),
);
export type Config = z.infer<typeof ConfigSchema>;

/** Inline JSON or YAML, or the path of a .json/.yaml/.yml file in the workspace. */
export function parseConfig(raw: string, workspace: string): Config {
  if (raw === '') return {};
  const parsed = readDocument(raw, workspace);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    fail(
      'must be a JSON or YAML object with keys source_config, source_revision_config, secret_references',
    );
  }
  try {
    JSON.stringify(parsed);
  } catch {
    fail('cannot be sent as JSON (a YAML anchor refers to itself?)');
  }
  const result = ConfigSchema.safeParse(parsed);
  if (!result.success) fail(formatZodIssues(result.error).join('; '));
  return result.data;
}
