// Runs one regular expression over one input in a worker thread, so that the
// test can stop a run that does not finish (a catastrophic pattern blocks the
// thread it runs on; only terminating the worker ends it).
import { parentPort } from 'node:worker_threads';

parentPort.on('message', ({ source, flags, input }) => {
  const pattern = new RegExp(source, flags);
  if (pattern.global) input.replace(pattern, '');
  else pattern.exec(input);
  parentPort.postMessage('done');
});
