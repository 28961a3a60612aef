/**
 * One HTTP exchange's bound: a signal aborted once `timeoutMs` pass or the
 * run is cancelled, whichever comes first. `timedOut` and `cancelled` say
 * which; `end()` clears the timer and the listener.
 */
import { CancelledError } from '../common/errors.js';

export class ExchangeBound {
  readonly #abort = new AbortController();
  readonly #cancel: AbortSignal | undefined;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #onCancel = (): void => this.#abort.abort();
  #timedOut = false;

  /** Throws `CancelledError` when the run is cancelled already. */
  constructor(timeoutMs: number, cancel: AbortSignal | undefined) {
    if (cancel?.aborted) throw new CancelledError('The run was cancelled');
    this.#cancel = cancel;
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#abort.abort();
    }, timeoutMs);
    cancel?.addEventListener('abort', this.#onCancel, { once: true });
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
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
