import { defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { bool, num, str } from '../core/records.ts';
import { StatementFact } from '../../schemas/records/financial-statements.ts';
import { financialStatementsTable } from '../../schemas/tables/financial-statements.ts';
import { SIC_PATTERN } from '../entities/filters.ts';
import { SOURCE } from '../../schemas/sources.ts';

export default [
  defineList({
    path: '/v1/financial-statements',
    summary: 'Financial Statement Data Sets facts',
    description: 'Numeric facts of the face financial statements per filing from the quarterly Financial Statement Data Sets (num ⋈ sub ⋈ tag).',
    tag: 'Financials',
    source: SOURCE.sec_fsds,
    table: financialStatementsTable,
    params: {
      cik: p.int({ ge: 1, le: 9_999_999_999, description: 'Filer CIK as an integer (leading zeros optional).' }),
      tag: p.str({ pattern: /^[A-Za-z_][A-Za-z0-9_.-]{0,255}$/, description: 'Tag local name, e.g. Revenues (case-sensitive, as published).' }),
      adsh: p.accession({ description: 'Accession number, with or without dashes.' }),
      fiscal_period: p.str({ pattern: /^(FY|Q[1-4]|H[12]|M9|T[1-3])$/i, upper: true, description: 'FY, Q1-Q4, H1, H2, M9 … (sub.fp).' }),
      sic: p.str({ pattern: SIC_PATTERN, description: 'SIC code of the filer.' }),
      uom: p.str({ pattern: /^[A-Za-z0-9_\-/.*]{1,40}$/, description: 'Unit: USD, shares, pure … (case-insensitive).' }),
      ddate_from: p.date({ description: 'Value date on or after (YYYY-MM-DD).' }),
      ddate_to: p.date({ description: 'Value date on or before (YYYY-MM-DD).' }),
      min_value: p.float({ description: 'Value >= this.' }),
      max_value: p.float({ description: 'Value <= this.' }),
    },
    filters: {
      cik: f.sql(['cik'], (v: number, b) => `cik = ${b.param(String(v).padStart(10, '0'))}`),
      tag: f.eq('tag'),
      adsh: f.eq('adsh'),
      fiscal_period: f.eq('fiscal_period'),
      sic: f.sql(['sic'], (v: string, b) => `sic = ${b.param(v.padStart(4, '0'))}`),
      uom: f.ieq('uom'),
      ddate_from: f.sql(['ddate'], (v: string, b) => `ddate >= ${b.param(v)}::DATE`),
      ddate_to: f.sql(['ddate'], (v: string, b) => `ddate <= ${b.param(v)}::DATE`),
      min_value: f.gte('value'),
      max_value: f.lte('value'),
    },
    validate: (v) => [rangeIssue(v, 'ddate_from', 'ddate_to'), rangeIssue(v, 'min_value', 'max_value')],
    orderBy: (['cik', 'adsh', 'tag', 'version', 'ddate', 'qtrs', 'uom', 'segments', 'coreg'] as const).map((column) => ({ column, dir: 'asc' as const })),
    record: StatementFact,
    toRecord: (r) => ({
      adsh: String(r.adsh),
      cik: String(r.cik),
      company_name: String(r.company_name),
      sic: str(r.sic),
      form: str(r.form),
      fiscal_year: num(r.fiscal_year),
      fiscal_period: str(r.fiscal_period),
      period: str(r.period),
      filed: str(r.filed),
      prevrpt: bool(r.prevrpt),
      tag: String(r.tag),
      version: String(r.version),
      is_custom: bool(r.is_custom),
      tag_label: str(r.tag_label),
      datatype: str(r.datatype),
      iord: str(r.iord),
      crdr: str(r.crdr),
      ddate: String(r.ddate),
      qtrs: Number(r.qtrs),
      uom: String(r.uom),
      segments: str(r.segments),
      coreg: str(r.coreg),
      value: num(r.value),
      footnote: str(r.footnote),
      dataset_quarter: String(r.dataset_quarter),
      source: SOURCE.sec_fsds,
      source_url: `https://www.sec.gov/Archives/edgar/data/${Number(r.cik)}/${String(r.adsh).replace(/-/g, '')}/${r.adsh}-index.htm`,
    }),
  }),
];
