import type { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { p, rangeIssue } from '../core/params.ts';
import { bool, isoDate, jsonList, num, str } from '../core/records.ts';
import { type FootnoteRecord, InsiderTransaction, type OwnerRecord, type SignatureRecord } from '../../schemas/records/insider.ts';
import { insiderPageOrder, insiderTransactionsTable } from '../../schemas/tables/insider.ts';
import { SOURCE } from '../../schemas/sources.ts';

function toRecord(r: Record<string, unknown>): z.infer<typeof InsiderTransaction> {
  return {
    accession: String(r.accession),
    row_seq: Number(r.row_seq),
    form_type: str(r.form_type),
    is_amendment: Boolean(r.is_amendment),
    filed_date: isoDate(r.filed_date)!,
    period_of_report: isoDate(r.period_of_report),
    issuer: { cik: String(r.issuer_cik), name: str(r.issuer_name), ticker: str(r.ticker) },
    owners: jsonList<z.infer<typeof OwnerRecord>>(r.owners),
    relationship: str(r.relationship),
    officer_title: str(r.officer_title),
    derivative: Boolean(r.is_derivative),
    security_title: str(r.security_title),
    transaction_date: isoDate(r.transaction_date),
    deemed_execution_date: isoDate(r.deemed_execution_date),
    trans_code: str(r.trans_code),
    equity_swap_involved: bool(r.equity_swap_involved),
    shares: num(r.shares),
    price_per_share: num(r.price_per_share),
    price_footnote: str(r.price_footnote),
    acquired_disposed: str(r.acquired_disposed),
    value_usd: num(r.value_usd),
    shares_owned_after: num(r.shares_owned_after),
    value_owned_after: num(r.value_owned_after),
    direct_indirect: str(r.direct_indirect),
    nature_of_ownership: str(r.nature_of_ownership),
    conversion_or_exercise_price: num(r.conversion_or_exercise_price),
    exercise_date: isoDate(r.exercise_date),
    expiration_date: isoDate(r.expiration_date),
    underlying_security_title: str(r.underlying_security_title),
    underlying_security_shares: num(r.underlying_security_shares),
    aff10b5one: bool(r.aff10b5one),
    footnotes: jsonList<z.infer<typeof FootnoteRecord>>(r.footnotes),
    signatures: jsonList<z.infer<typeof SignatureRecord>>(r.signatures),
    source: SOURCE.sec_insider_transactions,
    source_kind: String(r.source_kind),
    source_url: str(r.source_url),
  };
}

const TRANSACTION_CODES = 'PSVADFIMCEHOXGLWZJKU';

const params = {
  issuer_cik: p.cik({ description: 'Issuer CIK (leading zeros optional).' }),
  owner_cik: p.cik({ description: 'CIK of any reporting owner of the filing.' }),
  ticker: p.str({
    upper: true,
    pattern: /^[A-Z0-9.-]{1,10}$/,
    patternText: '^[A-Za-z0-9.-]{1,10}$',
    description: 'Issuer trading symbol as filed (case-insensitive).',
    example: 'AAPL',
  }),
  issuer: p.str({ maxLength: 200, description: 'Case-insensitive substring of the issuer name.' }),
  owner: p.str({ maxLength: 200, description: "Case-insensitive substring of any reporting owner's name." }),
  trans_code: p.csv({
    upper: true,
    item: new RegExp(`^[${TRANSACTION_CODES}]$`),
    itemText: `^[${TRANSACTION_CODES}]$`,
    description: 'Transaction code, or several comma-separated (e.g. P,S).',
    example: 'P',
  }),
  acquired_disposed: p.enum(['A', 'D'] as const, { upper: true, description: 'A acquired, D disposed.' }),
  derivative: p.bool({ description: 'true: Table II rows only; false: Table I rows only.' }),
  date_from: p.date({ description: 'Earliest transaction date, YYYY-MM-DD.' }),
  date_to: p.date({ description: 'Latest transaction date, YYYY-MM-DD.' }),
  min_value_usd: p.int({ ge: 0, description: 'Minimum shares × price, USD (rows without a price never match).' }),
};

const list = defineList({
  path: '/v1/insider',
  summary: 'Insider transactions (Forms 3/4/5)',
  description:
    'One row per non-derivative or derivative transaction of a Form 3/4/5 filing, newest filing first, ' +
    'with issuer, every reporting owner and relationship, shares, price (or its footnote), ' +
    'acquired/disposed, shares owned after, direct/indirect and resolved footnotes. Holdings reported ' +
    'without a transaction are in the lake table insider_holdings.',
  tag: 'Insider transactions',
  source: SOURCE.sec_insider_transactions,
  table: insiderTransactionsTable,
  params,
  filters: {
    issuer_cik: f.eq('issuer_cik'),
    // owner_ciks holds fixed-width 10-digit CIKs separated by commas, so a substring match is an exact match.
    owner_cik: f.sql(['owner_ciks'], (v: string, b) => `contains(coalesce("owner_ciks", ''), ${b.param(v)})`),
    ticker: f.eq('ticker'),
    issuer: f.contains('issuer_name'),
    owner: f.contains('owner_names'),
    trans_code: f.inList('trans_code'),
    acquired_disposed: f.eq('acquired_disposed'),
    derivative: f.eq('is_derivative'),
    date_from: f.gte('transaction_date'),
    date_to: f.lte('transaction_date'),
    min_value_usd: f.gte('value_usd'),
  },
  validate: (v) => [rangeIssue(v, 'date_from', 'date_to')],
  // The quarters' key indexes locate an owner's rows (TableSpec.keyIndexes): the filter alone scans every owner list.
  bounds: (v) => ({ owner_ciks: v.owner_cik === undefined ? undefined : { in: [v.owner_cik] } }),
  // Newest quarter first: the quarter is the filing date's (ingest/datasets/insider/rows.ts), so the order is the same
  // as by date alone, and a page reads the newest quarters until it is full instead of every quarter's file
  // (docs/layouts.md).
  orderBy: [{ column: 'filed_quarter', dir: 'desc' }, ...insiderPageOrder],
  walk: { windows: true },
  record: InsiderTransaction,
  toRecord,
});

export default [list];
