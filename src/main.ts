/**
 * The action's `run()`, where GitHub's `@github/local-action` looks for it
 * (`npx local-action . src/main.ts .env`). The entry itself is
 * src/github/action.ts; src/index.ts runs it.
 */
export { run } from './github/action.js';
