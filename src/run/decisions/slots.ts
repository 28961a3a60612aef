/**
 * At most so many pieces of work at once (the agents' find-or-create): `take()` resolves
 * with the function that frees the slot (a second call does nothing), in the order asked.
 */
type Release = () => void;

export class Slots {
  readonly #size: number;
  #busy = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`Slots need a size of 1 or more, not ${size}`);
    this.#size = size;
  }

  get busy(): number {
    return this.#busy;
  }

  async take(): Promise<Release> {
    if (this.#busy < this.#size) this.#busy += 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // A freed slot goes straight to the next in line, or back to the pool.
      if (next === undefined) this.#busy -= 1;
      else next();
    };
  }
}
