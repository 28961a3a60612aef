/** The world the command is handed, not reads, and its exit statuses. */
import type { LogStream } from './log.js';
import type { Environment } from './option-values.js';

/** Exit statuses (docs/command.md, "Options of `deploy-agent`"). */
export const EXIT = { done: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** stdout or stderr: a `LogStream` that says when its reader has gone. */
interface OutputStream extends LogStream {
  /** True once the reader closed its end (EPIPE): later writes are dropped. */
  readonly closed?: boolean;
}

export interface CliWorld {
  args: readonly string[];
  env: Environment;
  cwd: string;
  stdout: OutputStream;
  stderr: OutputStream;
  readFile: (path: string, cap: number) => string;
  writeFile: (path: string, text: string) => void;
  /** The package's version; read only when --help or --version shows it. */
  version: () => string;
  /** Holds action.yml: the help's descriptions. */
  packageDir: string;
  /** SIGINT and SIGTERM, until the returned function is called. */
  onSignal: (handler: (signal: string) => void) => () => void;
  exit: (code: number) => void;
}

const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

/**
 * `stream`, quiet once its reader has gone (`deploy-agent list --all | head -1`):
 * an unhandled `EPIPE` would end the process with a stack trace. Later writes
 * are dropped, and `closed` stops work done only for that reader (a listing's
 * next page); --dotenv, --summary and the exit status go on as the work says.
 */
export function quietWhenReaderGoes(stream: NodeJS.WriteStream): OutputStream {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== undefined && GONE.has(error.code)) {
      closed = true;
      return;
    }
    // Not a reader gone (a full disk): as unexpected as without this listener.
    throw error;
  });
  return {
    write: (text: string) => (closed ? false : stream.write(text)),
    get isTTY() {
      return stream.isTTY;
    },
    // A terminal's width may change while the command runs.
    get columns() {
      return stream.columns;
    },
    get closed() {
      return closed;
    },
  };
}
