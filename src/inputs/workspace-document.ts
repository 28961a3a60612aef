import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { BoundedReadError, MIB, readBounded } from './bounded-read.js';
import { fail } from './errors.js';
import { formatIssuePath } from '../service/issues.js';
import { parseStrictJson } from './strict-json.js';

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

function parseJsonText(text: string): unknown {
  const json = parseStrictJson(text);
  if (json.kind === 'invalid') fail(`is not valid JSON: ${json.reason.split('\n')[0]}`);
  if (json.kind === 'unchecked') fail('is nested too deeply to be checked for repeated keys');
  if (json.repeated !== undefined) fail(`${formatIssuePath(json.repeated.path)}: repeated key`);
  return json.value;
}

function parseYamlText(text: string): unknown {
  try {
    return parseYaml(text, { uniqueKeys: true });
  } catch (error) {
    fail(`is not valid YAML: ${firstLine(error)}`);
  }
}

function isInside(root: string, inner: string): boolean {
  const relative = path.relative(root, inner);
  return !(relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative));
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'neither a file nor a directory';
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Inside the workspace as written (`../x.json`) and once links are followed: a link may point
 * anywhere. A path that is not a regular file says what it is ("not found" would mislead).
 */
function workspaceFile(raw: string, workspace: string): string {
  // No file system takes a NUL in a path; Node would throw before asking.
  if (raw.includes('\0')) fail('its file name has a NUL character, which no path can hold');
  const root = path.resolve(workspace);
  const file = path.resolve(root, raw);
  if (!isInside(root, file)) fail(`file '${raw}' is outside the workspace`);
  const notFound = `file '${raw}' was not found in the workspace (${root})`;
  let real: string;
  try {
    real = realpathSync(file);
  } catch (error) {
    if (!isMissing(error)) {
      const code = (error as NodeJS.ErrnoException).code ?? 'an error';
      fail(`file '${raw}' cannot be read: the file system answered ${code}`);
    }
    const link = lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() === true;
    fail(link ? `${notFound}: it is a symbolic link to a path that does not exist` : notFound);
  }
  if (!isInside(realpathSync(root), real)) {
    fail(`file '${raw}' is outside the workspace: a symbolic link leads out of it`);
  }
  const stats = statSync(real);
  if (!stats.isFile()) fail(`file '${raw}' is not a regular file (${kindOf(stats)})`);
  return real;
}

/** The most a document's file may hold: far more than any config, far less than a runner's memory. */
const DOCUMENT_FILE_CAP = MIB;

function readDocumentFile(raw: string, workspace: string): unknown {
  const file = workspaceFile(raw, workspace);
  let text: string;
  try {
    text = readBounded(file, { cap: DOCUMENT_FILE_CAP });
  } catch (error) {
    if (!(error instanceof BoundedReadError)) throw error;
    fail(`file '${raw}' cannot be read: ${error.message}`);
  }
  return raw.toLowerCase().endsWith('.json') ? parseJsonText(text) : parseYamlText(text);
}

/** A single line ending in .json/.yaml/.yml that is not itself inline JSON or YAML flow. */
export function isFilePath(raw: string): boolean {
  return !raw.includes('\n') && /\.(json|ya?ml)$/i.test(raw) && !/^[{[]/.test(raw);
}

export function readDocument(raw: string, workspace: string): unknown {
  return isFilePath(raw) ? readDocumentFile(raw, workspace) : parseYamlText(raw);
}
