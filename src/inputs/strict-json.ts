/**
 * JSON.parse keeps the last of repeated keys silently, so the text is also read by the yaml
 * package, whose document keeps every key as written (JSON is YAML 1.2, escapes included).
 */
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';

/** `index` and `firstIndex` count the object's keys from 0. */
interface RepeatedKey {
  path: (string | number)[];
  index: number;
  firstIndex: number;
}

type StrictJson =
  /** `reason` is JSON.parse's message, which may quote the text. */
  | { kind: 'invalid'; reason: string }
  /** Nested too deeply for the yaml parser: repeated keys cannot be ruled out. */
  | { kind: 'unchecked' }
  /** `repeated`: the first key given twice (objects' own keys before nested ones). */
  | { kind: 'json'; value: unknown; repeated: RepeatedKey | undefined };

export function parseStrictJson(text: string): StrictJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', reason: error instanceof Error ? error.message : String(error) };
  }
  const document = parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  if (document.errors.length > 0) return { kind: 'unchecked' };
  return { kind: 'json', value, repeated: firstRepeatedKey(document.contents, []) };
}

/** A map key as JSON has it: always a string scalar in text that JSON.parse accepted. */
function keyOf(key: unknown): string {
  return String(isScalar(key) ? key.value : key);
}

function firstRepeatedKey(node: unknown, path: (string | number)[]): RepeatedKey | undefined {
  if (isSeq(node)) {
    for (const [index, item] of node.items.entries()) {
      const repeated = firstRepeatedKey(item, [...path, index]);
      if (repeated !== undefined) return repeated;
    }
    return undefined;
  }
  if (!isMap(node)) return undefined;
  const seen = new Map<string, number>();
  for (const [index, pair] of node.items.entries()) {
    const key = keyOf(pair.key);
    const firstIndex = seen.get(key);
    if (firstIndex !== undefined) return { path: [...path, key], index, firstIndex };
    seen.set(key, index);
  }
  for (const pair of node.items) {
    const repeated = firstRepeatedKey(pair.value, [...path, keyOf(pair.key)]);
    if (repeated !== undefined) return repeated;
  }
  return undefined;
}
