/**
 * The workflow commands a step writes before it loads @actions/core, written
 * as it writes them: a run that fails on its inputs never loads it, whose
 * imports are much of start-up (bench/README.md).
 */
import { EOL } from 'node:os';

/** `::command::message`, the message escaped as @actions/core escapes it. */
function issue(command: string, message: string): void {
  const data = message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  process.stdout.write(`::${command}::${data}${EOL}`);
}

/** The variable the runner gives an input in, as `core.getInput` reads it. */
export const inputVariable = (name: string) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;

/** @actions/core's functions of these names, before it is loaded. */
export const early = {
  getInput: (name: string): string => (process.env[inputVariable(name)] ?? '').trim(),
  setSecret: (secret: string): void => issue('add-mask', secret),
  isDebug: (): boolean => process.env.RUNNER_DEBUG === '1',
  debug: (message: string): void => issue('debug', message),
  setFailed: (message: string): void => {
    process.exitCode = 1;
    issue('error', message);
  },
};
