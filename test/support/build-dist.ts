/**
 * vitest global setup: the end-to-end tests run dist/, so it is rebuilt first when it is not
 * what the build makes of src/ now, decided by content (dist/build.json, script/build-record.mjs),
 * so that `npx vitest` is as safe as `npm test` and a fresh clone of a current dist/ builds nothing.
 */
import { ensure } from '../../script/build-record.mjs';
import { ROOT } from './action.ts';

export default function setup(): void {
  ensure(ROOT, (line) => console.log(line));
}
