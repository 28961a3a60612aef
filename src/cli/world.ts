/**
 * The world the command runs in, passed in rather than read (arguments,
 * environment, streams, files, signals), and its exit statuses.
 */
import type { LogStream } from './log.js';
import type { Environment } from './sources.js';

/** Exit statuses (docs/command.md, "Options of `deploy-agent`"). */
export const EXIT = { done: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** stdout or stderr: a `LogStream` that says when its reader has gone (pipe-end.ts). */
export interface OutputStream extends LogStream {
  /** True once the reader closed its end (EPIPE): later writes are dropped. */
  readonly closed?: boolean;
}

export interface CliWorld {
  args: readonly string[];
  env: Environment;
  cwd: string;
  stdout: OutputStream;
  stderr: OutputStream;
  /** Reads a file, at most `cap` bytes (see `readBounded`). */
  readFile: (path: string, cap: number) => string;
  writeFile: (path: string, text: string) => void;
  /** The package's version; read only when --help or --version shows it. */
  version: () => string;
  /** The package's folder (dist/..), which holds action.yml: the help's descriptions. */
  packageDir: string;
  /** Calls `handler` on SIGINT and SIGTERM until the returned function is called. */
  onSignal: (handler: (signal: string) => void) => () => void;
  /** Ends the process at once (a second signal). */
  exit: (code: number) => void;
}
