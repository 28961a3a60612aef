/**
 * Which of two commits is newer, by GitHub's compare: `ahead` (latest is
 * newer), `behind`; any other answer (diverged, identical, an error) is
 * unknown and says nothing. Asked once per pair.
 */
import type { GitHubApi } from '../client/api.js';
import type { CommitOrder } from '../../run/ports/progress.js';

export class CommitOrders {
  readonly #api: GitHubApi;
  readonly #orders = new Map<string, Promise<CommitOrder>>();

  constructor(api: GitHubApi) {
    this.#api = api;
  }

  ask(repository: string, target: string, latest: string): Promise<CommitOrder> {
    const key = `${repository}\n${target}\n${latest}`.toLowerCase();
    const order = this.#orders.get(key) ?? this.#compare(repository, target, latest);
    this.#orders.set(key, order);
    return order;
  }

  async #compare(repository: string, target: string, latest: string): Promise<CommitOrder> {
    const [owner, repo, ...rest] = repository.split('/');
    if (!owner || !repo || rest.length > 0) return undefined;
    const result = await this.#api.compare({ owner, repo }, target, latest, { silent: true });
    if (!result.ok) return undefined;
    const { status } = result.value;
    return status === 'ahead' ? 'newer' : status === 'behind' ? 'older' : undefined;
  }
}
