/** The action's entry: runs it, and nothing else. */
import { run } from './github/action.js';

await run();
