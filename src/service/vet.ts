/**
 * What of a deployment the service answers the run passes on. Service text
 * is untrusted, and two fields reach other systems as they are: `custom_url`
 * (the `url` output, GitHub's `environment_url`, links) and `repo_commit_sha`
 * (the `commit-sha` output, a GitLab variable, GitHub's compare). So:
 *
 * - `custom_url` only as an address that may be published
 *   (`publishableAddress`): a password in it is masked at once and the
 *   address kept without it; anything else is dropped.
 * - `repo_commit_sha` only as a full 40-hex commit; anything else is dropped.
 * - no secret value (the step's, or one any deployment holds): `status` is
 *   redacted here, where it enters, and a `custom_url` that holds one is not
 *   published at all (no `url` output, no link, no `environment_url`), so
 *   that no view can forget it.
 *
 * Each value dropped or changed is said once a run, not at every poll.
 *
 * And every secret value a deployment carries is registered for redaction
 * (`hide`) the moment its answer is parsed, whichever deployment it is: the
 * service may echo it in any later message (a page-2 error, a failed
 * status check's detail), and nothing may print it first.
 */
import { z } from 'zod';
import { publishableAddress } from '../common/address.js';
import { untrusted, type Logger } from '../common/runtime.js';
import { FULL_SHA } from '../common/text.js';
import type { Deployment } from './schemas.js';

/** What of any record may hold secret values, whatever the rest of it is. */
const RecordSecretsSchema = z.lazy(() => z.looseObject({ secrets: z.array(z.unknown()) }));
const SecretValueSchema = z.lazy(() => z.looseObject({ value: z.string() }));

export class DeploymentVetting {
  readonly #logger: Logger;
  readonly #mask: (secret: string) => void;
  readonly #redact: (text: string) => string;
  readonly #said = new Set<string>();

  /** `redact`: the run's redaction, which knows every value `mask` registered. */
  constructor(
    logger: Logger,
    mask: (secret: string) => void,
    redact: (text: string) => string = (text) => text,
  ) {
    this.#logger = logger;
    this.#mask = mask;
    this.#redact = redact;
  }

  /**
   * Registers the secret values of a deployment the service answered, used
   * or not, whatever the rest of its record is: one that fails the schema
   * (a bad `created_at`) still carries them.
   */
  hide(record: unknown): void {
    const listed = RecordSecretsSchema.safeParse(record);
    if (!listed.success) return;
    for (const secret of listed.data.secrets) {
      const value = SecretValueSchema.safeParse(secret);
      if (value.success && value.data.value !== '') this.#mask(value.data.value);
    }
  }

  /** The deployment as the run may pass it on (its secret values registered). */
  vet(deployment: Deployment): Deployment {
    this.hide(deployment);
    const url = this.#url(deployment);
    const commit = this.#commit(deployment);
    const status = this.#redact(deployment.status);
    const unchanged =
      url === deployment.source_config.custom_url &&
      commit === deployment.source_revision_config.repo_commit_sha &&
      status === deployment.status;
    if (unchanged) return deployment;
    return {
      ...deployment,
      status,
      source_config: { ...deployment.source_config, custom_url: url },
      source_revision_config: { ...deployment.source_revision_config, repo_commit_sha: commit },
    };
  }

  #url(deployment: Deployment): string | null | undefined {
    const given = deployment.source_config.custom_url;
    if (given === undefined || given === null || given === '') return given;
    const verdict = publishableAddress(given);
    for (const secret of verdict.removed) this.#mask(secret);
    if (!verdict.ok) {
      this.#once(
        `custom_url-refused:${given}`,
        `the service's custom_url of '${untrusted(deployment.name)}' is not published: ${verdict.why}`,
      );
      return null;
    }
    // A password is taken out above; any other secret value in the address withholds it all.
    if (this.#redact(verdict.address) !== verdict.address) {
      this.#once(
        `custom_url-secret:${deployment.id}`,
        `the service's custom_url of '${untrusted(deployment.name)}' holds a secret value: it is not published (no url output, link or environment_url)`,
      );
      return null;
    }
    if (verdict.address === given) return given;
    this.#once(
      `custom_url:${verdict.address}`,
      verdict.hadCredentials
        ? `the service's custom_url of '${untrusted(deployment.name)}' holds a user or password: it is published without them (the password is masked)`
        : `the service's custom_url of '${untrusted(deployment.name)}' holds spaces or control characters: it is published as an address parser reads it`,
    );
    return verdict.address;
  }

  #commit(deployment: Deployment): string | null | undefined {
    const given = deployment.source_revision_config.repo_commit_sha;
    if (given === undefined || given === null || given === '' || FULL_SHA.test(given)) return given;
    this.#once(
      `commit:${given}`,
      `the service's repo_commit_sha of '${untrusted(deployment.name)}' is not a 40-hex commit (${untrusted(given.slice(0, 64))}): it is not passed on`,
    );
    return null;
  }

  #once(key: string, message: string): void {
    if (this.#said.has(key)) return;
    this.#said.add(key);
    this.#logger.warning(message);
  }
}
