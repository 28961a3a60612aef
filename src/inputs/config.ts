import { z } from 'zod';
import { fail } from './errors.js';
import {
  SecretReferenceSchema,
  SourceConfigRequestSchema,
  SourceRevisionConfigRequestSchema,
} from '../service/schemas.js';
import { formatZodIssues } from '../service/issues.js';
import { isFilePath, readDocument } from './workspace-document.js';

const ConfigSchema = z.lazy(() =>
  z.strictObject({
    source_config: SourceConfigRequestSchema.nullish(),
    source_revision_config: SourceRevisionConfigRequestSchema.nullish(),
    secret_references: z.array(SecretReferenceSchema).nullish(),
  }),
);

/** The document, and the file it was read from as given (a path of the workspace), when it was one. */
export type ConfigInput = z.infer<typeof ConfigSchema> & { file?: string };

export function parseConfig(raw: string, workspace: string): ConfigInput {
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
  return isFilePath(raw) ? { ...result.data, file: raw } : result.data;
}
