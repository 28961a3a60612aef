/**
 * The plan, of every agent: each verdict, its outputs, and whether the step fails (on `fail`,
 * or a difference with `on-change: fail`), after the outputs are written. A plan that cannot
 * be made is no verdict: the step fails, and the adapter is told so that its comment stops
 * speaking for an earlier commit.
 */
import { CancelledError } from '../../common/errors.js';
import { failedWith } from './run-record.js';
import { untrusted, type Logger } from '../../common/runtime.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import type { OnChange } from '../../inputs/parsers.js';
import type { PlanRequest } from '../../inputs/plan-inputs.js';
import type { RemedyWords } from '../../service/answers.js';
import { showValue } from '../decisions/drift.js';
import type { RunDependencies } from '../ports/dependencies.js';
import { withEvents, type RunEvents } from '../ports/events.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { dependenciesOf, maskAndWarn } from './setup.js';
import type { Verdict } from '../ports/findings.js';
import type { AgentPlanPart } from '../ports/summaries.js';
import { differences, driftAdvice } from '../decisions/green.js';
import { keyedPlanOutputs, planOutputs, verdictOf } from '../decisions/plan-outputs.js';
import { runAgents } from './each-agent.js';
import { inSlot } from '../decisions/shared-work.js';

/** One log line a difference, and one for the verdict. */
function logVerdict(
  name: string,
  verdict: Verdict,
  logger: Logger,
  words: Pick<RemedyWords, 'asker'>,
): void {
  if (verdict.action === 'create') {
    logger.info(`plan: '${name}' does not exist: the deploy would create it`);
    return;
  }
  if (verdict.action === 'fail') {
    logger.info(`plan: the deploy would fail before creating anything`);
    return;
  }
  for (const { field, wanted, live } of verdict.changes) {
    logger.info(
      `plan: ${untrusted(field)}: ${words.asker} wants ${showValue(wanted)}, the deployment has ${showValue(live)}; not applied`,
    );
  }
  const branch = verdict.tracks?.branch;
  const builds = verdict.tracks?.buildsOnPush === true;
  logger.info(
    `plan: the deploy would reuse ${verdict.deployment?.id ?? ''} with ${differences(verdict.changes.length)} it would not apply` +
      (branch === undefined
        ? ''
        : `; it tracks ${untrusted(branch)}, and a push there ${builds ? 'builds a new revision' : 'builds nothing (build_on_push is off)'}`),
  );
  if (verdict.wouldFail !== undefined) logger.warning(`plan: ${verdict.wouldFail}`);
}

/** Never throws: how it ended is in the outcome. */
export async function runPlan(asked: PlanRequest, io: RunnerIO): Promise<RunOutcome> {
  let plans: AgentPlanPart[] = [];
  return runAgents(
    asked,
    io,
    (agent, agentIo, share) =>
      inSlot(share, () =>
        withEvents(agentIo, (events) =>
          planned(agent.spec, asked.onChange, agentIo, events, share?.dependencies ?? {}),
        ),
      ),
    (events) => ({
      allEnded: (outcomes) => {
        plans = asked.agents.map((agent, index) => {
          const { summary, failure } = outcomes[index] ?? {};
          const [own] = summary?.kind === 'plan' ? summary.agents : [];
          const { key, spec } = agent;
          return { ...own, key, name: spec.name, failure };
        });
        events.emit({ kind: 'outputs', outputs: keyedPlanOutputs(plans), plans });
      },
      summary: () => ({ kind: 'plan', layout: 'keyed', source: asked.source, agents: plans }),
    }),
  );
}

async function planned(
  spec: DeploySpec,
  onChange: OnChange,
  io: RunnerIO,
  events: RunEvents,
  shared: Partial<RunDependencies>,
): Promise<RunOutcome> {
  const { logger } = events;
  try {
    maskAndWarn(spec, io, logger);
    const dependencies = { ...dependenciesOf(spec, io, events), ...shared };
    // Not a group of its own: the deploy's dry run opens its groups, and GitHub does not nest them.
    const phase = { phase: 'plan', grouped: false } as const;
    events.emit({ kind: 'phase', ...phase, message: `Planning the deploy of '${spec.name}'` });
    const verdict = await verdictOf(spec, dependencies);
    events.emit({ kind: 'phase_over', ...phase });
    events.emit({ kind: 'outputs', outputs: planOutputs(verdict, spec.dashboardUrl) });
    logVerdict(spec.name, verdict, logger, dependencies.service.words);
    const report = { name: spec.name, verdict, dashboardUrl: spec.dashboardUrl };
    events.emit({ kind: 'planned', report });
    const failure =
      verdict.action === 'fail'
        ? io.redact(verdict.reason ?? 'the deploy would fail')
        : onChange === 'fail' && verdict.changes.length > 0
          ? `The deploy of '${spec.name}' would not apply ${differences(verdict.changes.length)} (${dependencies.service.words.onChangeFail}): ${verdict.changes.map((change) => untrusted(change.field)).join(', ')}. ${driftAdvice(verdict.changes.length)}`
          : undefined;
    const part = { key: spec.name, name: spec.name, summary: report };
    return { failure, summary: { kind: 'plan', layout: 'flat', agents: [part] } };
  } catch (error) {
    const failed = failedWith(error, io.redact);
    // No verdict, and no output: none is known (the dry run fails before it finds a deployment),
    // and `action` or `changes` would speak for a plan that was not made. The comment stops
    // speaking for an earlier commit; a cancelled run was stopped, not refused, and is left alone.
    if (!(error instanceof CancelledError) && !io.signal.aborted) {
      const { head } = io.run;
      events.emit({
        kind: 'planned',
        report: {
          name: spec.name,
          failure: failed.failure,
          ...(head?.kind === 'branch' ? { head: head.sha } : {}),
        },
      });
    }
    return failed;
  }
}
