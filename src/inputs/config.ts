import { z } from 'zod';
import { fail } from './errors.js';
import {
  SecretReferenceSchema,
  SourceConfigRequestSchema,
  SourceRevisionConfigRequestSchema,
} from '../service/schemas.js';
import { formatZodIssues } from '../service/issues.js';
import { readDocument } from './workspace-document.js';

const ConfigSchema = z.lazy(() =>
  z.strictObject({
    source_config: SourceConfigRequestSchema.nullish(),
    source_revision_config: SourceRevisionConfigRequestSchema.nullish(),
    secret_references: z.array(SecretReferenceSchema).nullish(),
  }),
);
export function parseConfig(raw: string, workspace: string): z.infer<typeof ConfigSchema> {
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
