/**
 * The `list`/`repos` table in screen columns: empty columns left out, the
 * columns a person does not act on cut first and then left out, then the
 * name cut in its middle only when it and the id cannot both fit; the id
 * never cut.
 */
import { describe, expect, it } from 'vitest';
import { table, type Column } from '../../src/cli/fleet-output.ts';
import { screenWidth } from '../../src/cli/screen-width.ts';

interface Row {
  name: string;
  id: string;
  note: string;
  empty: string;
  when: string;
}

const COLUMNS: readonly Column<Row>[] = [
  { heading: 'NAME', cell: (r) => r.name, cutRank: 'middle' },
  { heading: 'ID', cell: (r) => r.id, cutRank: 'never' },
  { heading: 'NOTE', cell: (r) => r.note, cutRank: 2 },
  { heading: 'EMPTY', cell: (r) => r.empty, cutRank: 3 },
  { heading: 'WHEN', cell: (r) => r.when, cutRank: 1 },
];

const ROWS: Row[] = [
  { name: 'エージェント', id: 'id-1', note: 'a long note here', empty: '', when: '2025-11-26' },
  { name: '🚀-agent', id: 'id-22', note: 'short', empty: '', when: '2025-11-27' },
];

const linesOf = (text: string) => text.split('\n').filter((line) => line !== '');

describe('table', () => {
  it('shows every column that has a value, padded in screen columns, when it fits', () => {
    expect(linesOf(table(ROWS, COLUMNS, 80))).toEqual([
      'NAME          ID     NOTE              WHEN',
      'エージェント  id-1   a long note here  2025-11-26',
      '🚀-agent      id-22  short             2025-11-27',
    ]);
  });

  it('cuts the columns that give way first, in their order, before the name or the id', () => {
    const lines = linesOf(table(ROWS, COLUMNS, 40));
    for (const line of lines) expect(screenWidth(line)).toBeLessThanOrEqual(40);
    expect(lines).toEqual([
      'NAME          ID     NOTE           WHEN',
      'エージェント  id-1   a long note …  202…',
      '🚀-agent      id-22  short          202…',
    ]);
  });

  it('leaves a column out when cutting it to its heading is not enough', () => {
    expect(linesOf(table(ROWS, COLUMNS, 28))).toEqual([
      'NAME          ID     NOTE',
      'エージェント  id-1   a long…',
      '🚀-agent      id-22  short',
    ]);
  });

  it('cuts the name in its middle, start and end kept, only when it and the id cannot both fit', () => {
    expect(linesOf(table(ROWS, COLUMNS, 21))).toEqual([
      'NAME          ID',
      'エージェント  id-1',
      '🚀-agent      id-22',
    ]);
    const lines = linesOf(table(ROWS, COLUMNS, 14));
    for (const line of lines) expect(screenWidth(line)).toBeLessThanOrEqual(14);
    expect(lines).toEqual(['NAME     ID', 'エ…ント  id-1', '🚀-…ent  id-22']);
  });

  it('keeps the id whole even when it alone is wider than the terminal, the name cut to its heading', () => {
    expect(linesOf(table(ROWS, COLUMNS, 6))).toEqual(['NAME  ID', 'エ…   id-1', '🚀…t  id-22']);
  });

  it('makes a line of a 200 kB name no wider than the terminal', () => {
    const name = `start-${'x'.repeat(200_000)}-end`;
    const huge: Row = { name, id: 'id-22', note: '', empty: '', when: '' };
    const lines = linesOf(table([huge], COLUMNS, 80));
    for (const line of lines) expect(screenWidth(line)).toBeLessThanOrEqual(80);
    expect(lines[1]).toMatch(/^start-x+…x+-end {2}id-22$/);
  });
});
