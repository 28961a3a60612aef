/**
 * GitHub shows at most 10 warning annotations a step and drops the rest:
 * the first 9 go out as they come, later ones are log lines, and at the end
 * the 10th is the last warning itself or how many more there were and where.
 */

export const ANNOTATION_LIMIT = 10;

interface AnnotationSink {
  annotate(message: string): void;
  line(message: string): void;
}

export class WarningAnnotations {
  readonly #sink: AnnotationSink;
  #annotated = 0;
  readonly #held: string[] = [];
  #flushed = false;

  constructor(sink: AnnotationSink) {
    this.#sink = sink;
  }

  get count(): number {
    return this.#annotated + this.#held.length;
  }

  warning(message: string): void {
    if (!this.#flushed && this.#annotated < ANNOTATION_LIMIT - 1) {
      this.#annotated += 1;
      this.#sink.annotate(message);
      return;
    }
    // After the last annotation: a line only (nothing should warn this late).
    if (!this.#flushed) this.#held.push(message);
    this.#sink.line(`Warning: ${message}`);
  }

  /** `where` says where the others are (`the step's log`, the summary…). */
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
      `${this.#held.length} more warnings than GitHub shows here (it shows ${ANNOTATION_LIMIT} a step): ${where}. The first of them: ${only}`,
    );
  }
}
