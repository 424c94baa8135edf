import type { HtmlCell, HtmlTable } from './parse.ts';
import { isAmountFragment, parseAmount } from './cells.ts';

/**
 * A table laid out on a rectangular grid (colspan and rowspan expanded), so a value sitting under a
 * header that spans several physical columns is found by position rather than by counting cells.
 */

export interface GridSlot {
  cell: HtmlCell;
  /** True on the slot where the cell starts (its text counts once). */
  origin: boolean;
  /** True when this slot comes from a rowspan of a cell that started on an earlier row. */
  spanned: boolean;
}

export type Grid = (GridSlot | null)[][];

export function toGrid(table: HtmlTable): Grid {
  const grid: Grid = [];
  table.rows.forEach((row, r) => {
    grid[r] ??= [];
    let c = 0;
    for (const cell of row) {
      while (grid[r][c]) c++;
      for (let dr = 0; dr < cell.rowspan && dr < 50; dr++) {
        grid[r + dr] ??= [];
        for (let dc = 0; dc < cell.colspan; dc++) {
          grid[r + dr][c + dc] = { cell, origin: dr === 0 && dc === 0, spanned: dr > 0 };
        }
      }
      c += cell.colspan;
    }
  });
  const width = Math.max(0, ...grid.map((r) => r.length));
  for (const r of grid) for (let c = 0; c < width; c++) r[c] ??= null;
  return grid.slice(0, table.rows.length);
}

export interface LogicalColumn {
  label: string;
  from: number;
  to: number;
}

/**
 * Logical columns from header rows: the text of every header cell is written to each grid column it
 * spans, the texts of stacked header rows are joined, and adjacent grid columns with the same label
 * become one logical column. Spacer columns (no label) are left out; data cells there are attributed
 * to the nearest labelled column by `assignRow`.
 */
export function headerColumns(grid: Grid, headerRows: number[]): LogicalColumn[] {
  const width = grid[0]?.length ?? 0;
  const labels: string[] = [];
  for (let c = 0; c < width; c++) {
    const parts: string[] = [];
    for (const r of headerRows) {
      const slot = grid[r]?.[c];
      if (!slot || slot.spanned) continue;
      const t = slot.cell.text.replace(/\n/g, ' ').trim();
      if (t && parts[parts.length - 1] !== t) parts.push(t);
    }
    labels.push(parts.join(' ').replace(/\s+/g, ' ').trim());
  }
  const cols: LogicalColumn[] = [];
  for (let c = 0; c < width; c++) {
    if (!labels[c]) continue;
    const last = cols[cols.length - 1];
    if (last && last.to === c - 1 && last.label === labels[c]) last.to = c;
    else cols.push({ label: labels[c], from: c, to: c });
  }
  return cols;
}

export interface AssignedRow {
  /** Text per logical column (fragments such as `$` and `)` joined to their amount). */
  values: string[];
  /** Cells with content that could not be placed under a labelled column. */
  orphans: number;
  /** Cells placed by proximity rather than by overlap with the header span. */
  nearMisses: number;
}

/** Places each non-empty cell of one grid row under a logical column. */
export function assignRow(grid: Grid, r: number, cols: LogicalColumn[]): AssignedRow {
  const values = cols.map(() => '');
  let orphans = 0;
  let nearMisses = 0;
  const row = grid[r] ?? [];
  let c = 0;
  while (c < row.length) {
    const slot = row[c];
    if (!slot) {
      c++;
      continue;
    }
    let end = c;
    while (end + 1 < row.length && row[end + 1]?.cell === slot.cell) end++;
    const text = slot.cell.text.replace(/\n/g, ' ').trim();
    if (text) {
      let k = cols.findIndex((col) => col.from <= end && col.to >= c);
      // Only amounts and their punctuation are pulled to a neighbouring column; stray text stays an orphan.
      const amountLike = isAmountFragment(text) || ['number', 'dash'].includes(parseAmount(text).kind);
      if (k < 0 && amountLike) {
        // `$` and `(` belong to the amount on their right, `)` and `%` to the one on their left.
        const preferRight = /^\$|\($/.test(text);
        let best = -1;
        let bestDist = Infinity;
        cols.forEach((col, i) => {
          const dist = col.from > end ? col.from - end : c - col.to;
          const biased = dist + (col.from > end === preferRight ? 0 : 0.5);
          if (biased < bestDist) {
            bestDist = biased;
            best = i;
          }
        });
        k = best;
        if (k >= 0 && !isAmountFragment(text)) nearMisses++;
      }
      if (k < 0) orphans++;
      else values[k] = values[k] ? `${values[k]} ${text}` : text;
    }
    c = end + 1;
  }
  return { values: values.map((v) => v.replace(/\$\s+/g, '$').replace(/\(\s+/g, '(').replace(/\s+\)/g, ')').trim()), orphans, nearMisses };
}
