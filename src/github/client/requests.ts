/** What the action sends GitHub. */

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
