/**
 * undici, loaded on first use: a run that fails on its inputs sends no
 * request, and loading undici (with `node:http2` and `node:tls`) is a
 * measurable part of start-up (bench/README.md). `loadUndici()` before the
 * first request; `loadedUndici()` where a dispatcher is made synchronously,
 * after the adapter (src/github/step.ts, src/cli/main.ts) loaded it.
 */
import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

/** undici, loaded once (part of the bundle, evaluated only now). */
export async function loadUndici(): Promise<typeof Undici> {
  return (loaded ??= await import(/* webpackMode: "eager" */ 'undici'));
}

/** undici, already loaded by `loadUndici()`; a programming error otherwise. */
export function loadedUndici(): typeof Undici {
  if (loaded === undefined) throw new Error('undici is used before loadUndici() loaded it');
  return loaded;
}
