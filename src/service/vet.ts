/**
 * What of a deployment the service answers the run passes on. Two untrusted fields reach other
 * systems as they are: `custom_url` (the `url` output, `environment_url`, links) passes only as
 * a publishable address (a password masked and taken out) and `repo_commit_sha` (`commit-sha`,
 * a GitLab variable, GitHub's compare) only as a full 40-hex commit. No secret value passes:
 * `status` is redacted where it enters, and a `custom_url` holding one is not published at all,
 * so that no view can forget it. Each change is said once a run, not at every poll.
 *
 * Every secret a deployment carries is registered (`hide`) the moment its answer is parsed:
 * the service may echo it in any later message (a page-2 error), and nothing may print it first.
 */
import { z } from 'zod';
import { publishableAddress } from '../common/address.js';
import { untrusted, type Logger } from '../common/runtime.js';
import { FULL_SHA } from '../common/text.js';
import type { Deployment } from './schemas.js';

const RecordSecretsSchema = z.lazy(() => z.looseObject({ secrets: z.array(z.unknown()) }));
const SecretValueSchema = z.lazy(() => z.looseObject({ value: z.string() }));

export class DeploymentVetting {
  readonly #logger: Logger;
  readonly #mask: (secret: string) => void;
  readonly #redact: (text: string) => string;
  readonly #said = new Set<string>();

  constructor(
    logger: Logger,
    mask: (secret: string) => void,
    redact: (text: string) => string = (text) => text,
  ) {
    this.#logger = logger;
    this.#mask = mask;
    this.#redact = redact;
  }

  /** Whatever the rest of the record is: one that fails the schema still carries secrets. */
  hide(record: unknown): void {
    const listed = RecordSecretsSchema.safeParse(record);
    if (!listed.success) return;
    for (const secret of listed.data.secrets) {
      const value = SecretValueSchema.safeParse(secret);
      if (value.success && value.data.value !== '') this.#mask(value.data.value);
    }
  }

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
    const its = `the service's custom_url of '${untrusted(deployment.name)}'`;
    if (!verdict.ok) {
      this.#once(`custom_url-refused:${given}`, `${its} is not published: ${verdict.why}`);
      return null;
    }
    // A password is taken out above; any other secret value in the address withholds it all.
    if (this.#redact(verdict.address) !== verdict.address) {
      const message = `${its} holds a secret value: it is not published (no url output, link or environment_url)`;
      this.#once(`custom_url-secret:${deployment.id}`, message);
      return null;
    }
    if (verdict.address === given) return given;
    this.#once(
      `custom_url:${verdict.address}`,
      verdict.hadCredentials
        ? `${its} holds a user or password: it is published without them (the password is masked)`
        : `${its} holds spaces or control characters: it is published as an address parser reads it`,
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
