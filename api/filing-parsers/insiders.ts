import type { z } from 'zod';
import { OwnershipXmlError, parseOwnershipXml, type OwnershipRow } from '../../ingest/sources/edgar/index.ts';
import { parseCost } from '../../schemas/plans.ts';
import { type InsiderRowRecord, InsidersRecord } from '../../schemas/records/filing-parsers.ts';
import { defineRoute } from '../core/endpoint.ts';
import { notFound, LIVE_FETCH_ERRORS } from '../core/errors.ts';
import { accessionPath, cikParam, COST, envelope, loadDocument, loadManifest, SOURCE, TAG, wrongForm } from './filing-access.ts';

function rowRecord(r: OwnershipRow): z.infer<typeof InsiderRowRecord> {
  return {
    seq: r.seq,
    table: r.table,
    kind: r.kind,
    security_title: r.securityTitle,
    transaction_date: r.transactionDate,
    trans_code: r.transactionCode,
    shares: r.shares,
    price_per_share: r.pricePerShare,
    price_footnote: r.priceFootnote,
    acquired_disposed: r.acquiredDisposed,
    shares_owned_after: r.sharesOwnedAfter,
    direct_indirect: r.directIndirect,
    nature_of_ownership: r.natureOfOwnership,
    conversion_or_exercise_price: r.conversionOrExercisePrice,
    exercise_date: r.exerciseDate,
    expiration_date: r.expirationDate,
    underlying_security_title: r.underlyingSecurityTitle,
    underlying_security_shares: r.underlyingSecurityShares,
    value_usd: r.valueUsd,
    footnotes: r.footnotes,
  };
}

const OWNERSHIP_FORMS = /^[345](\/A)?$/;

export default defineRoute({
  method: 'get',
  path: '/v1/filings/{accession}/insiders',
  summary: 'Insider transactions of a Form 3/4/5 filing',
  description:
    'Issuer, reporting owners with their relationship, and every Table I/II transaction and holding ' +
    '(shares, price, A/D, holdings after, footnotes), parsed by the same parser as /v1/insider.',
  tag: TAG,
  source: SOURCE,
  pathParams: accessionPath,
  params: cikParam,
  record: InsidersRecord,
  cost: COST,
  errors: LIVE_FETCH_ERRORS,
  async handler({ path, query, services, setCost }) {
    const m = await loadManifest(services, path.accession!, query.cik);
    const doc =
      m.documents.find((d) => d.type && OWNERSHIP_FORMS.test(d.type) && /\.xml$/i.test(d.file_name ?? '.xml')) ??
      (m.form === null
        ? m.documents.find((d) => /\.xml$/i.test(d.file_name ?? '') && !/^(FilingSummary|primary_doc)\.xml$/i.test(d.file_name ?? ''))
        : undefined);
    if (!doc || (m.form && !OWNERSHIP_FORMS.test(m.form)))
      throw wrongForm(m.accession, `Filing ${m.accession} is a ${m.form ?? 'filing of unknown form'}, not a Form 3, 4 or 5`);
    const { text, fetchedBytes } = await loadDocument(services, m, doc);
    setCost(parseCost(fetchedBytes + text.length));
    let parsed: ReturnType<typeof parseOwnershipXml>;
    try {
      parsed = parseOwnershipXml(text, { accession: m.accession, url: doc.url });
    } catch (err) {
      if (err instanceof OwnershipXmlError) throw notFound(`Filing ${m.accession} has no ownership XML (pre-2003 text filing?)`);
      throw err;
    }
    return envelope(
      m,
      [
        {
          accession: m.accession,
          form_type: parsed.documentType ?? m.form,
          period_of_report: parsed.periodOfReport,
          issuer: { cik: parsed.issuer.cik, name: parsed.issuer.name, ticker: parsed.issuer.tradingSymbol },
          owners: parsed.owners.map((o) => ({
            cik: o.cik,
            name: o.name,
            relationships: o.relationships,
            officer_title: o.officerTitle,
            other_text: o.otherText,
          })),
          transactions: parsed.rows.map(rowRecord),
          footnotes: parsed.footnotes,
          remarks: parsed.remarks,
          signatures: parsed.signatures,
          source_url: doc.url,
        },
      ],
      {},
    );
  },
});
