import { defineList, f, likeEscape } from '../core/endpoint.ts';
import { boolDefaultFalse, p } from '../core/params.ts';
import { isoDate, num, str } from '../core/records.ts';
import { HoldingRecord, ManagerRecord } from '../../schemas/records/13f.ts';
import { holdings13f, holdings13fByManager, managers13f } from '../../schemas/tables/13f.ts';
import { SOURCE } from '../../schemas/sources.ts';

/**
 * `?manager=<name substring>`: holdings files cannot prune on a name, so the name is first resolved to manager CIKs
 * on the small `managers_13f` table (of the quarter asked for, when one is), once a request (a keyed filter,
 * `f.keysOf`), and holdings are then filtered by `manager_cik IN (...)`, the same plain column predicate as
 * `?manager=<CIK>`; the CIKs also bound the column, which the quarters' summaries test. A substring matching more than
 * `MAX_RESOLVED_MANAGERS` managers ("CAPITAL") keeps the name as a subquery instead of a huge parameter list.
 */
const MAX_RESOLVED_MANAGERS = 500;
const MANAGER_CIK = /^\d{1,10}$/;

const managerFilter = f.keysOf<string, 'manager_cik'>(['manager_cik'], {
  column: 'manager_cik',
  known: (v) => (MANAGER_CIK.test(v) ? [v.padStart(10, '0')] : null),
  query: (name, b, all) =>
    `SELECT DISTINCT cik AS k FROM "managers_13f" WHERE "manager_name" ILIKE ${b.param(`%${likeEscape(name)}%`)} ESCAPE '\\'` +
    (typeof all.period === 'string' ? ` AND "period" = ${b.param(all.period)}` : ''),
  max: MAX_RESOLVED_MANAGERS,
});

const managers = defineList({
  path: '/v1/managers',
  summary: '13F managers: one row per manager and reporting quarter',
  description:
    'The combined current report of each manager and quarter (original plus amendments; restatements ' +
    'replace, new-holdings amendments add). Newest quarter first, then largest portfolio.',
  tag: '13F',
  source: SOURCE.sec_form_13f,
  table: managers13f,
  params: {
    q: p.str({ description: 'Substring of the manager name (case-insensitive).', maxLength: 200 }),
    aum_min: p.int({ ge: 0, description: 'Minimum reported portfolio value, USD.' }),
  },
  filters: {
    q: f.contains('manager_name'),
    aum_min: f.gte('total_value_usd'),
  },
  orderBy: [
    { column: 'period', dir: 'desc' },
    { column: 'total_value_usd', dir: 'desc' },
    { column: 'cik', dir: 'asc' },
  ],
  record: ManagerRecord,
  toRecord: (r) => ({
    cik: String(r.cik),
    name: str(r.manager_name),
    address: { street1: str(r.street1), street2: str(r.street2), city: str(r.city), state_or_country: str(r.state_or_country), postal_code: str(r.zip_code) },
    period: String(r.period),
    period_of_report: isoDate(r.period_of_report)!,
    filing_date: isoDate(r.filing_date),
    last_filing_date: isoDate(r.last_filing_date),
    report_type: str(r.report_type),
    holdings_count: Number(r.holdings_count),
    total_value_usd: Number(r.total_value_usd),
    value_unit: str(r.value_unit_decision),
    accession_number: String(r.accession_number),
    accessions: typeof r.accessions === 'string' ? JSON.parse(r.accessions) : [],
    amendment_count: Number(r.amendment_count),
    source: SOURCE.sec_form_13f,
    source_url: String(r.source_url),
  }),
});

