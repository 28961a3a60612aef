/**
 * A reader that goes away is not a failure: when the
 * reader of stdout or stderr closes its end (`deploy-agent list --all |
 * head -1`, a `jq` stopped), Node reports `EPIPE` as an `'error'` event on
 * the stream, which unhandled ends the process with a stack trace. Here the
 * stream's `EPIPE` marks it closed instead; later writes are dropped, and
 * the command reads `closed` to stop work done only for that reader (a
 * listing's next page), while the rest (--dotenv, --summary, the exit
 * status) goes on as the finished work says.
 */
import type { OutputStream } from './world.js';

/** The errors that say the reader has gone. */
const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

/** `stream` as the command writes it: quiet once its reader has gone. */
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
