/**
 * End-to-end, every job summary within GitHub's 1 MiB limit (in UTF-8 bytes): the deploy's
 * (dist/index.js) and the plan's (dist/plan.js) against the service emulator, with a deployment
 * whose 1,500 secrets have long names that grow when escaped (hostile service data). The summary
 * the runner reads from GITHUB_STEP_SUMMARY is cut with a count of what was left out, and still
 * parses as GitHub parses it (cmark-gfm).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import { whatAReaderSees } from '../support/github-render.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { runAction, type ActionRun, type RunOptions } from '../support/run-action.ts';

/** GitHub refuses a step summary over this many bytes. */
const GITHUB_SUMMARY_LIMIT = 1_048_576;
const SECRETS = 1_500;
const SECRET = 'sk-summary-secret-value-0123456789';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator();
  seedAgentRepository(emu);
});

afterEach(async () => {
  await emu.close();
});

/** my-agent, with 1,500 secrets the step does not give: each a drift row of a long, escaped name. */
function hostileDeployment() {
  return emu.seedDeployment({
    name: 'my-agent',
    source: 'codehost',
    source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
    source_revision_config: { repo_ref: 'main', agent_config_path: 'agent.json' },
    secrets: Array.from({ length: SECRETS }, (_, i) => ({
      name: `${'&<"'.repeat(400)}_${i}`,
      value: 'x',
    })),
  } as never);
}

function step(): Record<string, string> {
  return {
    'api-url': emu.url,
    name: 'my-agent',
    'integration-id': INTEGRATION,
    'agent-config-path': 'agent.json',
    secrets: `OPENAI_API_KEY=${SECRET}`,
  };
}

/** The summary's size, its note of what was left out, and that cmark-gfm still reads its table. */
function expectBounded(run: ActionRun, rowsShown: (rows: number) => void): void {
  expect(Buffer.byteLength(run.summary, 'utf8')).toBeLessThan(GITHUB_SUMMARY_LIMIT);
  const note = /… and (\d+) more, left out to keep this summary under GitHub's limit/.exec(
    run.summary,
  );
  expect(note).not.toBeNull();
  const rows = (run.summary.match(/<tr><td>/g) ?? []).length;
  // Every difference is either a row or counted as left out.
  expect(rows + Number(note?.[1])).toBe(SECRETS + 1);
  rowsShown(rows);
  const seen = whatAReaderSees(run.summary);
  expect(seen.text).toContain('left out to keep this summary under GitHub');
  expect(seen.tables.at(-1)?.length).toBe(rows + 1);
}

describe('a job summary with 1,500 hostile secret names', () => {
  it("the deploy's drift table is cut under GitHub's limit, counting what was left out", async () => {
    hostileDeployment();

    const run = await runAction(step());

    expect(run.exitCode).toBe(0);
    expect(run.outputs.created).toBe('false');
    expect(JSON.parse(run.outputs.drift ?? '[]')).toHaveLength(SECRETS + 1);
    expectNoSecret([SECRET], run);
    expectBounded(run, (rows) => expect(rows).toBeGreaterThan(100));
  });

  it("the plan's table of differences is cut under GitHub's limit, counting what was left out", async () => {
    hostileDeployment();

    const run = await runAction(step(), { action: 'plan/action.yml' } satisfies RunOptions);

    expect(run.exitCode).toBe(0);
    expect(run.outputs.action).toBe('reuse');
    expect(run.outputs.changes).toBe(String(SECRETS + 1));
    expectBounded(run, (rows) => expect(rows).toBeGreaterThan(100));
  });
});
