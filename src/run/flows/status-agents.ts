/**
 * `status` of several agents (a manifest) in one run: each agent's
 * deployment looked up as if it were alone (status-run.ts), a few at once,
 * their waits sharing one status request a check; one agent's failure (no
 * deployment of its name, a wait that timed out) stops none of the others,
 * and the run fails once every agent has finished, naming each that failed.
 * Its outputs and its summary are those of a deploy of the same agents.
 */
import type { AgentLookup, StatusAgentsRequest } from '../../inputs/status-inputs.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { RunEvents } from '../ports/events.js';
import { AgentsTable, keyedSummary } from './agents-run.js';
import { eachAgent } from './each-agent.js';
import { status } from './status-run.js';

/** Looks every agent's deployment up; never throws: how it ended is in the outcome. */
export async function statusAgents(asked: StatusAgentsRequest, io: RunnerIO): Promise<RunOutcome> {
  const events = new RunEvents(io.views, io.redact);
  const { outcomes, ...ending } = await eachAgent<AgentLookup, RunOutcome>(
    asked.agents,
    { io, events },
    (agent, agentIo, share) => status(agent.spec, agentIo, share),
    new AgentsTable(asked.agents, (outputs, entries) =>
      events.emit({ kind: 'outputs', outputs, entries }),
    ),
  );
  return {
    ...ending,
    // An agent whose deployment was not found shows its name and why (no source: status
    // does not know it then).
    summary: keyedSummary(asked, outcomes, ({ spec }) => ({
      name: spec.name,
      source: 'codehost',
      dryRun: false,
      dashboardUrl: spec.dashboardUrl,
    })),
  };
}
