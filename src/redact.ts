/**
 * Removes every secret value from text before it reaches a log line, an
 * output, the job summary or an error message. The runner masks the values
 * registered with `core.setSecret` too, but only in the log it renders; this
 * keeps them out of outputs and files, and out of the log when no runner
 * masks it.
 */
export const MASK = '***';

/**
 * Whether a line of a multi-line value is worth masking on its own: a line
 * like `{` or `},` of a JSON value would mask that punctuation everywhere.
 */
function distinctive(line: string): boolean {
  return /[\p{L}\p{N}]/u.test(line) || line.length >= 4;
}

export class Redactor {
  readonly #needles = new Set<string>();

  /**
   * Registers a secret value: the value, each of its lines, and the forms it
   * takes inside JSON and URLs. Returns the value and its lines that were not
   * known yet, for the runner's mask.
   */
  add(value: string): string[] {
    const lines = value.split(/\r?\n/).map((line) => line.trim());
    const forms = [value, ...lines.filter(distinctive)].filter(
      (form, index, all) => form.trim() !== '' && all.indexOf(form) === index,
    );
    const fresh = forms.filter((form) => !this.#needles.has(form));
    for (const form of forms) {
      for (const variant of [form, JSON.stringify(form).slice(1, -1), encodeURIComponent(form)]) {
        this.#needles.add(variant);
      }
    }
    return fresh;
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so that a secret containing another is replaced whole.
    const needles = [...this.#needles].sort((a, b) => b.length - a.length);
    for (const needle of needles) out = out.split(needle).join(MASK);
    return out;
  }
}
