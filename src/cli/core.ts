/**
 * The core as the command uses it: the same pipeline, plan reader, Redactor
 * and summary as the action. The only file of src/cli/ that knows the core's
 * module layout.
 */
import { InputError } from '../errors.js';
import { pipeline, type RunnerIO } from '../flow.js';
import { readPlan, type InputReader } from '../inputs.js';
import type { RunEnvironment } from '../plan.js';
import { summaryHtml, type Outputs } from '../report.js';
import type { InputName } from '../declared-inputs.js';
import type { Clock, Logger } from '../runtime.js';
import type { CiRun } from './ci.js';

export { Redactor } from '../redact.js';
export { InputError } from '../errors.js';
export { systemClock, type Clock, type Logger } from '../runtime.js';
export type { Outputs } from '../report.js';

/** The run as the core takes it. */
export function runEnvironment(run: CiRun, workspace: string): RunEnvironment {
  const head = run.head;
  return {
    workspace,
    repository: run.slug,
    // Until the core takes a neutral description: a push to the branch the run is for.
    event:
      head.kind === 'branch'
        ? { name: 'push', ref: `refs/heads/${head.branch}`, sha: head.sha, payload: {} }
        : { name: 'push', ref: '', sha: '', payload: {} },
  };
}

/** Reads and checks every input without a request; throws the core's `InputError`. */
export function checkInputs(
  read: (name: InputName) => string | undefined,
  environment: RunEnvironment,
): void {
  readPlan(withDefaults(read), environment);
}

/** The defaults action.yml declares, until the declared inputs carry them. */
const DEFAULTS: Partial<Record<InputName, string>> = {
  'api-key-header': 'X-Api-Key',
  source: 'codehost',
  'wait-for-ready': 'false',
  'wait-timeout': '900',
  commit: 'auto',
  'on-drift': 'warn',
  'dry-run': 'false',
};

function withDefaults(read: (name: InputName) => string | undefined): InputReader {
  return (name) => read(name) ?? DEFAULTS[name] ?? '';
}

export interface CoreIO {
  read: (name: InputName) => string | undefined;
  environment: RunEnvironment;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  clock: Clock;
  signal: AbortSignal;
  group: RunnerIO['group'];
  mask: (value: string) => void;
  redact: (text: string) => string;
  setOutputs: (outputs: Outputs) => void;
}

export interface DeployOutcome {
  failure?: string;
  stack?: string;
  /** The summary as the action writes it to the job summary (HTML in Markdown). */
  summary?: string;
  /** Whether the inputs were read (a plan exists): else the failure is an input error. */
  planned: boolean;
}

export async function runDeploy(io: CoreIO, commit: string | undefined): Promise<DeployOutcome> {
  const record = await pipeline({ ...io, read: withDefaults(io.read) });
  return {
    failure: record.failure,
    stack: record.stack,
    planned: record.plan !== undefined,
    summary:
      record.plan === undefined
        ? undefined
        : summaryHtml({
            plan: record.plan,
            result: record.result,
            deployment: record.deployment,
            liveness: record.liveness,
            target: record.goal?.target?.sha,
            drift: record.goal?.drift,
            failure: record.failure,
            commit,
            redact: io.redact,
          }),
  };
}

export function isInputError(error: unknown): error is InputError {
  return error instanceof InputError;
}
