/** The action's entry: runs it, and nothing else. */
import { run } from './main.js';

await run();
