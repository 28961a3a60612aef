/**
 * What the example tests of the inputs share: a plan read from a name→value
 * map of inputs (action.yml's defaults applied), and assertions on the
 * `InputError` that bad inputs raise.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { InputError } from '../../src/inputs/errors.ts';
import { buildDeploySpec } from '../../src/inputs/build-deploy-spec.ts';
import { INPUTS, type InputName } from '../../src/inputs/core-inputs.ts';
import { readInputs, type InputReader } from '../../src/inputs/declare.ts';
import type { DeploySpec } from '../../src/inputs/deploy-spec.ts';
import type { RunDescription } from '../../src/inputs/run-description.ts';
import { reader } from './action.ts';

/** Throws an `InputError`: every input wrong on its own, else every one that does not fit the others. */
export function readDeploySpec(read: InputReader<InputName>, run: RunDescription): DeploySpec {
  return buildDeploySpec(readInputs(INPUTS, read, run), run);
}

export const INTEGRATION_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
export const OTHER_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
export const SECRET = 'hunter2-s3cr3t';
export const API_KEY = 'k3y-hunter2-s3cr3t';

/** The least a codehost step needs; each test adds or overrides inputs. */
export const BASE: Record<string, string> = {
  'api-url': 'https://api.example.com',
  name: 'my-agent',
  'integration-id': INTEGRATION_ID,
};

/** A temporary workspace, removed after the test file; `write` puts a file in it. */
export function temporaryWorkspace(prefix: string) {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return {
    root,
    write: (name: string, text: string): string => {
      const file = path.join(root, name);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      return name;
    },
  };
}

/** Plans and rejections read for `run` (a workspace, perhaps a head). */
export function planReader(run: RunDescription) {
  function plan(given: Record<string, string>, extra: Partial<RunDescription> = {}): DeploySpec {
    return readDeploySpec(reader({ ...BASE, ...given }), { ...run, ...extra });
  }

  /** The InputError that the given inputs raise (fails the test if none is thrown). */
  function inputError(given: Record<string, string>): InputError {
    try {
      plan(given);
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      return error as InputError;
    }
    throw new Error(`expected an InputError for ${JSON.stringify(given)}`);
  }

  /** `input 'name': problem` lines, as the message shows them. */
  function problems(given: Record<string, string>): string[] {
    return inputError(given).problems.map(({ input, problem }) => `input '${input}': ${problem}`);
  }

  /** Asserts exactly one problem, on `input`, and returns the whole message. */
  function rejects(given: Record<string, string>, input: string, pattern?: RegExp): string {
    expect(() => plan(given)).toThrow(InputError);
    const error = inputError(given);
    expect(error.problems.map((problem) => problem.input)).toEqual([input]);
    expect(error.message).toContain(`input '${input}'`);
    if (pattern !== undefined) expect(error.message).toMatch(pattern);
    return error.message;
  }

  return { plan, inputError, problems, rejects };
}

export function narrow<S extends DeploySpec['source']>(
  value: DeploySpec,
  source: S,
): Extract<DeploySpec, { source: S }> {
  expect(value.source).toBe(source);
  return value as Extract<DeploySpec, { source: S }>;
}
