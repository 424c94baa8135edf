import { csvRows, HeaderMap } from '../common/csv.ts';
import { cleanText, toBool, toInt, toNumber } from '../common/normalize.ts';
import { IAPD_FIRM_URL } from './adviser-row.ts';
import type { RowOf } from '../../../schemas/table.ts';
import type { privateFundsTable } from '../../../schemas/tables/private-funds.ts';

type PrivateFundRow = RowOf<typeof privateFundsTable>;
/** Columns that come from the adviser's filing (withFiling), not from the fund's own line. */
type FilingColumn =
  | 'crd'
  | 'crd_int'
  | 'sec_number'
  | 'firm_name'
  | 'firm_legal_name'
  | 'filer_type'
  | 'control_person'
  | 'filing_id'
  | 'date_submitted'
  | 'source_url';
/** A fund's own columns, as read from its Schedule D 7.B.(1) line. */
export type FundColumns = Omit<PrivateFundRow, FilingColumn | 'as_of_date' | 'source_file' | 'source_line'>;

/**
 * Form ADV Part 1 filing data (monthly `ADV_Filing_Data_<from>_<to>.zip`, one CSV per section, keyed by
 * FilingID). Only the Base tables (firm identity) and Schedule D 7.B.(1) are read here.
 */

export type Section = 'base' | 'funds' | null;

export function sectionOf(memberName: string): { section: Section; filerType: 'IA' | 'ERA' } {
  const name = memberName.split('/').pop() ?? memberName;
  const filerType = /^ERA_/i.test(name) ? 'ERA' : 'IA';
  if (/^(IA|ERA)_ADV_Base(_A)?_/i.test(name)) return { section: 'base', filerType };
  if (/^(IA|ERA)_Schedule_D_7B1_\d/i.test(name)) return { section: 'funds', filerType };
  return { section: null, filerType };
}

export interface FilingInfo {
  filingId: number;
  crd: string;
  secNumber: string | null;
  firmName: string | null;
  legalName: string | null;
  /** `YYYY-MM-DD HH:MM:SS`, sortable. */
  submitted: string | null;
  controlPerson: number | null;
  filerType: 'IA' | 'ERA';
}

const BASE_COLUMNS = {
  filing_id: { names: ['FilingID', 'Filing ID'] },
  submitted: { names: ['DateSubmitted', 'Date Submitted'] },
  legal: { names: ['1A'] },
  business: { names: ['1B1', '1B(1)'] },
  sec: { names: ['1D'] },
  crd: { names: ['1E1', '1E(1)', 'Organization CRD#'] },
  ten_a: { names: ['10A'] },
};

/** `06/24/2026 10:37:17 AM` → `2026-06-24 10:37:17`; null when unparsable. */
export function submittedAt(raw: string | null): string | null {
  if (!raw) return null;
  const m = raw.trim().match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]M)?)?$/i);
  if (!m) return null;
  let h = m[4] ? Number(m[4]) : 0;
  if (m[7]) h = (h % 12) + (/p/i.test(m[7]) ? 12 : 0);
  const p2 = (x: number | string) => String(x).padStart(2, '0');
  return `${m[3]}-${p2(m[1])}-${p2(m[2])} ${p2(h)}:${m[5] ?? '00'}:${m[6] ?? '00'}`;
}

export async function* parseBase(
  bytes: AsyncIterable<Buffer | Uint8Array>,
  filerType: 'IA' | 'ERA',
  onBad: (line: number | null, reason: string) => void,
): AsyncGenerator<FilingInfo> {
  let map: HeaderMap<keyof typeof BASE_COLUMNS> | null = null;
  for await (const { fields, line } of csvRows(bytes, { encoding: 'windows-1252', onBad })) {
    if (!map) {
      map = new HeaderMap(fields, BASE_COLUMNS);
      if (!map.has('filing_id') || !map.has('crd')) throw new Error(`ADV base table without FilingID/1E1 columns (found ${fields.slice(0, 8).join(' | ')} …)`);
      continue;
    }
    if (fields.length < map.width) {
      onBad(line, `expected ${map.width} columns, found ${fields.length}`);
      continue;
    }
    const id = toInt(map.get(fields, 'filing_id'));
    const crd = map.get(fields, 'crd')?.replace(/^0+(?=\d)/, '') ?? '';
    if (id == null) {
      onBad(line, `invalid FilingID '${map.get(fields, 'filing_id')}'`);
      continue;
    }
    if (!/^\d{1,10}$/.test(crd)) {
      onBad(line, `FilingID ${id}: invalid CRD '${map.get(fields, 'crd') ?? ''}'`);
      continue;
    }
    const rawSubmitted = map.get(fields, 'submitted');
    const submitted = submittedAt(rawSubmitted);
    if (rawSubmitted && !submitted) onBad(line, `FilingID ${id}: unparsable DateSubmitted '${rawSubmitted}' (row kept)`);
    const tenA = toBool(map.get(fields, 'ten_a'));
    yield {
      filingId: id,
      crd,
      secNumber: cleanText(map.get(fields, 'sec')),
      firmName: cleanText(map.get(fields, 'business')) ?? cleanText(map.get(fields, 'legal')),
      legalName: cleanText(map.get(fields, 'legal')),
      submitted,
      controlPerson: tenA == null ? null : tenA ? 1 : 0,
      filerType,
    };
  }
}

