/**
 * The service as a typed API (docs/how-it-works.md): one method an endpoint, the only place
 * that spells a path, a query or a schema; the flow never sees HTTP.
 */
import type { RemedyWords } from './answers.js';
import { ServiceError } from './errors.js';
import type { Answered, ServiceClient } from './client.js';
import type { Logger } from '../common/runtime.js';
import {
  DeploymentBatchSchema,
  DeploymentListSchema,
  type DeploymentList,
  DeploymentSchema,
  RepositoryListSchema,
  type Deployment,
  type DeploymentCreateRequest,
  type Repository,
} from './schemas.js';
import { DeploymentVetting } from './vet.js';
import {
  answersByIds,
  DEPLOYMENTS,
  walkListing,
  type IdAnswer,
  type DeploymentFilters,
  type Listing,
  type PagedListing,
  type PageSink,
  type Walk,
} from './listing.js';

export type { DeploymentFilters, Listing, PagedListing, PageSink } from './listing.js';

export const CREATE_CALL = `POST ${DEPLOYMENTS}`;
/** The largest page the service serves. */
export const PAGE_LIMIT = 100;
/** Pages read at most in one search: 100,000 deployments that contain the name. */
export const MAX_PAGES = 1_000;

const byIdPath = (id: string) => `${DEPLOYMENTS}?deployment_ids=${id}`;

interface ServiceOptions {
  maxPages?: number;
  /** Registers a secret with the runner and the run's redaction (a password in `custom_url`). */
  mask?: (secret: string) => void;
  redact?: (text: string) => string;
}

export class Service {
  readonly #client: ServiceClient;
  readonly #logger: Logger;
  readonly #maxPages: number;
  readonly #vetting: DeploymentVetting;

  constructor(client: ServiceClient, logger: Logger, options: ServiceOptions = {}) {
    this.#client = client;
    this.#logger = logger;
    this.#maxPages = options.maxPages ?? MAX_PAGES;
    this.#vetting = new DeploymentVetting(logger, options.mask ?? (() => {}), options.redact);
  }

  get words(): RemedyWords {
    return this.#client.words;
  }

