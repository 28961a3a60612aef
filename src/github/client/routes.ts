/** Each GitHub call the action makes (the only place that spells a path) and its `permissions:` line. */

export type Permission =
  'deployments: write' | 'pull-requests: write' | 'pull-requests: read' | 'contents: read';

export const DEPLOYMENT = 'POST /repos/{owner}/{repo}/deployments';
export const COMMENTS = '/repos/{owner}/{repo}/issues/{issue_number}/comments';
export const COMMENT_UPDATE = 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}';
export const COMPARE = 'GET /repos/{owner}/{repo}/compare/{basehead}';
export const DEPLOYMENT_LIST = 'GET /repos/{owner}/{repo}/deployments';
export const STATUS_LIST = 'GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses';
export const PULL_REQUEST_FILES = 'GET /repos/{owner}/{repo}/pulls/{pull_number}/files';

/** Each REST route the action calls: what it is for (its failure says so), and its permission. */
export const ROUTES: Record<string, { purpose: string; permission: Permission }> = {
  [DEPLOYMENT]: { purpose: 'record the GitHub deployment', permission: 'deployments: write' },
  [DEPLOYMENT_LIST]: {
    purpose: 'list the environment’s GitHub deployments',
    // Reading needs `deployments: read`; the statuses that follow need write, which includes it.
    permission: 'deployments: write',
  },
  [STATUS_LIST]: {
    purpose: 'read the GitHub deployment’s latest status',
    // Reading needs `deployments: read`; the status that may follow needs write, which includes it.
    permission: 'deployments: write',
  },
  [`${DEPLOYMENT}/{deployment_id}/statuses`]: {
    purpose: 'set the GitHub deployment’s status',
    permission: 'deployments: write',
  },
  [`GET ${COMMENTS}`]: {
    purpose: 'find this deployment’s comment',
    permission: 'pull-requests: write',
  },
  [`POST ${COMMENTS}`]: {
    purpose: 'write the pull request comment',
    permission: 'pull-requests: write',
  },
  [COMMENT_UPDATE]: {
    purpose: 'update the pull request comment',
    permission: 'pull-requests: write',
  },
  [COMPARE]: { purpose: 'learn which commit is newer', permission: 'contents: read' },
  [PULL_REQUEST_FILES]: {
    purpose: 'list the pull request’s changed files',
    permission: 'pull-requests: read',
  },
};

/** Its failure names no permission. */
export const VIEWER = { call: 'POST /graphql', purpose: 'find the token’s own login' } as const;

export const PULL_REQUEST_STATES = {
  call: 'POST /graphql',
  purpose: 'learn how the pull requests stand',
  permission: 'pull-requests: read',
} as const;

export interface RestCall {
  route: string;
  parameters: Record<string, unknown>;
}

export const rest = (route: string, parameters: Record<string, unknown>): RestCall => ({
  route,
  parameters,
});

export function callName({ route, parameters }: RestCall): string {
  const path = route.replace(/\{(\w+)\}/g, (_match, key: string) => String(parameters[key]));
  return typeof parameters.page === 'number' ? `${path}?page=${parameters.page}` : path;
}
