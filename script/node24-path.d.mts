/** The path of a Node 24 (or newer) binary, or undefined when none is at hand. */
export function node24(): string | undefined;
