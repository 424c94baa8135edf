import { defineList, f } from '../core/endpoint.ts';
import { p } from '../core/params.ts';
import { bool, isoDate, str } from '../core/records.ts';
import { ProviderRecord } from '../../schemas/records/ncen.ts';
import { fundProviders } from '../../schemas/tables/ncen.ts';
import { PROVIDER_ROLES } from '../../ingest/sources/edgar/index.ts';
import { SOURCE } from '../../schemas/sources.ts';

const ROLES = [...new Set(Object.values(PROVIDER_ROLES))] as [string, ...string[]];

export default [
  defineList({
    path: '/v1/funds/providers',
    summary: 'Fund service providers (Form N-CEN)',
    tag: 'Funds',
    source: SOURCE.sec_form_ncen,
    table: fundProviders,
    params: {
      filer_cik: p.cik({ description: 'Registrant CIK.' }),
      role: p.enum(ROLES, { lower: true, description: 'Provider role, lower case.' }),
      provider_cik: p.cik(),
      provider: p.str({ maxLength: 200, description: 'Substring of the provider name.' }),
      is_affiliated: p.bool(),
      accession_number: p.accession(),
    },
    filters: {
      filer_cik: f.eq('filer_cik'),
      role: f.eq('role'),
      provider_cik: f.eq('provider_cik'),
      provider: f.contains('provider_name'),
      is_affiliated: f.eq('is_affiliated'),
      accession_number: f.eq('accession_number'),
    },
    orderBy: [
      { column: 'report_year', dir: 'desc' },
      { column: 'filer_cik', dir: 'asc' },
      { column: 'accession_number', dir: 'asc' },
      { column: 'provider_no', dir: 'asc' },
    ],
    record: ProviderRecord,
    toRecord: (r) => ({
      accession_number: String(r.accession_number),
      filer_cik: String(r.filer_cik),
      registrant_name: str(r.registrant_name),
      series_id: str(r.series_id),
      fund_name: str(r.fund_name),
      role: String(r.role),
      provider: {
        name: String(r.provider_name),
        cik: str(r.provider_cik),
        lei: str(r.provider_lei),
        file_number: str(r.provider_file_number),
        crd: str(r.provider_crd),
        state: str(r.state),
        country: str(r.country),
      },
      is_affiliated: bool(r.is_affiliated),
      report_period_end: isoDate(r.report_period_end)!,
      filing_date: isoDate(r.filing_date),
      source: SOURCE.sec_form_ncen,
      source_url: String(r.source_url),
    }),
  }),
];
