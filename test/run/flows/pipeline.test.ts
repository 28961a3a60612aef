/**
 * The pipeline in-process, over real HTTP against the emulator with a fake
 * clock: what it tells its adapter (the progress hooks), what it asks it
 * (which commit is newer), and the outputs it sets when a create fails
 * loudly or links are asked for (`url`, `dashboard-url`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Outputs } from '../../../src/run/decisions/report.ts';
import { readDeploySpec } from '../../support/plan-inputs.ts';
import type { RunDescription } from '../../../src/inputs/run-description.ts';
import { pipeline } from '../../../src/run/flows/pipeline.ts';
import type { RunEvent } from '../../../src/run/ports/events.ts';
import type { CommitOrder, RunReport } from '../../../src/run/ports/progress.ts';
import { startEmulator, type Emulator } from '../../emulator/emulator.ts';
import { reader, WORKFLOW_REPOSITORY } from '../../support/action.ts';
import { FakeClock, type MemoryLogger } from '../../support/clock.ts';
import {
  AGENT_REPO_URL,
  INTEGRATION,
  TENANT_ID,
  seedAgentRepository,
} from '../../support/fixtures.ts';
import { recordingRunner } from '../../support/recording-runner.ts';

const REPO = AGENT_REPO_URL;
const OLD = '1111111111111111111111111111111111111111';
const NEW = '2222222222222222222222222222222222222222';
const NEWER = '3333333333333333333333333333333333333333';
/** A create that builds each push to its branch, as previews do. */
const BUILDS_PUSHES = { config: 'source_config:\n  build_on_push: true' };

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ tenantId: TENANT_ID });
  seedAgentRepository(emu);
});

afterEach(async () => {
  await emu.close();
});

/** The deployment as an earlier run left it: live on `commit`, tracking main. */
function existing(commit: string, extra: { custom_url?: string; deployment_type?: string } = {}) {
  return emu.seedDeployment({
    name: 'my-agent',
    source_config: { integration_id: INTEGRATION, repo_url: REPO, build_on_push: true, ...extra },
    source_revision_config: {
      repo_ref: 'main',
      agent_config_path: 'a.json',
      repo_commit_sha: commit,
    },
  });
}

interface Run {
  outputs: Outputs;
  failure?: string;
  logger: MemoryLogger;
  reports: RunReport[];
  /** Every event the run told its views, in order. */
  events: RunEvent[];
  asked: string[][];
}

/**
 * Runs the pipeline for a push of `head` to main. `order` answers the
 * commit-order question (absent: not asked, as without a token).
 */
async function run(
  given: Record<string, string>,
  options: {
    head?: string;
    order?: (latest: string) => CommitOrder;
    clock?: FakeClock;
    signal?: AbortSignal;
  } = {},
): Promise<Run> {
  const asked: string[][] = [];
  const head = options.head ?? NEW;
  const order = options.order;
  const description: RunDescription = {
    workspace: process.cwd(),
    repository: WORKFLOW_REPOSITORY,
    head: {
      kind: 'branch',
      branch: 'main',
      sha: head,
      repository: WORKFLOW_REPOSITORY,
      pullRequest: false,
    },
    commit: head,
  };
  const spec = readDeploySpec(
    reader({
      'api-url': emu.url,
      name: 'my-agent',
      'integration-id': INTEGRATION,
      'agent-config-path': 'a.json',
      'wait-for-ready': 'true',
      'wait-timeout': '60',
      ...given,
    }),
    description,
  );
  const runner = recordingRunner(description, {
    clock: options.clock,
    signal: options.signal,
    commitOrder:
      order === undefined
        ? undefined
        : (repository, target, latest) => {
            asked.push([repository, target, latest]);
            return Promise.resolve(order(latest));
          },
  });
  const outcome = await pipeline(spec, runner.io);
  const { outputs, events, logger } = runner;
  const reports = events.flatMap((event) =>
    event.kind === 'deployed' || event.kind === 'finished' ? [event.report] : [],
  );
  return { outputs, failure: outcome.failure, logger, reports, events, asked };
}

