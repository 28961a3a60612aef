/**
 * How `list` and `repos` write what they found (CLI contract v1.4): a table
 * that fits the terminal's width; one line an item with tab-separated
 * fields and no header when stdout is not a terminal (as `gh` does), so
 * that `cut` and `awk` work; or `--json`, the items as the service answered
 * them, every secret value `***`. Service text is untrusted: a cell is one
 * line, its control characters (a tab, a line break) shown escaped.
 */
import { lineSafeJson } from '../common/json-text.js';
import { untrusted } from '../common/runtime.js';
import type { Deployment, Repository } from '../service/schemas.js';

/** The columns of an item: a heading and how each item fills it. */
export interface Column<T> {
  heading: string;
  cell: (item: T) => string;
}

export const DEPLOYMENT_COLUMNS: readonly Column<Deployment>[] = [
  { heading: 'NAME', cell: (d) => d.name },
  { heading: 'ID', cell: (d) => d.id },
  { heading: 'STATUS', cell: (d) => d.status },
  { heading: 'SOURCE', cell: (d) => d.source },
  { heading: 'TYPE', cell: (d) => d.source_config.deployment_type ?? '' },
  { heading: 'IMAGE VERSION', cell: (d) => d.image_version ?? '' },
  { heading: 'UPDATED', cell: (d) => d.updated_at },
];

export const REPOSITORY_COLUMNS: readonly Column<Repository>[] = [
  { heading: 'REPOSITORY', cell: (r) => `${r.owner}/${r.name}` },
  { heading: 'DEFAULT BRANCH', cell: (r) => r.default_branch },
  { heading: 'URL', cell: (r) => r.url },
  { heading: 'ID', cell: (r) => String(r.id) },
];

/** The narrowest a column is cut to when the table is too wide. */
const MIN_COLUMN = 4;
const GAP = '  ';

function rowsOf<T>(items: readonly T[], columns: readonly Column<T>[]): string[][] {
  return items.map((item) => columns.map((column) => untrusted(column.cell(item))));
}

/** `text` cut to `width` characters, the last one `…` when cut. */
function cut(text: string, width: number): string {
  const characters = [...text];
  return characters.length <= width ? text : `${characters.slice(0, width - 1).join('')}…`;
}

/**
 * A table of the items with a heading line, at most `width` characters a
 * line: while it is wider, the widest column loses a character (never
 * below its heading's width), and its cut cells end in `…`.
 */
export function table<T>(
  items: readonly T[],
  columns: readonly Column<T>[],
  width: number,
): string {
  const rows = [columns.map((column) => column.heading), ...rowsOf(items, columns)];
  const widths = columns.map((_, index) =>
    Math.max(...rows.map((row) => [...(row[index] ?? '')].length)),
  );
  const total = () =>
    widths.reduce((sum, each) => sum + each, 0) + GAP.length * (widths.length - 1);
  // A column is never cut narrower than its heading.
  const floors = columns.map((column) => Math.max(MIN_COLUMN, column.heading.length));
  while (total() > width) {
    const cuttable = widths.map((each, index) => (each > (floors[index] ?? 0) ? each : 0));
    const widest = cuttable.indexOf(Math.max(...cuttable));
    if ((cuttable[widest] ?? 0) === 0) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  return rows
    .map((row) =>
      row
        .map((text, index) => {
          const each = widths[index] ?? 0;
          const shown = cut(text, each);
          return index === row.length - 1 ? shown : shown.padEnd(each);
        })
        .join(GAP)
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/** One line an item, its fields separated by tabs, no heading. */
export function lines<T>(items: readonly T[], columns: readonly Column<T>[]): string {
  return rowsOf(items, columns)
    .map((row) => `${row.join('\t')}\n`)
    .join('');
}

/** A deployment as the service answered it, each secret's value `***` (by structure). */
function shown(deployment: Deployment): Deployment {
  return {
    ...deployment,
    secrets: deployment.secrets.map((secret) => ({ ...secret, value: '***' })),
  };
}

/**
 * The deployments as one JSON array, written page by page as they arrive
 * (`list --json`): `[`, each item indented as `JSON.stringify(list, null, 2)`
 * would, items separated by `,\n`, then `]`; the same text as the whole
 * array at once, without holding it.
 */
export class DeploymentsJsonStream {
  readonly #write: (text: string) => void;
  #count = 0;

  constructor(write: (text: string) => void) {
    this.#write = write;
    this.#write('[');
  }

  /** One page's items. */
  page(deployments: readonly Deployment[]): void {
    let text = '';
    for (const deployment of deployments) {
      // Inside strings a line break is escaped: every raw one is the item's layout.
      const item = lineSafeJson(shown(deployment), 2).replaceAll('\n', '\n  ');
      text += `${this.#count === 0 ? '\n' : ',\n'}  ${item}`;
      this.#count += 1;
    }
    if (text !== '') this.#write(text);
  }

  /** The array's end. */
  end(): void {
    this.#write(this.#count === 0 ? ']\n' : '\n]\n');
  }
}
