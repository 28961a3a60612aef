/**
 * The step's outputs: each set again only when its value changes (outputs
 * are data: no substring redaction), with what the hooks add applied to
 * every set.
 */
import type { EventView } from '../run/ports/events.js';
import type { DeploymentEntry } from '../run/ports/findings.js';
import type { GitHubHooks } from './hooks.js';

type Outputs = Readonly<Partial<Record<string, string>>>;

export class StepOutputs {
  readonly #set: (name: string, value: string) => void;
  readonly #written = new Map<string, string>();
  #last: Partial<Record<string, string>> = {};
  #entries: ReadonlyMap<string, DeploymentEntry> | undefined;
  additions: GitHubHooks['outputs'];

  constructor(set: (name: string, value: string) => void) {
    this.#set = set;
  }

  readonly view: EventView = (event) => {
    if (event.kind !== 'outputs' || event.agent !== undefined) return;
    this.#last = { ...this.#last, ...event.outputs };
    this.#entries = event.entries ?? this.#entries;
    this.#write(event.outputs);
  };

  readonly refresh = (): void => {
    this.#write(this.#last);
  };

  #write(outputs: Outputs): void {
    const shown = this.additions?.(outputs, this.#entries) ?? outputs;
    for (const [name, value] of Object.entries(shown)) {
      if (value === undefined || this.#written.get(name) === value) continue;
      this.#written.set(name, value);
      this.#set(name, value);
    }
  }
}