describe('commit order', () => {
  it('a re-run of an old commit whose newer descendant is live goes green at once, naming it', async () => {
    existing(NEWER);
    const result = await run(
      {},
      { head: NEW, order: (latest) => (latest === NEWER ? 'newer' : undefined) },
    );

    expect(result.failure).toBeUndefined();
    expect(result.asked).toEqual([['acme/agent', NEW, NEWER]]);
    expect(result.outputs).toMatchObject({ live: 'true', 'commit-sha': NEWER });
    expect(result.logger.lines).toContain(
      `info: commit ${NEW.slice(0, 12)} was superseded by a newer commit: commit ${NEWER.slice(0, 12)} is live instead`,
    );
    expect(emu.requests.filter((request) => request.query.deployment_ids !== undefined)).toEqual(
      [],
    );
  });

  it('without an answer, the same re-run waits for its own commit until the timeout', async () => {
    existing(NEWER);
    const result = await run({ 'wait-timeout': '30' }, { head: NEW, order: () => undefined });

    expect(result.failure).toContain('is not live after 30.0 s');
    expect(result.outputs.live).toBe('false');
    expect(
      result.logger.lines.some((line) =>
        line.startsWith('debug: commit order of commit 333333333333'),
      ),
    ).toBe(true);
  });

  it('a revision for an older commit does not supersede the target: the step waits for it', async () => {
    emu.setHead(REPO, 'main', NEW);
    const clock = new FakeClock();
    let sleeps = 0;
    clock.onSleep = () => {
      sleeps++;
      // The service builds an older commit first (a lagging listing), then the target.
      if (sleeps === 1) emu.push(REPO, 'main', OLD);
      if (sleeps === 4) emu.push(REPO, 'main', NEW);
    };
    emu.setOptions({ initialStatus: 'AWAITING_DATABASE', readyAfterPolls: 0 });
    const result = await run(BUILDS_PUSHES, {
      head: NEW,
      clock,
      order: (latest) => (latest === OLD ? 'older' : undefined),
    });

    expect(result.failure).toBeUndefined();
    expect(result.asked).toEqual([['acme/agent', NEW, OLD]]);
    expect(result.outputs).toMatchObject({ live: 'true', 'commit-sha': NEW });
    expect(result.logger.lines.join('\n')).toContain(
      `commit ${OLD.slice(0, 12)}, older than the target`,
    );
    expect(result.logger.lines.join('\n')).not.toContain('superseded');
  });

  it('without the question, that older revision is taken for a newer push', async () => {
    emu.setHead(REPO, 'main', NEW);
    const clock = new FakeClock();
    clock.onSleep = () => {
      if (emu.revisions(emu.deployments[0]?.id ?? '').length === 1) emu.push(REPO, 'main', OLD);
    };
    emu.setOptions({ readyAfterPolls: 0 });
    const result = await run(BUILDS_PUSHES, { head: NEW, clock });

    expect(result.outputs).toMatchObject({ live: 'true', 'commit-sha': OLD });
  });
});

describe('progress hooks', () => {
  it('tells the adapter once when found and once how it ended, with links and the live commit', async () => {
    existing(NEW, { custom_url: 'https://my-agent.example' });
    const result = await run({
      'dashboard-url': 'https://console.example/{tenant_id}/d/{id}?n={name}',
    });

    const [deployed, finished] = result.reports;
    expect(result.reports).toHaveLength(2);
    expect(deployed).toMatchObject({
      name: 'my-agent',
      stage: 'deploying',
      created: false,
      waitingFor: `commit ${NEW.slice(0, 12)} to be live`,
    });
    const id = result.outputs['deployment-id'] ?? '';
    const dashboard = `https://console.example/${TENANT_ID}/d/${id}?n=my-agent`;
    expect(finished).toMatchObject({
      stage: 'live',
      id,
      status: 'READY',
      targetCommit: NEW,
      liveCommit: NEW,
      url: 'https://my-agent.example',
      dashboardUrl: dashboard,
      drift: [],
    });
    expect(result.outputs).toMatchObject({
      url: 'https://my-agent.example',
      'dashboard-url': dashboard,
    });
  });

  it('reports a failed run with its reason, and a run without waiting as not live yet', async () => {
    existing(OLD);
    const failed = await run({ 'wait-timeout': '5' }, { head: NEW });
    expect(failed.reports.at(-1)).toMatchObject({
      stage: 'failed',
      failure: expect.stringContaining('is not live after 5.0 s') as unknown,
    });

    const notWaited = await run({ 'wait-for-ready': 'false' }, { head: NEW });
    expect(notWaited.reports.map((report) => report.stage)).toEqual(['deploying', 'not-live']);
    expect(notWaited.reports[1]?.waitingFor).toContain(`not the target ${NEW.slice(0, 12)}`);
  });

  it('reports a cancelled run as cancelled', async () => {
    existing(OLD);
    const controller = new AbortController();
    const clock = new FakeClock();
    clock.onSleep = () => controller.abort();
    const result = await run({}, { head: NEW, clock, signal: controller.signal });
    expect(result.reports.map((report) => report.stage)).toEqual(['deploying', 'cancelled']);
  });

  it('tells nothing on a dry run', async () => {
    expect((await run({ 'dry-run': 'true' })).reports).toEqual([]);
  });
});

