/** What the run throws about a deployment it found: the failure, and the deployment, for the outputs. */
import { ActionError } from '../../common/errors.js';
import type { Deployment } from '../../service/schemas.js';

/** A failure about a deployment the run found; carries it, so the outputs can still say which. */
export class DeploymentError extends ActionError {
  override name = 'DeploymentError';
  readonly deployment: Deployment;

  constructor(message: string, deployment: Deployment) {
    super(message);
    this.deployment = deployment;
  }
}
