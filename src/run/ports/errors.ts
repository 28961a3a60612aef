import { ActionError } from '../../common/errors.js';
import type { Deployment } from '../../service/schemas.js';

/** Carries the deployment the run found, so the outputs can still say which. */
export class DeploymentError extends ActionError {
  override name = 'DeploymentError';
  readonly deployment: Deployment;

  constructor(message: string, deployment: Deployment) {
    super(message);
    this.deployment = deployment;
  }
}
