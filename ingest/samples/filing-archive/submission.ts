import { ITEMS_8K } from '../../sources/edgar/archive/items.ts';
import { type ArchiveDocument, compactDate, type SampleArchiveFiling } from './filing.ts';

/**
 * The complete submission text file (`{accession}.txt`): the SGML header the regulator writes (`.txt` dialect,
 * docs/formats/01-edgar-indexes.md) with one block per party, then every document between `<DOCUMENT>` tags.
 * ingest/sources/edgar/sgml.ts reads it when a filing has no index page.
 */
export function submissionText(f: SampleArchiveFiling, docs: ArchiveDocument[]): string {
  const filed = compactDate(f.filedDate);
  const accepted = f.accepted ? f.accepted.replace(/[-: ]/g, '') : `${filed}000000`;
  const header = [
    `<SEC-DOCUMENT>${f.accession}.txt : ${filed}`,
    `<SEC-HEADER>${f.accession}.hdr.sgml : ${filed}`,
    `<ACCEPTANCE-DATETIME>${accepted}`,
    `ACCESSION NUMBER:\t\t${f.accession}`,
    `CONFORMED SUBMISSION TYPE:\t${f.form}`,
    `PUBLIC DOCUMENT COUNT:\t\t${docs.length}`,
    ...(f.reportDate ? [`CONFORMED PERIOD OF REPORT:\t${compactDate(f.reportDate)}`] : []),
    ...f.items.map((i) => `ITEM INFORMATION:\t\t${ITEMS_8K[i] ?? 'Other Events'}`),
    `FILED AS OF DATE:\t\t${filed}`,
    `DATE AS OF CHANGE:\t\t${filed}`,
    '',
  ];
  for (const cik of f.ciks) {
    const isOwner = f.owner?.cik === cik;
    header.push(f.owner ? (isOwner ? 'REPORTING-OWNER:' : 'ISSUER:') : 'FILER:', '');
    header.push('\tCOMPANY DATA:\t', `\t\tCOMPANY CONFORMED NAME:\t\t\t${isOwner ? f.owner!.name : f.company}`, `\t\tCENTRAL INDEX KEY:\t\t\t${cik}`, '');
  }
  header.push('</SEC-HEADER>');
  const bodies = docs.flatMap((d) => {
    const xml = /\.xml$/i.test(d.fileName);
    return [
      '<DOCUMENT>',
      `<TYPE>${d.type}`,
      `<SEQUENCE>${d.sequence}`,
      `<FILENAME>${d.fileName}`,
      `<DESCRIPTION>${d.description}`,
      '<TEXT>',
      ...(xml ? ['<XML>', d.body.trimEnd(), '</XML>'] : [d.body.trimEnd()]),
      '</TEXT>',
      '</DOCUMENT>',
    ];
  });
  return `${[...header, ...bodies, '</SEC-DOCUMENT>'].join('\n')}\n`;
}