  listRepositories(integrationId: string): Promise<Repository[]> {
    return this.#client.request({
      method: 'GET',
      // The id is a validated uuid: nothing else reaches the path.
      path: `/v1/integrations/forge/codehost/${encodeURIComponent(integrationId)}/repos`,
      schema: RepositoryListSchema,
      remedies: {
        404: `Check ${this.#client.words.integrationId}: the service knows no integration ${integrationId}.`,
      },
    });
  }

  /** Each deployment's secrets registered before anything can print: the next page's error may echo them. */
  async #page(
    query: DeploymentFilters & { limit: number; offset: number },
  ): Promise<DeploymentList> {
    const list = await this.#client.request({
      method: 'GET',
      path: DEPLOYMENTS,
      query: { ...query },
      schema: DeploymentListSchema,
    });
    for (const deployment of list.resources) this.#vetting.hide(deployment);
    return list;
  }

  #walk(filters: DeploymentFilters, walk: Omit<Walk, 'page'>): Promise<number> {
    const page = (offset: number, limit: number) => this.#page({ ...filters, limit, offset });
    return walkListing({ ...walk, page }, this.#logger, this.#maxPages);
  }

  /**
   * Every deployment named exactly `name` (the service filters by substring only), each id once.
   * What it returns proves what is absent (a create follows an empty answer), so a listing that
   * does not page fails it; `proving: false` (a look-up that only warns) ends it with a warning.
   */
  async findByName(name: string, { proving = true } = {}): Promise<Deployment[]> {
    const found: Deployment[] = [];
    await this.#walk(
      { name_contains: name },
      {
        size: () => PAGE_LIMIT,
        onPage: (fresh) => {
          for (const deployment of fresh)
            if (deployment.name === name) found.push(this.#vetting.vet(deployment));
          return true;
        },
        tooLong: () =>
          `GET ${DEPLOYMENTS}: no end of the list after ${this.#maxPages} pages of ${PAGE_LIMIT} deployments whose names contain '${name}'; stopped rather than risk creating a duplicate. Use a more distinctive name, or report the service's pagination.`,
        unpaged: proving
          ? (offset) =>
              `GET ${DEPLOYMENTS} at offset ${offset} listed only deployments it had already listed: the listing does not page (it ignores offset), so a deployment named '${name}' may sit beyond them; stopped rather than risk creating a duplicate. Use a more distinctive name, or report the service's pagination.`
          : undefined,
      },
    );
    return found;
  }

  /**
   * At most `limit` deployments `filters` select, each id once. With `probe`, a list that reaches
   * `limit` asks for one more to say whether it goes on (`more`).
   */
  async list(filters: DeploymentFilters, limit: number, { probe = false } = {}): Promise<Listing> {
    const deployments: Deployment[] = [];
    const keep: PageSink = (page) => {
      deployments.push(...page);
      return true;
    };
    const { more } = await this.listPages(filters, limit, keep, { probe });
    return { deployments, more };
  }

  /**
   * `list`, each page handed to `onPage` and not kept, so memory does not grow with the listing
   * (only the ids). `onPage` returning false ends it there: no further page, no probe.
   */
  async listPages(
    filters: DeploymentFilters,
    limit: number,
    onPage: PageSink,
    { probe = false } = {},
  ): Promise<PagedListing> {
    const taken = new Set<string>();
    const left = () => limit - taken.size;
    if (limit <= 0) return { count: 0, more: false };
    let stopped = false;
    const offset = await this.#walk(filters, {
      size: () => Math.min(PAGE_LIMIT, left()),
      onPage: (fresh) => {
        const page = fresh.slice(0, left()).map((deployment) => this.#vetting.vet(deployment));
        for (const deployment of page) taken.add(deployment.id);
        stopped = page.length > 0 && !onPage(page);
        return !stopped && left() > 0;
      },
      tooLong: () =>
        `GET ${DEPLOYMENTS}: no end of the list after ${this.#maxPages} pages; stopped. Report the service's pagination.`,
    });
    if (!probe || stopped || left() > 0) return { count: taken.size, more: false };
    const { resources } = await this.#page({ ...filters, limit: 1, offset });
    return { count: taken.size, more: resources.some(({ id }) => !taken.has(id)) };
  }

  /**
   * `GET /v2/deployments?deployment_ids=ID`: the deployment, or undefined when
   * the answer does not list it. One attempt: a poll is retried by the next poll.
   */
  async getById(id: string, timeoutMs?: number): Promise<Deployment | undefined> {
    const answer = (await this.#byIds([id], {}, timeoutMs)).get(id);
    if (answer instanceof ServiceError) throw answer;
    return answer;
  }

  /** `getById` for up to 100 ids, each answered on its own (a bad record is only its id's error). */
  getByIds(ids: readonly string[], timeoutMs?: number): Promise<Map<string, IdAnswer>> {
    // More is a caller's mistake: one page holds 100.
    if (ids.length > PAGE_LIMIT)
      throw new RangeError(`getByIds takes ${ids.length} ids, not ≤ 100`);
    return this.#byIds(ids, { limit: PAGE_LIMIT }, timeoutMs);
  }

  async #byIds(
    ids: readonly string[],
    query: { limit?: number },
    timeoutMs: number | undefined,
  ): Promise<Map<string, IdAnswer>> {
    const list = await this.#client.request({
      method: 'GET',
      path: DEPLOYMENTS,
      query: { deployment_ids: ids.join(','), ...query },
      schema: DeploymentBatchSchema,
      attempts: 1,
      timeoutMs,
    });
    return answersByIds(list.resources, ids, this.#vetting, byIdPath);
  }

  /** `reconcile` finds what is there when the create may have taken effect unanswered, or on 409. */
  async create(
    request: DeploymentCreateRequest,
    reconcile: (failure: ServiceError) => Promise<Deployment | undefined>,
  ): Promise<Answered<Deployment>> {
    const answered = await this.#client.exchange({
      method: 'POST',
      path: DEPLOYMENTS,
      body: request,
      schema: DeploymentSchema,
      idempotent: false,
      reconcile,
    });
    return { ...answered, value: this.#vetting.vet(answered.value) };
  }

  static describeGetById(id: string): string {
    return `GET ${byIdPath(id)}`;
  }
}
