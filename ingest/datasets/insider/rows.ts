import { quarterOf } from '../../sources/common/normalize.ts';
import type { OwnershipDocument, OwnershipRow, ReportingOwner } from '../../sources/edgar/ownership/form4-xml.ts';
import { filingIndexUrl, type insiderHoldingsTable, type insiderTransactionsTable } from '../../../schemas/tables/insider.ts';
import type { RowOf } from '../../../schemas/table.ts';

/** Lake rows of one parsed ownership document: `insider_transactions` and `insider_holdings`. */

export interface OwnerJson {
  cik: string | null;
  name: string | null;
  relationships: string[];
  officer_title: string | null;
  other_text: string | null;
}

function ownerJson(o: ReportingOwner): OwnerJson {
  return { cik: o.cik, name: o.name, relationships: o.relationships, officer_title: o.officerTitle, other_text: o.otherText };
}

/** What every row needs and a document may lack: the loader checks these (bad row otherwise) before building rows. */
export interface FilingKeys {
  accession: string;
  filedDate: string;
  issuerCik: string;
}

/** Filing-level columns shared by every row of the document. */
function filingColumns(doc: OwnershipDocument, keys: FilingKeys, sourceKind: 'xml' | 'data_set') {
  const owners = doc.owners;
  const any = (k: 'isDirector' | 'isOfficer' | 'isTenPercentOwner' | 'isOther') => owners.some((o) => o[k]);
  const rel = ['Director', 'Officer', 'TenPercentOwner', 'Other'].filter((r) => owners.some((o) => o.relationships.includes(r)));
  const { accession, filedDate } = keys;
  return {
    accession,
    form_type: doc.documentType,
    is_amendment: doc.isAmendment,
    filed_date: filedDate,
    filed_quarter: quarterOf(filedDate),
    period_of_report: doc.periodOfReport,
    date_of_orig_sub: doc.dateOfOriginalSubmission,
    issuer_cik: keys.issuerCik,
    issuer_name: doc.issuer.name,
    ticker: doc.issuer.tradingSymbol,
    owner_cik: owners[0]?.cik ?? null,
    owner_name: owners[0]?.name ?? null,
    owner_ciks:
      owners
        .map((o) => o.cik)
        .filter(Boolean)
        .join(',') || null,
    owner_names:
      owners
        .map((o) => o.name)
        .filter(Boolean)
        .join(' | ') || null,
    relationship: rel.join(',') || null,
    is_director: any('isDirector'),
    is_officer: any('isOfficer'),
    is_ten_percent_owner: any('isTenPercentOwner'),
    is_other: any('isOther'),
    officer_title: owners.find((o) => o.officerTitle)?.officerTitle ?? null,
    other_text: owners.find((o) => o.otherText)?.otherText ?? null,
    owners: owners.map(ownerJson),
    aff10b5one: doc.aff10b5One,
    signatures: doc.signatures,
    source_kind: sourceKind,
    source_url: doc.url ?? filingIndexUrl(keys.issuerCik, accession),
  };
}

function positionColumns(r: OwnershipRow) {
  return {
    is_derivative: r.table === 'derivative',
    security_title: r.securityTitle,
    shares_owned_after: r.sharesOwnedAfter,
    value_owned_after: r.valueOwnedAfter,
    direct_indirect: r.directIndirect,
    nature_of_ownership: r.natureOfOwnership,
    conversion_or_exercise_price: r.conversionOrExercisePrice,
    exercise_date: r.exerciseDate,
    expiration_date: r.expirationDate,
    underlying_security_title: r.underlyingSecurityTitle,
    underlying_security_shares: r.underlyingSecurityShares,
    underlying_security_value: r.underlyingSecurityValue,
    footnotes: r.footnotes,
  };
}

/** The date a bare XML (no container header) is filed under: its latest signature, else its period. */
export function fallbackFiledDate(doc: OwnershipDocument): string | null {
  const sig = doc.signatures
    .map((s) => s.date)
    .filter((d): d is string => !!d)
    .sort()
    .pop();
  return doc.filedDate ?? sig ?? doc.periodOfReport;
}

export function ownershipLakeRows(
  doc: OwnershipDocument,
  keys: FilingKeys,
): {
  transactions: RowOf<typeof insiderTransactionsTable>[];
  holdings: RowOf<typeof insiderHoldingsTable>[];
} {
  const filing = filingColumns(doc, keys, 'xml');
  // Table I rows precede Table II in the XML, so document order already matches the data set's row_seq order.
  const transactions = doc.rows
    .filter((r) => r.kind === 'transaction')
    .map((r, i) => ({
      ...filing,
      ...positionColumns(r),
      row_seq: i + 1,
      transaction_date: r.transactionDate,
      deemed_execution_date: r.deemedExecutionDate,
      trans_form_type: r.transactionFormType,
      trans_code: r.transactionCode,
      equity_swap_involved: r.equitySwapInvolved,
      transaction_timeliness: r.transactionTimeliness,
      shares: r.shares,
      total_value: r.totalValue,
      price_per_share: r.pricePerShare,
      price_footnote: r.priceFootnote,
      acquired_disposed: r.acquiredDisposed,
      value_usd: r.valueUsd,
    }));
  const holdings = doc.rows.filter((r) => r.kind === 'holding').map((r, i) => ({ ...filing, ...positionColumns(r), row_seq: i + 1 }));
  return { transactions, holdings };
}
