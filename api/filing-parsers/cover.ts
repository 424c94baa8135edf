import { parseCoverPage } from '../../ingest/sources/edgar/index.ts';
import { parseCost } from '../../schemas/plans.ts';
import { CoverRecord } from '../../schemas/records/filing-parsers.ts';
import { defineRoute } from '../core/endpoint.ts';
import { notFound } from '../core/errors.ts';
import { accessionPath, cikParam, COST, envelope, formOf, loadDerived, loadManifest, SOURCE, TAG, wrongForm } from './filing-access.ts';

/** Forms whose first page is the standard Exchange Act cover (transition reports and amendments included). */
const COVER_FORMS = /^(10-K|10-KT|10-Q|10-QT|8-K|20-F|40-F)(\/A)?$/;

export default defineRoute({
  method: 'get',
  path: '/v1/filings/{accession}/cover',
  summary: 'Cover page facts of a 10-K, 10-Q, 8-K, 20-F or 40-F',
  description:
    'Registrant name, CIK, file number, period or date of report, fiscal year end and focus, filer category, ' +
    'shares outstanding with their date, public float, registered securities with symbols and exchanges, ' +
    'state of incorporation, IRS number, address, phone and the check marks (well-known seasoned issuer, shell ' +
    'company, emerging growth company). Read from the inline XBRL dei: facts (method ixbrl) or, for documents ' +
    'without inline XBRL, from the printed cover (method text). 422 for other forms.',
  tag: TAG,
  source: SOURCE,
  pathParams: accessionPath,
  params: cikParam,
  record: CoverRecord,
  cost: COST,
  async handler({ path, query, services, setCost }) {
    const m = await loadManifest(services, path.accession!, query.cik);
    const { form, primary } = await formOf(services, m);
    if (!form || !COVER_FORMS.test(form))
      throw wrongForm(m.accession, `Filing ${m.accession} is a ${form ?? 'filing of unknown form'}; cover pages are read from 10-K, 10-Q, 8-K, 20-F and 40-F`);
    if (!primary) throw notFound(`Filing ${m.accession} has no primary document`);
    const { value: cover, fetchedBytes, textBytes } = await loadDerived(services, m, primary, 'cover', parseCoverPage);
    setCost(parseCost(fetchedBytes + textBytes));
    const { method, fields_from_text, ...facts } = cover;
    return envelope(
      m,
      [
        {
          accession: m.accession,
          form,
          method,
          fields_from_text,
          ...facts,
          date_of_report: /^8-K/.test(form) ? facts.period_of_report : null,
          document: primary.file_name,
          source_url: primary.url,
        },
      ],
      { form },
    );
  },
});