const holdings = defineList({
  path: '/v1/holdings',
  summary: '13F holdings (information table lines)',
  description:
    'Lines of the current 13F reports, VALUE converted to USD per filing. Newest quarter first; inside a ' +
    'quarter by CUSIP, then manager (with `manager` and no `cusip`: by manager, then CUSIP).',
  tag: '13F',
  source: SOURCE.sec_form_13f,
  table: holdings13f,
  params: {
    manager: p.str({ description: 'Substring of the manager name, or a manager CIK (digits).', maxLength: 200 }),
    cusip: p.str({ upper: true, pattern: /^[0-9A-Z*@#]{6,9}$/, patternText: '^[0-9A-Za-z*@#]{6,9}$', description: '9-character CUSIP (exact).' }),
    issuer: p.str({ description: 'Substring of the issuer name as filed.', maxLength: 200 }),
    min_value: p.int({ ge: 0, description: 'Minimum position value, USD.' }),
    period: p.str({ upper: true, pattern: /^\d{4}Q[1-4]$/, patternText: '^\\d{4}[Qq][1-4]$', description: 'Reporting quarter, e.g. 2024Q4.' }),
    include_superseded: boolDefaultFalse('Also return lines replaced by a later restatement.'),
  },
  filters: {
    manager: managerFilter,
    cusip: f.eq('cusip'),
    issuer: f.contains('issuer_name'),
    min_value: f.gte('value_usd'),
    period: f.eq('period'),
    include_superseded: f.sql(['is_current'], (v: boolean) => (v ? null : '"is_current" = true')),
  },
  // Each quarter's summary of CUSIPs (manager CIKs for the manager-sorted copy: the manager filter's keys bound
  // them) lets a page skip quarters that hold no such key, or none worth `min_value` (docs/read-path.md).
  bounds: (v) => ({
    cusip: v.cusip === undefined ? undefined : { in: [v.cusip] },
    value_usd: v.min_value === undefined ? undefined : { gte: v.min_value },
  }),
  // Newest quarter first: a page is then read from the one quarter file it comes from (api/core/page-query.ts),
  // and inside it the file's own sort order (CUSIP, manager) prunes row groups.
  orderBy: [
    { column: 'period', dir: 'desc' },
    { column: 'cusip', dir: 'asc' },
    { column: 'manager_cik', dir: 'asc' },
    { column: 'accession_number', dir: 'asc' },
    { column: 'line_no', dir: 'asc' },
  ],
  // A manager filter without a CUSIP reads the manager-sorted copy, in manager order, where row groups prune.
  variant: {
    when: (v) => v.manager !== undefined && v.cusip === undefined,
    table: holdings13fByManager,
    orderBy: [
      { column: 'period', dir: 'desc' },
      { column: 'manager_cik', dir: 'asc' },
      { column: 'cusip', dir: 'asc' },
      { column: 'accession_number', dir: 'asc' },
      { column: 'line_no', dir: 'asc' },
    ],
  },
  record: HoldingRecord,
  toRecord: (r) => ({
    issuer: str(r.issuer_name),
    class: str(r.title_of_class),
    cusip: String(r.cusip),
    cusip_valid: Boolean(r.cusip_valid),
    figi: str(r.figi),
    value_usd: num(r.value_usd),
    shares: num(r.shares),
    shares_type: str(r.shares_type),
    put_call: str(r.put_call),
    investment_discretion: str(r.investment_discretion),
    other_manager: str(r.other_manager),
    voting_authority: { sole: num(r.voting_sole), shared: num(r.voting_shared), none: num(r.voting_none) },
    period: String(r.period),
    period_of_report: isoDate(r.period_of_report)!,
    manager_cik: String(r.manager_cik),
    manager_name: str(r.manager_name),
    accession_number: String(r.accession_number),
    filing_date: isoDate(r.filing_date),
    amendment_effect: String(r.amendment_effect),
    is_current: Boolean(r.is_current),
    value_unit: { decision: String(r.value_unit_decision), reason: String(r.value_unit_reason) },
    issuer_entity:
      r.issuer_cik == null
        ? null
        : {
            value: { cik: String(r.issuer_cik), ticker: str(r.issuer_ticker) },
            confidence: Number(r.issuer_match_confidence),
            as_of: isoDate(r.issuer_match_as_of),
          },
    source: SOURCE.sec_form_13f,
    source_url: String(r.source_url),
  }),
});

export default [managers, holdings];
