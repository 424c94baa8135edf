import type { ArchiveDocument, SampleArchiveFiling } from './filing.ts';

/**
 * The full-text index's hits for a filing: one per document, `_id` = `{accession}:{file name}`, with the `_source`
 * members the regulator's search returns (docs/formats/11-efts-full-text-search.md). The loopback archive answers
 * `/LATEST/search-index` from these, matching the query against each document's text.
 */
export function eftsHitsOf(f: SampleArchiveFiling, docs: ArchiveDocument[]) {
  const rootForm = f.form.replace(/\/A$/, '');
  const issuer = `${f.company}  ${f.ticker ? `(${f.ticker})  ` : ''}(CIK ${f.ciks[0]})`;
  const displayNames = f.ciks.map((cik) => (f.owner?.cik === cik ? `${f.owner.name}  (CIK ${cik})` : issuer));
  return docs.map((d) => ({
    _index: 'edgar_file',
    _id: `${f.accession}:${d.fileName}`,
    _score: 1,
    _source: {
      ciks: f.ciks,
      period_ending: f.reportDate,
      display_names: displayNames,
      sequence: d.sequence,
      root_forms: [rootForm],
      file_date: f.filedDate,
      form: f.form,
      adsh: f.accession,
      file_type: d.type,
      file_description: d.description,
      items: f.items,
    },
  }));
}
