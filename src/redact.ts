/**
 * Removes every secret value from text before it reaches a log line, an
 * output, the job summary or an error message. The runner masks values
 * registered with `core.setSecret` too, but only in the log it renders; this
 * keeps them out of outputs and files, and out of the log when no runner
 * masks it.
 */
export const MASK = '***';

export class Redactor {
  readonly #needles = new Set<string>();

  /** Registers a secret value, with the forms it takes inside JSON and URLs. */
  add(value: string): void {
    if (value.trim() === '') return;
    const forms = [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)];
    for (const line of value.split(/\r?\n/)) if (line.trim() !== '') forms.push(line);
    for (const form of forms) if (form !== '') this.#needles.add(form);
  }

  /** Values to hand to `core.setSecret`: the raw values and each of their lines. */
  get values(): string[] {
    return [...this.#needles];
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so that a secret containing another is replaced whole.
    const needles = [...this.#needles].sort((a, b) => b.length - a.length);
    for (const needle of needles) out = out.split(needle).join(MASK);
    return out;
  }
}
