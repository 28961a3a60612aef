/**
 * The step's log: each line of the run as it comes, a log group for each of
 * its grouped phases. While several agents run at once (their events carry
 * their key), GitHub's log groups do not nest, and agents' lines would
 * interleave inside one another's groups: each line of an agent is written with its key, and a phase of an agent
 * that ends soon (resolving, finding, creating) is held and written whole
 * as one group headed by its key when it ends. The wait, which may last
 * long, is not held: its lines are written as they come.
 */
import type { Logger } from '../common/runtime.js';
import { logView, waitingLine, type EventView, type RunEvent } from '../run/ports/events.js';

export interface GroupWriter {
  start(name: string): void;
  end(): void;
}

/** A line held until its group is written. */
type Held = { level: keyof Logger; message: string };

/** The view of the run's events as the step's log: one deployment's, flat, or agents', keyed. */
export function stepLog(logger: Logger, groups: GroupWriter): EventView {
  const flat = logView(logger);
  const open = new Map<string, { heading: string; lines: Held[] }>();
  const write = (agent: string, line: Held) => {
    const group = open.get(agent);
    if (group === undefined) logger[line.level](`[${agent}] ${line.message}`);
    else group.lines.push(line);
  };
  return (event: RunEvent) => {
    const { agent } = event;
    if (agent === undefined) {
      flat(event);
      if (event.kind === 'phase' && event.grouped) groups.start(event.message);
      else if (event.kind === 'phase_over' && event.grouped) groups.end();
      return;
    }
    switch (event.kind) {
      case 'log':
        return write(agent, { level: event.level, message: event.message });
      case 'waiting':
        return write(agent, { level: 'info', message: waitingLine(event) });
      case 'phase':
        if (event.grouped && event.phase !== 'wait') {
          open.set(agent, { heading: event.message, lines: [] });
        } else logger.info(`[${agent}] ${event.message}`);
        return;
      case 'phase_over': {
        const group = open.get(agent);
        if (group === undefined) return;
        open.delete(agent);
        groups.start(`[${agent}] ${group.heading}`);
        for (const line of group.lines) logger[line.level](line.message);
        groups.end();
        return;
      }
      default:
        return;
    }
  };
}
