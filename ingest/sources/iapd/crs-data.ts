import { csvRows, HeaderMap } from '../common/csv.ts';
import { cleanText, padCik, toBool, toInt, toIsoDate } from '../common/normalize.ts';
import type { RowOf } from '../../../schemas/table.ts';
import type { formCrsTable } from '../../../schemas/tables/form-crs.ts';

/**
 * The Form CRS data file listed under `advFirmCRS` in IAPD's reports_metadata.json. Its column layout is not
 * documented (docs/formats/08-form-adv.md §4), so every column is found by any of several plausible header names and a
 * file without a CRD or name column and a date column is refused with the headers it does have.
 */
const CRS_COLUMNS = {
  id: { names: ['Filing ID', 'FilingID', 'Document ID', 'DocumentID', 'CRS ID', 'Version ID'] },
  crd: { names: ['Firm CRD', 'CRD', 'CRD Number', 'Organization CRD#', 'Firm CRD Number'] },
  cik: { names: ['Filer CIK', 'CIK', 'CIK Number'] },
  name: { names: ['Filer Name', 'Firm Name', 'Legal Name', 'Primary Business Name', 'Organization Name'] },
  sec: { names: ['SEC Number', 'SEC#', 'SEC File Number'] },
  sub_type: { names: ['Form Sub Type', 'Form SubType', 'Filing Type', 'Submission Type', 'Sub Type'] },
  date: { names: ['Filing Date', 'Date Filed', 'Filed Date', 'Submission Date', 'Date Submitted', 'DateSubmitted'] },
  disciplinary: { names: ['Disciplinary History', 'Disciplinary History Flag', 'Legal or Disciplinary History', 'Has Disciplinary History'] },
  professionals: { names: ['Number of Financial Professionals', 'Financial Professionals', 'Professionals'] },
  url: { names: ['Document URL', 'URL', 'Link', 'Document Link', 'PDF Link'] },
};

/** A filing's row, less the provenance columns the loader adds (file, line, URL). */
export interface CrsRow {
  line: number;
  row: Omit<RowOf<typeof formCrsTable>, 'source_file' | 'source_line' | 'source_url'>;
}

export async function* parseCrsData(bytes: AsyncIterable<Buffer | Uint8Array>, onBad: (line: number | null, reason: string) => void): AsyncGenerator<CrsRow> {
  let map: HeaderMap<keyof typeof CRS_COLUMNS> | null = null;
  for await (const { fields, line } of csvRows(bytes, { encoding: 'windows-1252', onBad })) {
    if (!map) {
      map = new HeaderMap(fields, CRS_COLUMNS);
      if (!(map.has('crd') || map.has('name')) || !map.has('date'))
        throw new Error(`Form CRS file needs a CRD or name column and a filing-date column (found: ${fields.join(' | ')})`);
      continue;
    }
    if (fields.length !== map.width) {
      onBad(line, `expected ${map.width} columns, found ${fields.length}`);
      continue;
    }
    const g = (k: keyof typeof CRS_COLUMNS) => map!.get(fields, k);
    const rawDate = g('date');
    const filed = toIsoDate(rawDate);
    if (!filed) {
      onBad(line, rawDate ? `unparsable filing date '${rawDate}'` : 'missing filing date');
      continue;
    }
    const crd = g('crd')?.replace(/^0+(?=\d)/, '') ?? null;
    if (crd && !/^\d{1,10}$/.test(crd)) {
      onBad(line, `invalid CRD '${g('crd')}'`);
      continue;
    }
    const name = cleanText(g('name')) ?? (crd ? `CRD ${crd}` : null);
    if (!name) {
      onBad(line, 'neither CRD nor filer name');
      continue;
    }
    const subType = cleanText(g('sub_type'));
    const rawDisc = g('disciplinary');
    const disc = toBool(rawDisc);
    if (rawDisc && disc == null) onBad(line, `disciplinary: expected Y/N, got '${rawDisc}' (row kept, value null)`);
    const rawPros = g('professionals');
    const pros = toInt(rawPros);
    if (rawPros && pros == null) onBad(line, `professionals: unparsable number '${rawPros}' (row kept, value null)`);
    yield {
      line,
      row: {
        filed_month: filed.slice(0, 7),
        filing_key: cleanText(g('id')) ?? `${crd ?? name}|${filed}|${subType ?? ''}`,
        firm_crd: crd,
        filer_cik: padCik(g('cik')),
        filer_name: name,
        sec_number: cleanText(g('sec')),
        form_sub_type: subType,
        filed_date: filed,
        disciplinary_history_flag: disc == null ? null : disc ? 1 : 0,
        professionals: pros,
        document_url: cleanText(g('url')),
      },
    };
  }
}
