import { csvRows, HeaderMap, type ColumnAlias } from '../common/csv.ts';
import { CLIENT_TYPES, emptyRawAdviser, type RawAdviser } from './adviser-row.ts';

/**
 * The monthly roster CSV ("IA_SEC_-_FIRM_ROSTER_FOIA_DOWNLOAD_-_….CSV", Windows-1252). Its layout has changed
 * between 88 and ~448 columns over the years, so every column is found by header name or Form ADV item code.
 */
const ROSTER_COLUMNS = {
  crd: { names: ['Organization CRD#', 'Organization CRD #', 'Organization CRD', 'CRD#', 'CRD Number', 'CRD'] },
  sec_number: { names: ['SEC#', 'SEC Number', 'SEC File Number'] },
  sec_region: { names: ['SEC Region'] },
  firm_type: { names: ['Firm Type'] },
  cik: { names: ['CIK#', 'CIK'] },
  business_name: { names: ['Primary Business Name', 'Business Name'] },
  legal_name: { names: ['Legal Name'] },
  street1: { names: ['Main Office Street Address 1', 'Main Office Street 1'] },
  street2: { names: ['Main Office Street Address 2', 'Main Office Street 2'] },
  city: { names: ['Main Office City'] },
  state: { names: ['Main Office State'] },
  country: { names: ['Main Office Country'] },
  postal_code: { names: ['Main Office Postal Code', 'Main Office Zip Code'] },
  phone: { names: ['Main Office Telephone Number'] },
  sec_status: { names: ['SEC Current Status', 'Current Status'] },
  sec_status_date: { names: ['SEC Status Effective Date', 'Status Effective Date'] },
  latest_filing_date: { names: ['Latest ADV Filing Date'] },
  form_version: { names: ['Form Version'] },
  website: { names: ['Website Address', 'Web Address'] },
  employees: { item: '5A', names: ['Total number of employees'] },
  raum_discretionary: { item: '5F(2)(a)' },
  raum_non_discretionary: { item: '5F(2)(b)' },
  regulatory_aum_total: { item: '5F(2)(c)' },
  accounts_total: { item: '5F(2)(f)' },
  has_private_funds: { item: '7B' },
  private_fund_count: { names: ['Count of Private Funds - 7B(1)', 'Count of Private Funds 7B(1)'] },
  private_fund_gross_assets: { names: ['Total Gross Assets of Private Funds'] },
  disciplinary: { item: '11' },
} satisfies Record<string, ColumnAlias>;

export type RosterColumn = keyof typeof ROSTER_COLUMNS;

/** Columns without which a row cannot be served; a file missing one is refused up front with a clear message. */
const REQUIRED: RosterColumn[] = ['crd'];

export interface RosterRecord {
  raw: RawAdviser;
  line: number;
}

export interface RosterHandlers {
  onBad(line: number | null, reason: string): void;
  onHeader?(map: HeaderMap<RosterColumn>): void;
}

export async function* parseRoster(bytes: AsyncIterable<Buffer | Uint8Array>, h: RosterHandlers): AsyncGenerator<RosterRecord> {
  let map: HeaderMap<RosterColumn> | null = null;
  let clientCols: { letter: string; index: number }[] = [];
  for await (const { fields, line } of csvRows(bytes, { encoding: 'windows-1252', onBad: h.onBad })) {
    if (!map) {
      map = new HeaderMap(fields, ROSTER_COLUMNS);
      const missing = REQUIRED.filter((k) => !map!.has(k));
      if (missing.length) throw new Error(`roster header has no ${missing.join(', ')} column (found: ${fields.slice(0, 8).join(' | ')} …)`);
      // 5D(a)(1) / 5D(1)(a) style: the client-type letter is the lower-case one; count or RAUM columns both work.
      clientCols = map.matching(/^5D\b|^5D\(/i).flatMap(({ header, index }) => {
        const letter = header.match(/\(([a-n])\)/)?.[1];
        return letter ? [{ letter, index }] : [];
      });
      h.onHeader?.(map);
      continue;
    }
    if (fields.length !== map.width) {
      // Excel-saved rosters sometimes end every row with one empty cell; anything else shifts values between columns.
      const extraEmpty = fields.length > map.width && fields.slice(map.width).every((f) => f.trim() === '');
      if (!extraEmpty) {
        h.onBad(line, `expected ${map.width} columns, found ${fields.length}`);
        continue;
      }
    }
    const raw = emptyRawAdviser();
    for (const key of Object.keys(ROSTER_COLUMNS) as RosterColumn[]) {
      if (key === 'website') continue;
      (raw as unknown as Record<string, string | null>)[key] = map.get(fields, key);
    }
    const site = map.get(fields, 'website');
    raw.websites = site ? [site] : [];
    const types = new Set<string>();
    for (const { letter, index } of clientCols) {
      const v = fields[index]?.trim();
      if (v && v !== '0' && v !== '0.00' && !/^n$/i.test(v)) types.add(CLIENT_TYPES[letter]);
    }
    raw.client_types = [...types];
    yield { raw, line };
  }
  if (!map) throw new Error('roster file is empty (no header row)');
}
