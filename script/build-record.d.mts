/** The files script/build writes into dist/, besides the record. */
export const OUTPUTS: readonly string[];
/** The record's name in dist/. */
export const RECORD: string;
/** One hash of the build's inputs under `root`. */
export function inputsHash(root: string): string;
/** Writes dist/build.json for the dist/ under `root` as it is now. */
export function writeRecord(root: string): { inputs: string; outputs: Record<string, string> };
/** Why dist/ under `root` is not what the build makes of the tree now, or undefined when it is. */
export function whyStale(root: string): string | undefined;
/** Copies a cached build of the same inputs into dist/ (BUILD_CACHE_DIR); false when there is none. */
export function restore(root: string, env?: Record<string, string | undefined>): boolean;
/** Keeps dist/'s outputs and record in the cache, when BUILD_CACHE_DIR is set. */
export function store(root: string, env?: Record<string, string | undefined>): void;
/** Runs `npm run bundle` when dist/ is not current; true when it built. */
export function ensure(root: string, say?: (line: string) => void): boolean;
