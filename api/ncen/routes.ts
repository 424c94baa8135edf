import { z } from 'zod';
import { defineList, f } from '../core/endpoint.ts';
import { p } from '../core/params.ts';
import { fundProviders } from '../../schemas/tables/ncen.ts';
import { PROVIDER_ROLES } from '../../ingest/sources/edgar/index.ts';
import { bool, day, str } from '../13f/records.ts';

const SOURCE = 'sec_form_ncen';
const ROLES = [...new Set(Object.values(PROVIDER_ROLES))] as [string, ...string[]];

const ProviderRecord = z.object({
  accession_number: z.string(),
  filer_cik: z.string(),
  registrant_name: z.string().nullable(),
  series_id: z.string().nullable().describe('Null for registrant-level roles (auditor, underwriter).'),
  fund_name: z.string().nullable(),
  role: z.string().describe(`One of: ${ROLES.join(', ')}.`),
  provider: z.object({
    name: z.string(), cik: z.string().nullable(), lei: z.string().nullable(), file_number: z.string().nullable(), crd: z.string().nullable(),
    state: z.string().nullable(), country: z.string().nullable(),
  }),
  is_affiliated: z.boolean().nullable(),
  report_period_end: z.string(),
  filing_date: z.string().nullable(),
  source: z.string(),
  source_url: z.string(),
});

export default [
  defineList({
    path: '/v1/funds/providers',
    summary: 'Fund service providers (Form N-CEN)',
    tag: 'Funds',
    source: SOURCE,
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
    orderBy: [{ column: 'report_year', dir: 'desc' }, { column: 'filer_cik', dir: 'asc' }, { column: 'accession_number', dir: 'asc' }, { column: 'provider_no', dir: 'asc' }],
    record: ProviderRecord,
    toRecord: (r) => ({
      accession_number: String(r.accession_number),
      filer_cik: String(r.filer_cik),
      registrant_name: str(r.registrant_name),
      series_id: str(r.series_id),
      fund_name: str(r.fund_name),
      role: String(r.role),
      provider: {
        name: String(r.provider_name), cik: str(r.provider_cik), lei: str(r.provider_lei), file_number: str(r.provider_file_number),
        crd: str(r.provider_crd), state: str(r.state), country: str(r.country),
      },
      is_affiliated: bool(r.is_affiliated),
      report_period_end: day(r.report_period_end)!,
      filing_date: day(r.filing_date),
      source: SOURCE,
      source_url: String(r.source_url),
    }),
  }),
];
