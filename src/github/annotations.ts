/**
 * Warning annotations within GitHub's limits: GitHub shows at most 10 warning
 * annotations a step and drops the rest, so the step writes at most 10. The
 * first 9 go out as they come; from the 10th on, each is a plain log line at
 * once, and when the run ends one last annotation is written: the 10th
 * warning itself when there was exactly one more, else how many more there
 * were and where to find them.
 */

/** GitHub shows this many warning annotations a step. */
export const ANNOTATION_LIMIT = 10;

export interface AnnotationSink {
  /** A warning annotation (`::warning::`). */
  annotate(message: string): void;
  line(message: string): void;
}

export class WarningAnnotations {
  readonly #sink: AnnotationSink;
  readonly #limit: number;
  #annotated = 0;
  readonly #held: string[] = [];
  #flushed = false;

  constructor(sink: AnnotationSink, limit = ANNOTATION_LIMIT) {
    this.#sink = sink;
    this.#limit = limit;
  }

  /** How many warnings the step had, annotated or not. */
  get count(): number {
    return this.#annotated + this.#held.length;
  }

  warning(message: string): void {
    if (!this.#flushed && this.#annotated < this.#limit - 1) {
      this.#annotated += 1;
      this.#sink.annotate(message);
      return;
    }
    // After the last annotation: a line only (nothing should warn this late).
    if (!this.#flushed) this.#held.push(message);
    this.#sink.line(`Warning: ${message}`);
  }

  /** Writes the last annotation; `where` says where the others are (`the step's log`, the summary…). */
  flush(where: string): void {
    if (this.#flushed) return;
    this.#flushed = true;
    const [only] = this.#held;
    if (only === undefined) return;
    if (this.#held.length === 1) {
      this.#sink.annotate(only);
      return;
    }
    this.#sink.annotate(
      `${this.#held.length} more warnings than GitHub shows here (it shows ${this.#limit} a step): ${where}. The first of them: ${only}`,
    );
  }
}
