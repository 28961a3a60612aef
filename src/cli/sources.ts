/** What the command reads besides its arguments, and the `Reading` that gathers values and problems. */
import { BoundedReadError, KIB, MIB } from '../inputs/bounded-read.js';
import type { CommandInput } from './options.js';

export type Environment = Readonly<Record<string, string | undefined>>;

export interface ArgumentSources {
  env: Environment;
  /** At most `cap` bytes; a `BoundedReadError` when it is larger or never ends. */
  readFile: (path: string, cap: number) => string;
}

/** The most an option's file may hold: a key is short; secrets are lines of NAME=value. */
export const FILE_CAPS = { 'api-key-file': 64 * KIB, 'secrets-file': MIB } as const;

/** Every problem found, to report them all at once. */
export class Reading {
  readonly problems: string[] = [];
  readonly inputs: Partial<Record<CommandInput, string>> = {};
  readonly origins: Partial<Record<CommandInput, string>> = {};
  readonly secretValues: string[] = [];

  readonly sources: ArgumentSources;

  constructor(sources: ArgumentSources) {
    this.sources = sources;
  }

  set(input: CommandInput, raw: string, origin: string): void {
    // As `core.getInput` gives it: trimmed (a key from a file keeps its inner text).
    this.inputs[input] = raw.trim();
    this.origins[input] = origin;
  }

  secret(value: string): void {
    if (value !== '') this.secretValues.push(value);
  }

  file(option: keyof typeof FILE_CAPS, path: string): string | undefined {
    const cap = FILE_CAPS[option];
    try {
      return this.sources.readFile(path, cap);
    } catch (error) {
      // Its message names the cap ("it is larger than 1 MiB") or the deadline.
      if (error instanceof BoundedReadError) {
        this.problems.push(`--${option} ${path}: cannot read it: ${error.message}`);
        return undefined;
      }
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      const why =
        { ENOENT: 'no such file', EISDIR: 'it is a directory' }[code ?? ''] ?? code ?? 'unreadable';
      this.problems.push(`--${option} ${path}: cannot read it (${why})`);
      return undefined;
    }
  }
}
