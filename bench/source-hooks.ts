/**
 * Lets the bench import src/ under Node 24's type stripping. src/ spells its
 * relative imports `./x.js` (the build and vitest resolve them to `./x.ts`);
 * plain Node does not, so this resolve hook does, for modules under src/ only.
 * Import src/ dynamically after `allowSourceImports()`: static imports are
 * resolved before any module body runs.
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ROOT } from '../test/support/action.ts';

const SOURCE = pathToFileURL(`${ROOT}src/`).href;
let registered = false;

export function allowSourceImports(): void {
  if (registered) return;
  registered = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (
        context.parentURL?.startsWith(SOURCE) === true &&
        specifier.startsWith('.') &&
        specifier.endsWith('.js')
      ) {
        const typescript = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
        if (existsSync(fileURLToPath(typescript))) return nextResolve(typescript.href, context);
      }
      return nextResolve(specifier, context);
    },
  });
}