const FUND_COLUMNS = {
  filing_id: { names: ['FilingID', 'Filing ID'] },
  name: { names: ['Fund Name'] },
  fund_id: { names: ['Fund ID', 'Private Fund ID'] },
  reference_id: { names: ['ReferenceID', 'Reference ID'] },
  state: { names: ['State'] },
  country: { names: ['Country'] },
  c1: { names: ['3(c)(1) Exclusion'] },
  c7: { names: ['3(c)(7) Exclusion'] },
  master: { names: ['Master Fund'] },
  feeder: { names: ['Feeder Fund'] },
  master_name: { names: ['Master Fund Name'] },
  master_id: { names: ['Master Fund ID'] },
  fof: { names: ['Fund of Funds'] },
  type: { names: ['Fund Type'] },
  type_other: { names: ['Fund Type Other'] },
  gav: { names: ['Gross Asset Value'] },
  min_inv: { names: ['Minimum Investment'] },
  owners: { names: ['Owners', 'Beneficial Owners'] },
  pct_related: { names: ['%Owned You or Related'] },
  pct_fof: { names: ['%Owned Funds'] },
  pct_non_us: { names: ['%Owned Non-US'] },
  sub: { names: ['Subadviser'] },
  other_ias: { names: ['Other IAs Advise'] },
  solicited: { names: ['Clients Solicited'] },
  reg_d: { names: ['Exempt from Registration'] },
  audit: { names: ['Annual Audit'] },
};

export interface FundRow {
  filingId: number;
  line: number;
  row: FundColumns;
  problems: string[];
}

/** Schedule D 7.B.(1) rows, typed; adviser identity is joined by the caller (FilingID → Base table). */
export async function* parseFunds(bytes: AsyncIterable<Buffer | Uint8Array>, onBad: (line: number | null, reason: string) => void): AsyncGenerator<FundRow> {
  let map: HeaderMap<keyof typeof FUND_COLUMNS> | null = null;
  for await (const { fields, line } of csvRows(bytes, { encoding: 'windows-1252', onBad })) {
    if (!map) {
      map = new HeaderMap(fields, FUND_COLUMNS);
      if (!map.has('filing_id') || !map.has('name'))
        throw new Error(`Schedule D 7.B.(1) table without FilingID/Fund Name columns (found ${fields.slice(0, 8).join(' | ')} …)`);
      continue;
    }
    if (fields.length !== map.width) {
      onBad(line, `expected ${map.width} columns, found ${fields.length}`);
      continue;
    }
    const g = (k: keyof typeof FUND_COLUMNS) => map!.get(fields, k);
    const filingId = toInt(g('filing_id'));
    if (filingId == null) {
      onBad(line, `invalid FilingID '${g('filing_id') ?? ''}'`);
      continue;
    }
    const name = cleanText(g('name'));
    const fundId = cleanText(g('fund_id'));
    const ref = cleanText(g('reference_id'));
    if (!name) {
      onBad(line, `FilingID ${filingId}: fund without a name`);
      continue;
    }
    if (!fundId && !ref) {
      onBad(line, `FilingID ${filingId}: fund '${name}' without Fund ID or ReferenceID`);
      continue;
    }
    const problems: string[] = [];
    const amount = (k: keyof typeof FUND_COLUMNS) => {
      const v = g(k);
      if (v == null) return null;
      const n = toInt(v);
      if (n == null) problems.push(`${k}: unparsable number '${v}'`);
      return n;
    };
    const pct = (k: keyof typeof FUND_COLUMNS) => {
      const v = g(k);
      if (v == null) return null;
      const n = toNumber(v.replace(/%$/, ''));
      if (n == null) problems.push(`${k}: unparsable percentage '${v}'`);
      return n;
    };
    const flag = (k: keyof typeof FUND_COLUMNS) => toBool(g(k));
    yield {
      filingId,
      line,
      problems,
      row: {
        fund_key: fundId ?? `ref:${ref}`,
        fund_id: fundId,
        reference_id: ref,
        full_name: name,
        organized_state: cleanText(g('state')),
        organized_country: cleanText(g('country')),
        exclusion_3c1: flag('c1'),
        exclusion_3c7: flag('c7'),
        is_master: flag('master'),
        is_feeder: flag('feeder'),
        master_fund_name: cleanText(g('master_name')),
        master_fund_id: cleanText(g('master_id')),
        is_fund_of_funds: flag('fof'),
        fund_type: cleanText(g('type')),
        fund_type_other: cleanText(g('type_other')),
        gross_asset_value: amount('gav'),
        gross_asset_value_raw: g('gav'),
        minimum_investment: amount('min_inv'),
        beneficial_owners: amount('owners'),
        pct_owned_related: pct('pct_related'),
        pct_owned_funds_of_funds: pct('pct_fof'),
        pct_owned_non_us: pct('pct_non_us'),
        is_subadviser: flag('sub'),
        other_advisers: flag('other_ias'),
        clients_solicited: flag('solicited'),
        reg_d_exempt: flag('reg_d'),
        annual_audit: flag('audit'),
      },
    };
  }
}

/** Adviser identity columns added to each fund row from its filing. */
export function withFiling(row: FundColumns, f: FilingInfo): FundColumns & Pick<PrivateFundRow, FilingColumn> {
  return {
    ...row,
    crd: f.crd,
    crd_int: Number(f.crd),
    sec_number: f.secNumber,
    firm_name: f.firmName,
    firm_legal_name: f.legalName,
    filer_type: f.filerType,
    control_person: f.controlPerson,
    filing_id: f.filingId,
    date_submitted: f.submitted,
    source_url: `${IAPD_FIRM_URL}${f.crd}`,
  };
}
