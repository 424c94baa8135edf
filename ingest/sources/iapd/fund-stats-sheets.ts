import { cleanText, toNumber } from '../common/normalize.ts';
import type { SheetRows } from '../common/xlsx.ts';

/**
 * Turns one statistics worksheet into long rows. Layout (as the report's tables are drawn): title line(s), one
 * header row of column labels, then data rows whose first cell is the row label; footnotes follow. The header row
 * is the last row with two or more labels above the first data row. Masked cells ("*", "-", "n/a") keep their
 * text with a null value.
 */
export interface StatCell {
  tab: string;
  title: string | null;
  rowKey: string;
  metricKey: string;
  value: number | null;
  raw: string;
  rowOrder: number;
  colOrder: number;
  sheetRow: number;
}

const isNumeric = (s: string) => toNumber(s.replace(/%$/, '')) != null;
const MASKED = /^(\*+|-+|–|—|n\/?a|s|\(\*\))$/i;

export function sheetCells(sheet: SheetRows, onProblem: (row: number, reason: string) => void): StatCell[] {
  const rows = sheet.rows;
  const isData = (r: string[]) => !!cleanText(r[0]) && !isNumeric(r[0] ?? '') && r.slice(1).some((v) => isNumeric(v ?? ''));
  const first = rows.findIndex((r) => r && isData(r));
  if (first < 0) return [];
  let header = -1;
  for (let i = first - 1; i >= 0; i--) {
    if ((rows[i] ?? []).slice(1).filter((v) => cleanText(v)).length >= 1) {
      header = i;
      break;
    }
  }
  if (header < 0) {
    onProblem(first + 1, `tab '${sheet.name}': no header row above the first data row`);
    return [];
  }
  const labels = rows[header].map((v) => cleanText(v));
  const title =
    rows
      .slice(0, header)
      .map((r) => cleanText(r?.[0]))
      .find(Boolean) ?? null;
  const out: StatCell[] = [];
  let rowOrder = 0;
  const seenRows = new Map<string, number>();
  for (let i = first; i < rows.length; i++) {
    const r = rows[i] ?? [];
    const label = cleanText(r[0]);
    if (!label) continue;
    if (!isData(r)) {
      // A labelled row without numbers inside the table is a footnote or a masked-only row.
      if (r.slice(1).some((v) => MASKED.test((v ?? '').trim()))) {
        /* masked-only: still a data row */
      } else continue;
    }
    rowOrder++;
    const dup = seenRows.get(label);
    if (dup) onProblem(i + 1, `tab '${sheet.name}': row label '${label}' repeats row ${dup} (kept both, by position)`);
    seenRows.set(label, i + 1);
    for (let c = 1; c < r.length; c++) {
      const raw = (r[c] ?? '').trim();
      if (!raw) continue;
      const metric = labels[c];
      if (!metric) {
        onProblem(i + 1, `tab '${sheet.name}': value '${raw}' in column ${c + 1} has no header`);
        continue;
      }
      const value = toNumber(raw.replace(/%$/, ''));
      if (value == null && !MASKED.test(raw)) onProblem(i + 1, `tab '${sheet.name}': unparsable value '${raw}' (kept as text)`);
      out.push({ tab: sheet.name, title, rowKey: label, metricKey: metric, value, raw, rowOrder, colOrder: c, sheetRow: i + 1 });
    }
  }
  return out;
}
