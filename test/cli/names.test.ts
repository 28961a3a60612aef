/**
 * An output's dotenv variable is never an input's variable.
 * GitLab lets a dotenv report's variables override the variables of later
 * jobs, so an output named like an input (`DEPLOY_DASHBOARD_URL`,
 * `DEPLOY_REPO_REF`) would silently become the next job's input. The two
 * sets are derived here, not listed: every variable `--dotenv` can write
 * (from every output the deploy, status and plan can set), and every
 * `DEPLOY_` variable the command reads (the options' variables, and each
 * `env.DEPLOY_*` the code reads directly, such as `DEPLOY_DEBUG`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { optionTable, variableOf } from '../../src/cli/option-table.ts';
import { dotenvName, outputsDotenv } from '../../src/cli/outputs.ts';
import { OUTPUT_NAMES } from '../../src/run/decisions/report.ts';
import { PLAN_OUTPUT_NAMES } from '../../src/run/decisions/plan-outputs.ts';
import { ROOT, actionYml } from '../support/action.ts';
import { readGitLabDotenv } from '../support/gitlab-dotenv.ts';

/** Every output name of the deploy and status (the core's), and of the plan; action.yml's too. */
const OUTPUT_SETS: readonly (readonly string[])[] = [
  [...new Set([...OUTPUT_NAMES, ...Object.keys(actionYml().outputs)])],
  [...new Set([...PLAN_OUTPUT_NAMES, ...Object.keys(actionYml('plan/action.yml').outputs)])],
];

/** Every variable `--dotenv` can write: each output's name, and the keys of a report that sets every output. */
function writtenVariables(): Set<string> {
  const written = new Set<string>();
  for (const names of OUTPUT_SETS) {
    for (const name of names) written.add(dotenvName(name));
    const { text } = outputsDotenv(Object.fromEntries(names.map((name) => [name, 'v'])));
    for (const key of Object.keys(readGitLabDotenv(text))) written.add(key);
  }
  return written;
}

/** `env.DEPLOY_X` and `env['DEPLOY_X']` in the code the command runs (src/, its core included). */
function variablesReadInCode(): Set<string> {
  const src = path.join(ROOT, 'src');
  const read = new Set<string>();
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.ts'),
  );
  for (const file of files) {
    const code = readFileSync(path.join(src, file), 'utf8');
    for (const match of code.matchAll(/\benv(?:\.|\[\s*['"`])(DEPLOY_[A-Z0-9_]+)/g)) {
      if (match[1] !== undefined) read.add(match[1]);
    }
  }
  return read;
}

/** Every `DEPLOY_` variable the command reads: its options' and the code's own. */
function readVariables(): Set<string> {
  const read = variablesReadInCode();
  for (const spec of optionTable()) if (spec.variable !== undefined) read.add(spec.variable);
  return read;
}

function collisions(written: Iterable<string>, read: ReadonlySet<string>): string[] {
  return [...written].filter((variable) => read.has(variable)).sort();
}

describe('dotenv outputs and DEPLOY_ inputs', () => {
  const written = writtenVariables();
  const read = readVariables();

  it('derives both sets from the declarations, not from a list', () => {
    for (const variable of ['DEPLOYMENT_ID', 'DEPLOYMENT_DASHBOARD_URL', 'DEPLOYMENT_REPO_REF']) {
      expect(written).toContain(variable);
    }
    expect(written).toContain('DEPLOYMENT_PLAN_ACTION');
    expect(written).toContain('DEPLOYMENT_CHANGES');
    for (const variable of ['DEPLOY_DASHBOARD_URL', 'DEPLOY_REPO_REF', 'DEPLOY_API_KEY']) {
      expect(read).toContain(variable);
    }
    expect(read).toContain('DEPLOY_DEBUG');
    expect(read).toContain('DEPLOY_AGENT_POLL_INTERVAL_MS');
  });

  it('never name an output like a variable the command reads', () => {
    expect(collisions(written, read)).toEqual([]);
  });

  it('keep the outputs out of the DEPLOY_ namespace, where any later input would land', () => {
    expect([...written].filter((variable) => variable.startsWith('DEPLOY_'))).toEqual([]);
    for (const variable of written) expect(variable).toMatch(/^DEPLOYMENT_[A-Z0-9_]+$/);
  });

  it('would catch outputs named DEPLOY_ + their name, as they were before', () => {
    const old = OUTPUT_SETS.flat().map((name) => variableOf(name));
    expect(collisions(old, read)).toEqual(
      expect.arrayContaining(['DEPLOY_DASHBOARD_URL', 'DEPLOY_REPO_REF']),
    );
  });
});
