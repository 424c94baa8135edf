import { describe, expect, it } from 'vitest';
import { isHeaderRow, parseExhibit21 } from '../../ingest/sources/edgar/archive/ex21.ts';

/**
 * Exhibit 21 header rows (issue #18 item 2): column titles ("Name" / "Organized Under the Laws of" /
 * "Jurisdiction"), sometimes under a date line, in every layout the parser reads. The exhibits are written here in
 * the shapes filers use (an HTML table as produced by filing agents, a paragraph list, plain-text columns, an
 * indented plain-text hierarchy); none is a copy of a fixture.
 */

const names = (body: string) => parseExhibit21(body).rows.map((r) => r.name);

const HTML_TABLE = `<html><body>
<p style="text-align:center"><b>SUBSIDIARIES OF NORTHWIND HOLDINGS, INC.</b></p>
<table style="width:100%;border-collapse:collapse">
<tr><td colspan="2" style="text-align:center"><b>As of December 31, 2024</b></td></tr>
<tr><td style="border-bottom:1px solid"><b>Name</b></td><td style="border-bottom:1px solid"><b>Organized Under the Laws of</b></td></tr>
<tr><td>Northwind Logistics LLC</td><td>Delaware</td></tr>
<tr><td>State Street Terminals, Inc.</td><td>Massachusetts</td></tr>
<tr><td>Name Brand Foods Limited<sup>(1)</sup></td><td>United Kingdom</td></tr>
<tr><td>&#160;</td><td>&#160;</td></tr>
<tr><td>Northwind Trading (Shanghai) Co., Ltd.</td><td>China</td></tr>
</table>
<p>(1) Doing business as Northwind Foods.</p>
</body></html>`;

const HTML_THREE_COLUMNS = `<html><body><table>
<tr><td><font size="2"><b>Exact Name of Subsidiary</b></font></td><td><b>Percentage Owned</b></td>
<td><b>Jurisdiction of Incorporation or Organization</b></td></tr>
<tr><td><font size="2">Contoso Energy Partners, L.P.</font></td><td>60%</td><td>Texas</td></tr>
<tr><td><font size="2">Contoso Pipeline GmbH</font></td><td>100</td><td>Germany</td></tr>
</table></body></html>`;

const HTML_PARAGRAPHS = `<html><body>
<p>EXHIBIT 21.1</p>
<p>LIST OF SUBSIDIARIES</p>
<p>Name of Subsidiary (Jurisdiction of Organization)</p>
<p>Fabrikam Robotics, Inc. (Delaware)</p>
<p>Fabrikam Robotics B.V. (Netherlands)</p>
</body></html>`;

const TEXT_COLUMNS = `<TYPE>EX-21
<TEXT>
                                                        EXHIBIT 21

                       SUBSIDIARIES OF THE REGISTRANT

                                                   As of March 1, 2001
                                                     State or Other
                                                   Jurisdiction of
Name                                               Incorporation
----                                               -------------
Adventure Works Corporation                        Ohio
Adventure Works International, Ltd.                Bermuda
Blue Yonder Airlines, Inc.                         Delaware
</TEXT>`;

const TEXT_INDENTED = `                         Organized Under
Name                     the Laws of
Litware, Inc.            Delaware
    Litware Europe Limited    Ireland
        Litware GmbH          Germany
Proseware Corp.          California
`;

describe('Exhibit 21 header rows are never subsidiaries', () => {
  it('HTML table: a date line above "Name | Organized Under the Laws of"; real names with title words stay', () => {
    const ex = parseExhibit21(HTML_TABLE);
    expect(names(HTML_TABLE)).toEqual([
      'Northwind Logistics LLC',
      'State Street Terminals, Inc.',
      'Name Brand Foods Limited',
      'Northwind Trading (Shanghai) Co., Ltd.',
    ]);
    expect(ex.rows[0]).toEqual({ name: 'Northwind Logistics LLC', jurisdiction: 'Delaware', ownership_percent: null, level: 0, parent: null });
    expect(ex.rows[2]!.jurisdiction).toBe('United Kingdom');
  });

  it('HTML table with a percent column: "Exact Name of Subsidiary | Percentage Owned | Jurisdiction of …"', () => {
    const ex = parseExhibit21(HTML_THREE_COLUMNS);
    expect(ex.rows.map((r) => [r.name, r.ownership_percent, r.jurisdiction])).toEqual([
      ['Contoso Energy Partners, L.P.', 60, 'Texas'],
      ['Contoso Pipeline GmbH', 100, 'Germany'],
    ]);
  });

  it('"Name (Jurisdiction)" paragraphs: the "Name of Subsidiary (Jurisdiction of Organization)" caption is skipped', () => {
    expect(names(HTML_PARAGRAPHS)).toEqual(['Fabrikam Robotics, Inc.', 'Fabrikam Robotics B.V.']);
  });

  it('plain-text columns: a date line and titles stacked over two lines', () => {
    const ex = parseExhibit21(TEXT_COLUMNS);
    expect(ex.rows.map((r) => [r.name, r.jurisdiction])).toEqual([
      ['Adventure Works Corporation', 'Ohio'],
      ['Adventure Works International, Ltd.', 'Bermuda'],
      ['Blue Yonder Airlines, Inc.', 'Delaware'],
    ]);
  });

  it('indented plain-text hierarchy: the header does not become the parent of the first subsidiary', () => {
    const ex = parseExhibit21(TEXT_INDENTED);
    expect(ex.rows.map((r) => [r.name, r.level, r.parent])).toEqual([
      ['Litware, Inc.', 0, null],
      ['Litware Europe Limited', 1, 'Litware, Inc.'],
      ['Litware GmbH', 2, 'Litware Europe Limited'],
      ['Proseware Corp.', 0, null],
    ]);
  });

  it('isHeaderRow: titles and date lines, not names that contain a title word', () => {
    expect(isHeaderRow(['Name', 'Organized Under the Laws of'])).toBe(true);
    expect(isHeaderRow(['As of December 31, 2024'])).toBe(true);
    expect(isHeaderRow(['Legal Name of Entity', 'Place of Formation', '% Owned'])).toBe(true);
    expect(isHeaderRow(['Name', 'Jurisdiction as of February 1, 2025'])).toBe(true);
    expect(isHeaderRow(['State Street Terminals, Inc.', 'Massachusetts'])).toBe(false);
    expect(isHeaderRow(['Other', 'Delaware'])).toBe(false);
    expect(isHeaderRow(['The Company', 'Delaware'])).toBe(false);
  });
});
