/**
 * One HTTP exchange's bounds: a signal aborted once `timeoutMs` pass or the run is cancelled,
 * whichever comes first (`timedOut` and `cancelled` say which; `end()` clears the timer and
 * the listener), and its answer's body read to at most `limit` bytes.
 */
import { CancelledError } from '../common/errors.js';

export class ExchangeBound {
  readonly #abort = new AbortController();
  readonly #cancel: AbortSignal | undefined;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #onCancel = (): void => this.#abort.abort();
  readonly signal = this.#abort.signal;
  #timedOut = false;

  /** Throws `CancelledError` when the run is cancelled already. */
  constructor(timeoutMs: number, cancel: AbortSignal | undefined) {
    if (cancel?.aborted) throw new CancelledError();
    this.#cancel = cancel;
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#abort.abort();
    }, timeoutMs);
    cancel?.addEventListener('abort', this.#onCancel, { once: true });
  }

  get timedOut(): boolean {
    return this.#timedOut;
  }

  /** The run was cancelled: the caller throws `CancelledError`, never a failure of its own. */
  get cancelled(): boolean {
    return this.#cancel?.aborted === true;
  }

  end(): void {
    clearTimeout(this.#timer);
    this.#cancel?.removeEventListener('abort', this.#onCancel);
  }
}

/**
 * At most `limit` bytes of `body`, and whether it held more. Leaving the loop early destroys
 * the rest (and its connection), so a body that never ends costs no more than `limit`.
 */
export async function boundedBody(
  body: AsyncIterable<Buffer>,
  limit: number,
): Promise<{ body: Buffer; oversized: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > limit) break;
  }
  return { body: Buffer.concat(chunks).subarray(0, limit), oversized: size > limit };
}
