/**
 * Which agents of a manifest a pull request leaves unchanged: those whose `paths` match none of
 * its changed files, asked once before any agent runs. When the files cannot be known, none:
 * every agent is deployed, with one notice saying why (never a preview left out on a guess).
 */
import { untrusted, type Logger } from '../../common/runtime.js';
import { agentChange } from '../decisions/changed.js';
import type { AskChangedFiles, ChangedFiles } from '../ports/changes.js';
import { describeError } from '../../common/errors.js';

interface Watched {
  key: string;
  paths?: { patterns: readonly string[]; always: readonly string[] };
}

async function asked(changedFiles: AskChangedFiles): Promise<ChangedFiles> {
  try {
    return await changedFiles();
  } catch (error) {
    return { known: false, why: describeError(error) };
  }
}

export async function unchangedAgents(
  agents: readonly Watched[],
  changedFiles: AskChangedFiles | undefined,
  logger: Logger,
): Promise<ReadonlySet<string>> {
  const watched = agents.flatMap(({ key, paths }) => (paths === undefined ? [] : [{ key, paths }]));
  if (watched.length === 0 || changedFiles === undefined) return new Set();
  const changed = await asked(changedFiles);
  if (!changed.known) {
    logger.notice(`paths: ${changed.why}; every agent is deployed`);
    return new Set();
  }
  const unchanged: string[] = [];
  for (const { key, paths } of watched) {
    const change = agentChange(paths, changed.files);
    if (!change.changed) unchanged.push(key);
    else {
      const why =
        change.pattern === undefined ? 'a file it is deployed from' : `matches ${change.pattern}`;
      logger.info(`paths: ${key} is changed: ${untrusted(change.file)} ${why}`);
    }
  }
  if (unchanged.length > 0) {
    logger.info(
      `paths: unchanged, not deployed: ${unchanged.join(', ')} (none of their patterns matched a changed file)`,
    );
  }
  return new Set(unchanged);
}
