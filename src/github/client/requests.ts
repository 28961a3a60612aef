/**
 * What the action sends GitHub: the repository a call is for, and the
 * bodies of the deployment calls (responses.ts has what GitHub answers).
 */

export interface Repo {
  owner: string;
  repo: string;
}

export interface DeploymentRequest {
  ref: string;
  environment: string;
  description: string;
  transient_environment: boolean;
  payload: Record<string, unknown>;
}

export type DeploymentState = 'in_progress' | 'success' | 'failure' | 'error' | 'inactive';

export interface DeploymentStatusRequest {
  state: DeploymentState;
  description: string;
  log_url?: string;
  environment_url?: string;
  auto_inactive?: boolean;
}
