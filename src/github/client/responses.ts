/** GitHub's answers: a zod schema each, only the fields read, unknown ones tolerated. */
import { z } from 'zod';

export const Created = z.lazy(() => z.object({ id: z.number() }));
const CommentSchema = z.lazy(() =>
  z.object({
    id: z.number(),
    body: z.string().nullish(),
    user: z.object({ login: z.string(), type: z.string().optional() }).nullish(),
  }),
);
export type IssueComment = z.infer<typeof CommentSchema>;
export const CommentPage = z.lazy(() => z.array(CommentSchema));
export const DeploymentPage = z.lazy(() => z.array(z.object({ id: z.number() })));
export type GitHubDeployment = z.infer<typeof DeploymentPage>[number];
export const StatusPage = z.lazy(() => z.array(z.object({ state: z.string() })));
const ChangedFileSchema = z.lazy(() =>
  z.object({ filename: z.string(), previous_filename: z.string().nullish() }),
);
export type ChangedFile = z.infer<typeof ChangedFileSchema>;
export const ChangedFilePage = z.lazy(() => z.array(ChangedFileSchema));
export const Comparison = z.lazy(() =>
  z.object({
    status: z.string(),
    ahead_by: z.number(),
    behind_by: z.number(),
  }),
);
export type Comparison = z.infer<typeof Comparison>;
export const Viewer = z.lazy(() => z.object({ viewer: z.object({ login: z.string() }) }));
