/**
 * The log on stderr, for a person: the core's events (`view`) and the
 * command's own lines. While waiting, a line per change (at least every 30 s)
 * in CI, the live line on a terminal. An agent's line is its lone deploy's,
 * after its key (`[support] `). The command's own lines are redacted here.
 */
import { neutraliseCommands } from '../common/runtime.js';
import type { EventSink, LogLevel, RunEvent } from '../run/ports/events.js';
import { formatSeconds, LiveLine, ONE_DEPLOYMENT, type LogStream } from './live-line.js';
import { wrapAtSpaces } from './screen-width.js';

export type { LogStream } from './live-line.js';

type WaitingEvent = Extract<RunEvent, { kind: 'waiting' }>;

interface LogOptions {
  /** A terminal: the live status line, and colour unless `colour` is false. */
  terminal: boolean;
  colour: boolean;
  debug: boolean;
  redact: (text: string) => string;
  /** Milliseconds on a monotonic clock, for the live line's elapsed time. */
  now?: () => number;
}

const STYLES = { bold: '1', dim: '2', red: '31', yellow: '33', cyan: '36' } as const;
type Style = keyof typeof STYLES;

/** `DEPLOY_DEBUG` values that turn debug lines on. */
const DEBUG_ON = new Set(['true', 'True', 'TRUE', '1']);

/** The live line and colour on a terminal (never with NO_COLOR), debug lines with `DEPLOY_DEBUG`. */
export function commandLog(
  stderr: LogStream,
  env: Readonly<Record<string, string | undefined>>,
  redact: (text: string) => string,
): StderrLog {
  const terminal = stderr.isTTY === true;
  return new StderrLog(stderr, {
    terminal,
    colour: wantsColour(terminal, env),
    debug: DEBUG_ON.has(env.DEPLOY_DEBUG ?? ''),
    redact,
  });
}

/** Whether colour is wanted: a terminal, and NO_COLOR unset or empty (no-color.org). */
export function wantsColour(
  terminal: boolean,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return terminal && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

type LineLevel = LogLevel | 'error';

const LABELS: Readonly<Record<Exclude<LineLevel, 'info' | 'debug'>, [string, Style]>> = {
  notice: ['notice:', 'bold'],
  warning: ['warning:', 'yellow'],
  error: ['error:', 'red'],
};

export class StderrLog {
  readonly #stream: LogStream;
  readonly #options: LogOptions;
  readonly #live: LiveLine;
  /** In a deploy of several agents: how many it has, each agent seen, and those live. */
  #agents = { of: 0, seen: new Set<string>(), live: new Set<string>() };

  constructor(stream: LogStream, options: LogOptions) {
    this.#stream = stream;
    this.#options = options;
    this.#live = new LiveLine(
      stream,
      { mark: (text) => this.#style('cyan', text), elapsed: (text) => this.#style('dim', text) },
      options.now ?? (() => performance.now()),
    );
  }

  #style(style: Style, text: string): string {
    return this.#options.colour ? `\u001b[${STYLES[style]}m${text}\u001b[0m` : text;
  }

  #clean(message: string): string {
    // The command may run on a GitHub runner too: no line of it may start a runner command.
    return neutraliseCommands(this.#options.redact(message));
  }

  #line(text: string): void {
    this.#live.clear();
    this.#stream.write(`${this.#fitted(text)}\n`);
    this.#live.draw();
  }

  /** On a terminal, each line wider than it broken between words, never inside one (an id). */
  #fitted(text: string): string {
    const columns = this.#stream.columns;
    if (!this.#options.terminal || columns === undefined || columns <= 0) return text;
    return text
      .split('\n')
      .map((line) => wrapAtSpaces(line, columns))
      .join('\n');
  }

  /** A line of `level` as it is written (without an agent's key); none for debug when it is off. */
  #levelLine(level: LineLevel, message: string): string | undefined {
    if (level === 'info') return this.#clean(message);
    if (level === 'debug') {
      return this.#options.debug ? this.#style('dim', `debug: ${this.#clean(message)}`) : undefined;
    }
    const [label, style] = LABELS[level];
    return `${this.#style(style, label)} ${this.#clean(message)}`;
  }

  #write(level: LineLevel, message: string): void {
    const line = this.#levelLine(level, message);
    if (line !== undefined) this.#line(line);
  }

  info(message: string): void {
    this.#live.drop(ONE_DEPLOYMENT);
    this.#write('info', message);
  }

  /** The wait's state: a line in CI, the live line on a terminal; `note` says why the next check is late. */
  #waitingOf(entry: string, event: WaitingEvent): void {
    const { waitingFor, briefly = waitingFor, elapsedMs: soFarMs, note } = event;
    const noted = (text: string) => this.#clean(note === undefined ? text : `${text}; ${note}`);
    const what = noted(waitingFor);
    if (this.#options.terminal) {
      this.#live.set(entry, { what, briefly: noted(briefly) }, soFarMs);
      return;
    }
    const key = entry === ONE_DEPLOYMENT ? '' : `[${entry}] `;
    this.#line(`${key}waiting until live: ${what} (${formatSeconds(soFarMs / 1000)} so far)`);
  }

  readonly notice = (message: string): void => this.#write('notice', message);
  readonly warning = (message: string): void => this.#write('warning', message);
  readonly error = (message: string): void => this.#write('error', message);
  readonly debug = (message: string): void => this.#write('debug', message);

  /** The core's events: an agent's wait stays on the live line until it is over or the agent says something else. */
  readonly view: EventSink = (event) => {
    const { agent } = event;
    if (agent !== undefined) this.#count(agent, event);
    const entry = agent ?? ONE_DEPLOYMENT;
    const keyed = (line: string | undefined) => {
      if (line !== undefined) this.#line(agent === undefined ? line : `[${agent}] ${line}`);
    };
    switch (event.kind) {
      case 'log':
        // The wait is over (or never began): the live line gives way for good.
        if (event.level === 'info') this.#live.drop(entry);
        keyed(this.#levelLine(event.level, event.message));
        return;
      case 'waiting':
        this.#waitingOf(entry, event);
        return;
      case 'phase':
        // A phase's heading, where the action opens a log group.
        if (event.grouped) keyed(this.#style('bold', `== ${this.#clean(event.message)}`));
        return;
      case 'wait_over':
        if (agent !== undefined) this.#live.drop(agent);
        return;
      default:
        return;
    }
  };

  expectAgents(count: number): void {
    this.#agents.of = count;
  }

  /** The live line's tally: agents seen, and those live. */
  #count(agent: string, event: RunEvent): void {
    const { seen, live } = this.#agents;
    seen.add(agent);
    const isLive =
      (event.kind === 'wait_over' && event.outcome === 'live') ||
      (event.kind === 'finished' && event.report.stage === 'live');
    if (isLive) live.add(agent);
    this.#live.tally(live.size, Math.max(this.#agents.of, seen.size));
  }

  /** Ends the live line, if any, and erases it: a line that stayed would show a wait that is over. */
  close(): void {
    this.#live.end();
  }
}
