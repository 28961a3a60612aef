import type { InputError } from '../inputs/errors.js';
import type { CliRequest } from './arguments.js';
import type { CiRun } from './ci.js';
import { optionTable, type OptionSpec } from './option-table.js';

/** How a message names a bad input not given: its option and variable. */
function inputLabels(table: readonly OptionSpec[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const spec of table) {
    const variable = spec.variable === undefined ? '' : ` (or ${spec.variable})`;
    switch (spec.role.kind) {
      case 'input':
      case 'plan-input':
      case 'list-input':
        labels.set(spec.role.input, `--${spec.option}${variable}`);
        break;
      case 'api-key-file':
        labels.set('api-key', `the API key (DEPLOY_API_KEY or --api-key-file)`);
        break;
      case 'header':
        labels.set(
          spec.role.input,
          `the ${spec.role.input} (--${spec.option} or ${spec.variable ?? ''})`,
        );
        break;
      case 'secrets-file':
        labels.set('secrets', `the secrets (--secret, --secrets-file or DEPLOY_SECRETS)`);
        break;
      default:
        break;
    }
  }
  return labels;
}

/** `agents.support.repository`, with the option that gives it for every agent, if any. */
function entryLabel(input: string, labels: Map<string, string>): string {
  const field = /^agents\.[^.]+\.([a-z-]+)$/.exec(input)?.[1];
  const option = field === undefined ? undefined : labels.get(field);
  // `--repository (or DEPLOY_REPOSITORY)` reads flat after the field: no brackets in brackets.
  const flat = option?.replace(/ \(or ([^()]+)\)$/, ' or $1');
  return flat === undefined ? input : `${input} (for every agent: ${flat})`;
}

/** Each input named the way it was given (`--name`, `DEPLOY_NAME`), else by `inputLabels`; the lead first. */
export function describeInputError(error: InputError, request: CliRequest, ci: CiRun): string {
  const labels = inputLabels(optionTable());
  const lines = error.problems.map(({ input, problem }) => {
    const origin = request.origins[input as keyof CliRequest['origins']];
    let label = origin ?? labels.get(input) ?? entryLabel(input, labels);
    if (input === 'repository' && origin === undefined && ci.slug !== undefined) {
      const whose = ci.host === undefined ? `${ci.where}'s project` : 'the origin remote';
      label = `--repository (defaulted to ${whose} ${ci.slug}: pass --repository owner/name)`;
    }
    return `${label}: ${problem}`;
  });
  const list = (heading: string, items: string[]) =>
    `${heading}\n${items.map((line) => `  - ${line}`).join('\n')}`;
  if (error.lead !== undefined) {
    const [lead, ...others] = lines;
    const first = `invalid input ${lead ?? ''}`;
    return others.length === 0 ? first : `${first}\n${list('other invalid inputs:', others)}`;
  }
  return lines.length === 1 ? `invalid input ${lines[0]}` : list('invalid inputs:', lines);
}
