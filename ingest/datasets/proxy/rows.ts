import { createHash } from 'node:crypto';
import type { NormalizedName } from '../../sources/common/person-names.ts';
import type { ProxyExtraction } from '../../sources/edgar/proxy/extract.ts';
import type { ProxyFilingMeta } from '../../sources/edgar/proxy/submission.ts';
import type { RowOf } from '../../../schemas/table.ts';
import type { boardMembersTable } from '../../../schemas/tables/board.ts';
import type { proxyCompensationTable, proxyOfficersTable } from '../../../schemas/tables/proxy.ts';

/** Lake rows of one proxy statement, for the three tables it feeds. Pure, so tests can assert them. */

export interface ProxyRows {
  officers: RowOf<typeof proxyOfficersTable>[];
  compensation: RowOf<typeof proxyCompensationTable>[];
  board: RowOf<typeof boardMembersTable>[];
}

function nameCols(n: NormalizedName) {
  return { name_key: n.key, name_first: n.first || null, name_middle: n.middle || null, name_last: n.last, name_suffix: n.suffix };
}

export function filingIdOf(meta: ProxyFilingMeta, content: string): string {
  return meta.accession ?? `doc:${createHash('sha1').update(content).digest('hex').slice(0, 16)}`;
}

export function proxyRows(meta: ProxyFilingMeta, x: ProxyExtraction, opts: { filingId: string; fiscalYear: number; sourceUrl: string | null }): ProxyRows {
  const out: ProxyRows = { officers: [], compensation: [], board: [] };
  const filers = meta.filers.length ? meta.filers : [{ cik: meta.cik!, name: meta.issuerName }];
  for (const f of filers) {
    const rows = rowsForIssuer(meta, x, { ...opts, cik: f.cik, issuerName: f.name ?? meta.issuerName, multi: filers.length > 1 });
    out.officers.push(...rows.officers);
    out.compensation.push(...rows.compensation);
    out.board.push(...rows.board);
  }
  return out;
}

function rowsForIssuer(
  meta: ProxyFilingMeta,
  x: ProxyExtraction,
  opts: { filingId: string; fiscalYear: number; sourceUrl: string | null; cik: string; issuerName: string | null; multi: boolean },
): ProxyRows {
  const cik = opts.cik;
  // One filing for several registrants gets one row per registrant; the id then names the registrant.
  const id = opts.multi ? `${opts.filingId}:${cik}` : opts.filingId;
  const filing = {
    filing_id: opts.filingId,
    accession_number: meta.accession,
    filed_date: meta.filedDate,
    form_type: meta.formType,
    proxy_fiscal_year: opts.fiscalYear,
    source_url: opts.sourceUrl,
  };
  const officers = x.people.map((p) => ({
    record_id: `${id}:${p.name.key}`,
    cik,
    issuer: opts.issuerName,
    ...filing,
    name: p.printed,
    ...nameCols(p.name),
    title: p.title,
    is_director: p.isDirector === true,
    is_officer: p.isOfficer === true,
    is_independent: p.isIndependent,
    age: p.age,
    director_since: p.directorSince,
    officer_since: p.officerSince,
    confidence: p.confidence,
    found_in: JSON.stringify(p.foundIn),
  }));
  const pvpByYear = new Map(x.pvp.map((y) => [y.fiscalYear, y]));
  const compensation = x.compensation
    .filter((c): c is typeof c & { fiscalYear: number } => c.fiscalYear !== null)
    .map((c) => ({
      record_id: `${id}:${c.tableKind}:${c.name.key}:${c.fiscalYear}`,
      filer_cik: cik,
      issuer_name: opts.issuerName,
      ...filing,
      table_kind: c.tableKind,
      executive_name: c.printed,
      ...nameCols(c.name),
      title: c.title,
      is_director: c.isDirector,
      fiscal_year: c.fiscalYear,
      salary_usd: c.salary,
      bonus_usd: c.bonus,
      stock_awards_usd: c.stockAwards,
      option_awards_usd: c.optionAwards,
      non_equity_incentive_usd: c.nonEquityIncentive,
      pension_deferred_usd: c.pensionDeferred,
      other_usd: c.otherComp,
      fees_cash_usd: c.feesCash,
      aggregate_comp_usd: c.aggregateComp,
      total_usd: c.total,
      total_checks: c.totalChecks,
      pvp_verified: c.pvpVerified,
      pvp_compensation_actually_paid_usd: c.pvpVerified ? (pvpByYear.get(c.fiscalYear)?.peoActuallyPaid ?? null) : null,
      confidence: c.confidence,
    }));
  const board = x.people
    .filter((p) => p.isDirector)
    .map((p) => {
      const roles = ['director', ...(p.isOfficer ? ['officer'] : [])];
      return {
        record_id: `sec_proxy:${id}:${p.name.key}`,
        source_partition: `sec_proxy-${opts.fiscalYear}`,
        source_type: 'sec_proxy',
        org_id: cik,
        sec_cik: cik,
        ein: null,
        organization_name: opts.issuerName ?? cik,
        person_name: p.printed,
        ...nameCols(p.name),
        title: p.title,
        role: 'director',
        roles: roles.join(','),
        is_director: true,
        is_officer: p.isOfficer === true,
        is_key_employee: null,
        is_highest_compensated: null,
        is_former: null,
        is_institutional_trustee: null,
        is_independent: p.isIndependent,
        age: p.age,
        director_since: p.directorSince,
        average_hours_per_week: null,
        average_hours_related_orgs: null,
        reportable_comp_usd: null,
        reportable_comp_related_usd: null,
        other_comp_usd: null,
        benefit_program_usd: null,
        expense_allowance_usd: null,
        fiscal_year: opts.fiscalYear,
        period_end: null,
        form_type: meta.formType,
        accession_number: meta.accession,
        object_id: null,
        filed_date: meta.filedDate,
        confidence: p.confidence,
        found_in: JSON.stringify(p.foundIn),
        source_url: opts.sourceUrl,
      };
    });
  return { officers, compensation, board };
}
