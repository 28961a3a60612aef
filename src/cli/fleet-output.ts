/**
 * What `list` and `repos` write: a table that fits the terminal; piped, as
 * `gh` does, tab-separated lines with no header for `cut` and `awk`; or
 * `--json`. Service text is untrusted: a cell is one line, controls escaped.
 */
import { lineSafeJson } from '../common/characters.js';
import { untrusted } from '../common/runtime.js';
import type { Deployment, Repository } from '../service/schemas.js';
import { cutMiddle, cutToWidth, padToWidth, screenWidth } from './screen-width.js';

export interface Column<T> {
  heading: string;
  cell: (item: T) => string;
  /** The order in which the column gives way; `'middle'`: last, cut in its middle; `'never'`: whole. */
  cutRank: number | 'middle' | 'never';
}

export const DEPLOYMENT_COLUMNS: readonly Column<Deployment>[] = [
  { heading: 'NAME', cell: (d) => d.name, cutRank: 'middle' },
  { heading: 'ID', cell: (d) => d.id, cutRank: 'never' },
  { heading: 'STATUS', cell: (d) => d.status, cutRank: 5 },
  { heading: 'SOURCE', cell: (d) => d.source, cutRank: 3 },
  { heading: 'TYPE', cell: (d) => d.source_config.deployment_type ?? '', cutRank: 2 },
  { heading: 'IMAGE VERSION', cell: (d) => d.image_version ?? '', cutRank: 4 },
  { heading: 'UPDATED', cell: (d) => d.updated_at, cutRank: 1 },
];

export const REPOSITORY_COLUMNS: readonly Column<Repository>[] = [
  { heading: 'REPOSITORY', cell: (r) => `${r.owner}/${r.name}`, cutRank: 'middle' },
  { heading: 'DEFAULT BRANCH', cell: (r) => r.default_branch, cutRank: 2 },
  { heading: 'URL', cell: (r) => r.url, cutRank: 1 },
  { heading: 'ID', cell: (r) => String(r.id), cutRank: 'never' },
];

/** The narrowest a column is cut to when the table is too wide. */
const MIN_COLUMN = 4;
const GAP = '  ';

function rowsOf<T>(items: readonly T[], columns: readonly Column<T>[]): string[][] {
  return items.map((item) => columns.map((column) => untrusted(column.cell(item))));
}

interface Shown {
  cutRank: Column<unknown>['cutRank'];
  texts: string[];
  width: number;
  /** A column is never cut narrower than its heading. */
  floor: number;
}

const totalWidth = (shown: readonly Shown[]) =>
  shown.reduce((sum, each) => sum + each.width, 0) + GAP.length * (shown.length - 1);

const byCutRank = (shown: readonly Shown[]) =>
  shown
    .filter((each) => typeof each.cutRank === 'number')
    .sort((a, b) => Number(a.cutRank) - Number(b.cutRank));

/** Cuts `columns`, in order, down to their floor, until `shown` fits `width` if it can. */
function cutToFit(shown: readonly Shown[], columns: readonly Shown[], width: number): void {
  for (const column of columns) {
    const over = totalWidth(shown) - width;
    if (over <= 0) return;
    column.width = Math.max(column.floor, column.width - over);
  }
}

/**
 * Within `width`: the columns a person does not act on are cut, in order, down
 * to their heading, else left out; then the name is cut in its middle. The id
 * a person copies is always whole, even when alone wider than the terminal.
 */
function fit(shown: Shown[], width: number): Shown[] {
  const full = shown.map((each) => each.width);
  const leaving = byCutRank(shown);
  let kept = shown;
  for (let left = 0; left <= leaving.length; left += 1) {
    kept = shown.filter((each) => !leaving.slice(0, left).includes(each));
    kept.forEach((each) => {
      each.width = full[shown.indexOf(each)] ?? 0;
    });
    cutToFit(kept, byCutRank(kept), width);
    if (totalWidth(kept) <= width) return kept;
  }
  cutToFit(
    kept,
    kept.filter((each) => each.cutRank === 'middle'),
    width,
  );
  return kept;
}

/** A table at most `width` screen columns wide: a column no item fills is left out, the others `fit`. */
export function table<T>(
  items: readonly T[],
  columns: readonly Column<T>[],
  width: number,
): string {
  const rows = [columns.map((column) => column.heading), ...rowsOf(items, columns)];
  const shown = fit(
    columns
      .map((column, index) => {
        const texts = rows.map((row) => row[index] ?? '');
        return {
          cutRank: column.cutRank,
          texts,
          width: Math.max(...texts.map(screenWidth)),
          floor: Math.max(MIN_COLUMN, screenWidth(column.heading)),
        };
      })
      .filter((column) => column.texts.slice(1).some((text) => text !== '')),
    width,
  );
  return rows
    .map((_, row) =>
      shown
        .map((column, index) => {
          const cut = column.cutRank === 'middle' ? cutMiddle : cutToWidth;
          const text = cut(column.texts[row] ?? '', column.width);
          return index === shown.length - 1 ? text : padToWidth(text, column.width);
        })
        .join(GAP)
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

export function lines<T>(items: readonly T[], columns: readonly Column<T>[]): string {
  return rowsOf(items, columns)
    .map((row) => `${row.join('\t')}\n`)
    .join('');
}

/** `list --json` page by page, secrets `***`: the text of `JSON.stringify(list, null, 2)` without holding it. */
export function deploymentsJsonStream(write: (text: string) => void) {
  let count = 0;
  write('[');
  return {
    page(deployments: readonly Deployment[]): void {
      let text = '';
      for (const deployment of deployments) {
        const secrets = deployment.secrets.map((secret) => ({ ...secret, value: '***' }));
        // Inside strings a line break is escaped: every raw one is the item's layout.
        const item = lineSafeJson({ ...deployment, secrets }, 2).replaceAll('\n', '\n  ');
        text += `${count === 0 ? '\n' : ',\n'}  ${item}`;
        count += 1;
      }
      if (text !== '') write(text);
    },
    end(): void {
      write(count === 0 ? ']\n' : '\n]\n');
    },
  };
}