/** The kinds of `events` in order, a phase as `phase:NAME` and `phase_over:NAME`, repeats of a kind once. */
function shape(events: readonly RunEvent[]): string[] {
  const kinds = events
    .filter((event) => event.kind !== 'log')
    .map((event) =>
      event.kind === 'phase' || event.kind === 'phase_over'
        ? `${event.kind}:${event.phase}`
        : event.kind,
    );
  return kinds.filter((kind, index) => kind !== kinds[index - 1]);
}

describe('one channel of events', () => {
  it('tells every view the whole run in order: phases, found or created, the wait, outputs, the end', async () => {
    emu.setOptions({ readyAfterPolls: 2 });
    emu.setHead(REPO, 'main', NEW);
    const result = await run(BUILDS_PUSHES);

    expect(result.failure).toBeUndefined();
    expect(shape(result.events)).toEqual([
      'phase:resolve',
      'phase_over:resolve',
      'phase:find',
      'phase_over:find',
      'phase:create',
      // The create's answer names the deployment at once (a cancel after it still says what exists).
      'outputs',
      'phase_over:create',
      'outputs',
      'deployed',
      'phase:wait',
      'waiting',
      'status_change',
      'outputs',
      'status_change',
      'wait_over',
      'phase_over:wait',
      'outputs',
      'finished',
    ]);
    const last = result.events.at(-1);
    expect(last?.kind === 'finished' && last.report).toMatchObject({
      stage: 'live',
      created: true,
    });
    // The log's lines are the channel's `log` events, every one of them.
    const logged = result.events.filter((event) => event.kind === 'log');
    expect(logged.length).toBeGreaterThan(0);
    expect(
      result.logger.lines.filter((line) => !line.startsWith('info: waiting until live')),
    ).toEqual(logged.map((event) => `${event.level}: ${event.message}`));
  });

  it('closes a phase that fails, and tells no end of a run that found nothing', async () => {
    emu.inject({ status: 401, times: Infinity });
    const result = await run({});

    expect(result.failure).toContain('401');
    expect(shape(result.events)).toEqual(['phase:resolve', 'phase_over:resolve']);
    expect(result.reports).toEqual([]);
  });

  it("tells a second push's run as found, not created, and its end as live at the pushed commit", async () => {
    existing(OLD);
    emu.push(REPO, 'main', NEW);
    const result = await run({}, { head: NEW });
    expect(shape(result.events)).not.toContain('phase:create');
    expect(result.reports.map((report) => report.stage)).toEqual(['deploying', 'live']);
    expect(result.outputs).toMatchObject({ live: 'true', 'commit-sha': NEW });
  });
});

describe('a deployment type the action does not know', () => {
  const SERVERLESS = {
    config: 'source_config:\n  build_on_push: true\n  deployment_type: serverless\n',
  };
  const WARNING =
    "warning: config: source_config.deployment_type 'serverless' is not one this release knows (dev_free, dev, prod): it is passed on as it is, and the service decides";

  it('is sent as it is, with one warning before the first request', async () => {
    emu.setOptions({ readyAfterPolls: 1 });
    emu.setHead(REPO, 'main', NEW);
    const result = await run(SERVERLESS);

    expect(result.failure).toBeUndefined();
    const post = emu.requests.find((request) => request.method === 'POST');
    expect(post?.body).toMatchObject({ source_config: { deployment_type: 'serverless' } });
    expect(result.logger.lines.filter((line) => line.startsWith('warning:'))).toEqual([WARNING]);
    expect(result.events[0]).toMatchObject({ kind: 'log', level: 'warning' });
  });

  it('is no drift on a deployment of that type, which is reused', async () => {
    existing(NEW, { deployment_type: 'serverless' });
    const result = await run(SERVERLESS);

    expect(result.failure).toBeUndefined();
    expect(emu.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
    expect(result.outputs).toMatchObject({ created: 'false', drift: '[]' });
    expect(result.logger.lines.filter((line) => line.startsWith('warning:'))).toEqual([WARNING]);
  });
});

describe('a create the service stores under another name', () => {
  it('fails, and still sets the outputs of what it created', async () => {
    emu.setOptions({ normalizeNames: 'lowercase' });
    const result = await run({ name: 'My-Agent', 'wait-for-ready': 'false' });

    const created = emu.deployments[0];
    expect(result.failure).toContain(
      `The service stored deployment ${created?.id} as 'my-agent', not 'My-Agent'`,
    );
    expect(result.outputs).toMatchObject({
      'deployment-id': created?.id,
      created: 'true',
      status: created?.status,
      live: 'false',
    });
  });
});
