/**
 * The step's log, a group for each grouped phase. GitHub's groups do not
 * nest, so while agents run at once each line carries its key, and a short
 * phase of an agent is held and written whole as one group when it ends;
 * the wait, which may last long, is not held.
 */
import type { Logger } from '../common/runtime.js';
import { logView, waitingLine, type EventView, type RunEvent } from '../run/ports/events.js';

interface GroupWriter {
  startGroup(name: string): void;
  endGroup(): void;
}

type Held = { level: keyof Logger; message: string };

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
      if (event.kind === 'phase' && event.grouped) groups.startGroup(event.message);
      else if (event.kind === 'phase_over' && event.grouped) groups.endGroup();
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
        groups.startGroup(`[${agent}] ${group.heading}`);
        for (const line of group.lines) logger[line.level](line.message);
        groups.endGroup();
        return;
      }
      default:
        return;
    }
  };
}
