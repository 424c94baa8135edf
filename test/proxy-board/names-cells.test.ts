import { describe, expect, it } from 'vitest';
import { normalizePersonName, looksLikePersonName } from '../../ingest/sources/common/person-names.ts';
import { parseAmount, parseYear, stripFootnotes } from '../../ingest/sources/common/html-tables/cells.ts';
import { parseHtml } from '../../ingest/sources/common/html-tables/parse.ts';
import { assignRow, headerColumns, toGrid } from '../../ingest/sources/common/html-tables/grid.ts';

describe('person-name normalization', () => {
  const key = (s: string) => normalizePersonName(s)?.key;
  it('case, punctuation, middle initials and suffixes do not change the key', () => {
    expect(key('Parker A. Weil')).toBe('parker weil');
    expect(key('PARKER WEIL')).toBe('parker weil');
    expect(key('Robert E. Bigelow, III')).toBe('robert bigelow');
    expect(normalizePersonName('Robert E. Bigelow, III')!.suffix).toBe('iii');
    expect(key('ROBERT E SMITH JR')).toBe('robert smith');
    expect(key('Jane Doe, M.D.')).toBe('jane doe');
    expect(key('Dr. Jane Q. Doe')).toBe('jane doe');
  });
  it('"LAST, FIRST M" (990 e-files) is turned around', () => {
    expect(normalizePersonName('WEIL, PARKER A')).toMatchObject({ first: 'parker', middle: 'a', last: 'weil', key: 'parker weil' });
  });
  it('particles stay with the last name, accents are folded, footnote markers dropped', () => {
    expect(normalizePersonName('Douglas G. Del Grosso')).toMatchObject({ first: 'douglas', middle: 'g', last: 'del grosso' });
    expect(key('José Álvarez(2)')).toBe('jose alvarez');
    expect(key('Jeff Zhu*')).toBe('jeff zhu');
  });
  it('nicknames in quotes are not part of the name', () => {
    expect(key('William "Bill" H. Gates')).toBe('william gates');
  });
  it('looksLikePersonName rejects headings and role lines', () => {
    expect(looksLikePersonName('Sean D. Keohane')).toBe(true);
    expect(looksLikePersonName('Independent Directors')).toBe(false);
    expect(looksLikePersonName('Michael M. Morrow Non-Executive')).toBe(false);
    expect(looksLikePersonName('Total Fees')).toBe(false);
  });
});

describe('cell reading', () => {
  it('dashes are zero, blank and N/A are null, parentheses negative, footnotes ignored', () => {
    expect(parseAmount('—')).toEqual({ value: 0, kind: 'dash' });
    expect(parseAmount('$ —')).toEqual({ value: 0, kind: 'dash' });
    expect(parseAmount('-')).toEqual({ value: 0, kind: 'dash' });
    expect(parseAmount('')).toEqual({ value: null, kind: 'blank' });
    expect(parseAmount('N/A')).toEqual({ value: null, kind: 'na' });
    expect(parseAmount('$1,083,750')).toEqual({ value: 1083750, kind: 'number' });
    expect(parseAmount('1,083,750(1)')).toEqual({ value: 1083750, kind: 'number' });
    expect(parseAmount('(24,417)')).toEqual({ value: -24417, kind: 'number' });
    expect(parseAmount('see note')).toEqual({ value: null, kind: 'text' });
  });
  it('years and footnote stripping', () => {
    expect(parseYear('2023')).toBe(2023);
    expect(parseYear('2021(1)')).toBe(2021);
    expect(parseYear('FY23')).toBe(2023);
    expect(parseYear('12,345')).toBeNull();
    expect(stripFootnotes('Kevin M. Rendino(1)(2)')).toBe('Kevin M. Rendino');
  });
  it('"$" and ")" cells join the amount they belong to, under a header that spans several columns', () => {
    const p = parseHtml(`<table>
      <tr><td>Name</td><td colspan="3">Salary ($)<sup>(2)</sup></td><td colspan="3">Total ($)</td></tr>
      <tr><td>A. Person<sup>1</sup></td><td>$</td><td>1,000</td><td></td><td>$</td><td>(5</td><td>)</td></tr>
    </table>`);
    const grid = toGrid(p.tables[0]);
    const cols = headerColumns(grid, [0]);
    expect(cols.map((c) => c.label)).toEqual(['Name', 'Salary ($)', 'Total ($)']);
    const row = assignRow(grid, 1, cols);
    expect(row.values).toEqual(['A. Person', '$1,000', '$(5)']);
    expect(parseAmount(row.values[2]).value).toBe(-5);
  });
});
