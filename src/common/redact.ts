/**
 * Secret values out of free text (logs, messages, the summary); outputs are redacted by
 * structure (report.ts). The runner's `core.setSecret` masks only the log it renders.
 */
import { percentEscape, unicodeEscape } from './characters.js';

export const MASK = '***';

/** `4`, `true` or `off` occur everywhere: replacing them would garble every line and hide nothing. */
export function isRedactable(value: string): boolean {
  const trimmed = value.trim();
  return (
    trimmed.length >= 4 &&
    !/^(true|false|null|none|yes|no|on|off)$/i.test(trimmed) &&
    !/^[-+]?\d+(\.\d+)?$/.test(trimmed)
  );
}

/** `\u00e9` (and `\u00E9`) for every character outside printable ASCII, as Python's json does. */
function asciiEscaped(text: string, upper: boolean): string {
  return text.replace(/[^\x20-\x7e]/g, (character) =>
    upper ? `\\u${unicodeEscape(character).slice(2).toUpperCase()}` : unicodeEscape(character),
  );
}

/** Inside JSON: escaped quotes, `\/`, escaped non-ASCII. */
function jsonForms(value: string): string[] {
  const inner = JSON.stringify(value).slice(1, -1);
  const slashes = inner.replaceAll('/', '\\/');
  return [inner, slashes].flatMap((form) => [
    form,
    asciiEscaped(form, false),
    asciiEscaped(form, true),
  ]);
}

/**
 * Inside a URL or a form body: `encodeURIComponent`'s; RFC 3986's and Python's `quote` (`!'()*`
 * too); form bodies (space as `+`) of Python's `urlencode` and of `URLSearchParams`.
 */
function urlForms(value: string): string[] {
  const component = encodeURIComponent(value);
  const strict = component.replace(/[!'()*]/g, percentEscape);
  const searchParams = new URLSearchParams({ v: value }).toString().slice('v='.length);
  return [component, strict, strict.replaceAll('%20', '+'), searchParams];
}

export class Redactor {
  readonly #needles = new Set<string>();
  /** A short text looks up only what it could hold. */
  readonly #byLength = new Map<number, Set<string>>();
  /** Needles that hold the mask itself, which a replacement could make appear. */
  readonly #holdingMask = new Set<string>();
  /** A value registered at every poll costs nothing again. */
  readonly #added = new Set<string>();
  #sorted: string[] | undefined;

  /**
   * The value and each redactable line of it, in their JSON, URL and form forms. Returns those
   * not known yet, for the runner's mask.
   */
  add(value: string): string[] {
    if (this.#added.has(value)) return [];
    this.#added.add(value);
    const lines = value.split(/\r?\n/).map((line) => line.trim());
    const forms = [value, ...lines].filter(
      (form, index, all) => isRedactable(form) && all.indexOf(form) === index,
    );
    const fresh = forms.filter((form) => !this.#needles.has(form));
    for (const form of forms)
      for (const variant of [form, ...jsonForms(form), ...urlForms(form)]) this.#addNeedle(variant);
    this.#sorted = undefined;
    return fresh;
  }

  redact(text: string): string {
    let out = text;
    for (const needle of this.#candidates(text)) out = out.split(needle).join(MASK);
    return out;
  }

  #addNeedle(needle: string): void {
    if (this.#needles.has(needle)) return;
    this.#needles.add(needle);
    const same = this.#byLength.get(needle.length) ?? new Set<string>();
    same.add(needle);
    this.#byLength.set(needle.length, same);
    if (needle.includes(MASK)) this.#holdingMask.add(needle);
  }

  /**
   * Longest first: every one, or, when they far outnumber the places one could sit in `text`
   * (a status among thousands of secrets), only those it holds and those holding the mask.
   */
  #candidates(text: string): readonly string[] {
    if (text.length * this.#byLength.size >= this.#needles.size) return this.#longestFirst();
    const found = new Set(this.#holdingMask);
    for (const [length, needles] of this.#byLength) {
      for (let at = 0; at + length <= text.length; at++) {
        const piece = text.slice(at, at + length);
        if (needles.has(piece)) found.add(piece);
      }
    }
    return [...found].sort((a, b) => b.length - a.length);
  }

  /** The first `characters` code points as received, a secret that runs past the cut masked whole. */
  redactHead(text: string, characters: number): string {
    const needles = this.#longestFirst();
    let out = '';
    let index = 0;
    for (let count = 0; count < characters && index < text.length; count++) {
      const needle = needles.find((candidate) => text.startsWith(candidate, index));
      if (needle !== undefined) {
        out += MASK;
        index += needle.length;
        continue;
      }
      const character = String.fromCodePoint(text.codePointAt(index) ?? 0);
      out += character;
      index += character.length;
    }
    return out;
  }

  /** A secret containing another is replaced whole. */
  #longestFirst(): string[] {
    this.#sorted ??= [...this.#needles].sort((a, b) => b.length - a.length);
    return this.#sorted;
  }
}
