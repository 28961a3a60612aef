/** The help, from the option table: it cannot miss an option or show a stale default. */
import { parse } from 'yaml';
import {
  COMMANDS,
  optionTable,
  type Command,
  type Descriptions,
  type OptionSpec,
} from './option-table.js';

const WIDTH = 80;
const INDENT = '      ';

const ABOUT: Record<Command, { usage: string; does: string }> = {
  deploy: {
    usage: 'deploy-agent deploy (--name NAME | --agents FILE) [options]',
    does: 'Finds the deployment NAME or creates it, reports drift, optionally waits until it is live, and reports it (what the GitHub Action does). With --agents FILE, does so for every agent of the manifest at once, each as if alone (--name, if given, a template holding {agent}): --json keyed by agent, --dotenv DEPLOYMENT_LIVE and DEPLOYMENT_AGENT_<KEY>_ID, _URL, _STATUS, _LIVE (at most --dotenv-max-keys), exit 1 when any agent failed, once all have finished.',
  },
  status: {
    usage: 'deploy-agent status (--name NAME | --agents FILE) [options]',
    does: 'Looks the deployment NAME up (read-only: never creates) and reports it as deploy does; with --wait, waits until it is live. Exit 1 when no deployment has that name. With --agents FILE, does so for every agent of the manifest at once (--name, if given, a template holding {agent}): --json and --dotenv as deploy --agents writes them, exit 1 when any agent failed, once all have finished.',
  },
  plan: {
    usage: 'deploy-agent plan (--name NAME | --agents FILE) [options]',
    does: "Says what deploy would do with these options, read-only (GET requests only): create, reuse with every difference it would not apply, or fail. Exit 1 on fail, or on a difference with --on-change fail. With --agents FILE, plans every agent of the manifest, each as if alone (--name, if given, a template holding {agent}): --json action, changes (the total) and plans keyed by agent, --dotenv DEPLOYMENT_PLAN_ACTION, DEPLOYMENT_CHANGES and DEPLOYMENT_AGENT_<KEY>_ID, _STATUS; exit 1 when any agent's plan fails.",
  },
  list: {
    usage: 'deploy-agent list [filters] [--limit N | --all] [--json]',
    does: 'Lists the deployments the filters select (GET requests only), in the order the service answers them (no other order is claimed): a table on a terminal, tab-separated lines without a header when piped (name, id, status, source, type, image version, updated), or --json. Exit 0 when none match too.',
  },
  repos: {
    usage: 'deploy-agent repos --integration-id ID [--json]',
    does: 'Lists the repositories the source-hosting integration ID can deploy (owner/name, default branch, URL, id): a table on a terminal, tab-separated lines when piped, or --json.',
  },
};

function wrap(text: string, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(indent + line);
  return lines.join('\n');
}

function optionHelp(spec: OptionSpec): string {
  const facts = [
    spec.variable === undefined ? undefined : `env ${spec.variable}`,
    spec.defaultText === undefined ? undefined : `default: ${spec.defaultText}`,
    spec.multiple === true ? 'repeatable' : undefined,
  ].filter((fact) => fact !== undefined);
  // `--name VALUE`, `--header NAME`, `--wait`.
  const value = spec.type === 'string' ? ` ${spec.valueName ?? 'VALUE'}` : '';
  const head = `  --${spec.option}${value}${facts.length > 0 ? `  (${facts.join('; ')})` : ''}`;
  return `${head}\n${wrap(spec.description, INDENT)}`;
}

const EXIT_CODES = `Exit status: 0 done (with --wait: live; list and repos: also when nothing matches); 1 the deploy failed (service error, drift with --on-drift fail, AWAITING_DELETE, a wait that timed out, no deployment of that name for status; for plan: a fail verdict, or a difference with --on-change fail; list and repos: a service error); 2 usage or input error, before any request; 130 interrupted (outputs still written).`;

/** Throws when it is not YAML. */
export function actionDescriptions(actionYml: string): Descriptions {
  const inputs = (parse(actionYml) as { inputs?: Record<string, { description?: unknown }> })
    .inputs;
  return Object.fromEntries(
    Object.entries(inputs ?? {}).flatMap(([name, input]) =>
      typeof input.description === 'string' ? [[name, input.description.trim()]] : [],
    ),
  );
}

export function commandHelp(command: Command, descriptions: Descriptions = {}): string {
  const { usage, does } = ABOUT[command];
  const options = optionTable(descriptions).filter((spec) => spec.commands.includes(command));
  return [
    `Usage: ${usage}`,
    '',
    wrap(does, ''),
    '',
    'Options (a flag wins over its variable; secrets are never options: DEPLOY_API_KEY or --api-key-file, --header NAME, --secret NAME):',
    ...options.map(optionHelp),
    '  --help, -h',
    `${INDENT}This help.`,
    '',
    wrap(EXIT_CODES, ''),
    '',
  ].join('\n');
}

/** Each text in one column after the longest name, its continuation lines too. */
function columns(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([name]) => name.length));
  const column = ' '.repeat(2 + width + 2);
  return rows.map(([name, text]) => {
    const [first = '', ...more] = wrap(text, column).split('\n');
    return [`  ${name.padEnd(width)}  ${first.trimStart()}`, ...more].join('\n');
  });
}

export function topHelp(version: string): string {
  return [
    wrap(
      `deploy-agent ${version}: the deploy of the deploy-agent GitHub Action, outside GitHub Actions (GitLab CI, Jenkins, CircleCI, Bitbucket, Azure Pipelines, a terminal).`,
      '',
    ),
    '',
    'Usage: deploy-agent COMMAND [options]',
    '',
    'Commands:',
    ...columns(COMMANDS.map((command) => [command, ABOUT[command].does])),
    '',
    ...columns([
      ['deploy-agent COMMAND --help', 'every option of COMMAND, with its variable and default'],
      ['deploy-agent --version', 'the version'],
    ]),
    '',
    wrap(
      'Every option can come from its environment variable instead: DEPLOY_ + the option upper-cased, - as _ (--wait-timeout: DEPLOY_WAIT_TIMEOUT).',
      '',
    ),
    '',
  ].join('\n');
}
