/**
 * undici, loaded on first use: loading it is a measurable part of start-up (bench/README.md).
 * `loadedUndici()` where a dispatcher is made synchronously, after the adapter loaded it.
 */
import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

export async function loadUndici(): Promise<typeof Undici> {
  return (loaded ??= await import(/* webpackMode: "eager" */ 'undici'));
}

export function loadedUndici(): typeof Undici {
  if (loaded === undefined) throw new Error('undici is used before loadUndici() loaded it');
  return loaded;
}
