import { defineList, f } from '../core/endpoint.ts';
import { p } from '../core/params.ts';
import { bool, int, isoDate, jsonList, str } from '../core/records.ts';
import { ProxyOfficer } from '../../schemas/records/proxy.ts';
import { proxyOfficersTable } from '../../schemas/tables/proxy.ts';
import { minConfidenceParam, personNameFilter } from '../board/common.ts';
import { SOURCE } from '../../schemas/sources.ts';

export default [
  defineList({
    path: '/v1/proxy/officers',
    summary: 'Directors and executive officers named in DEF 14A proxy statements',
    description:
      'One row per person per proxy statement, merged across the director table, director bios, the ' +
      'summary compensation table and the director/fund compensation tables.',
    tag: 'Board and compensation',
    source: SOURCE.sec_proxy,
    table: proxyOfficersTable,
    params: {
      cik: p.cik({ description: 'Issuer CIK.' }),
      accession_number: p.accession(),
      issuer: p.str({ maxLength: 200, description: 'Substring of the issuer name.' }),
      name: p.str({ maxLength: 200, description: 'Person name, matched on normalized first/last name.' }),
      title: p.str({ maxLength: 200, description: 'Substring of the title.' }),
      is_independent: p.bool(),
      min_age: p.int({ ge: 0, le: 150 }),
      min_confidence: minConfidenceParam(),
    },
    filters: {
      cik: f.eq('cik'),
      accession_number: f.eq('accession_number'),
      issuer: f.contains('issuer'),
      name: personNameFilter(),
      title: f.contains('title'),
      is_independent: f.sql(['is_independent'], (v: boolean) => (v ? '"is_independent" = true' : '"is_independent" = false')),
      min_age: f.gte('age'),
      min_confidence: f.gte('confidence'),
    },
    orderBy: [
      { column: 'cik', dir: 'asc' },
      { column: 'proxy_fiscal_year', dir: 'desc' },
      { column: 'record_id', dir: 'asc' },
    ],
    record: ProxyOfficer,
    toRecord: (r) => ({
      cik: String(r.cik),
      issuer: str(r.issuer),
      accession_number: str(r.accession_number),
      filed_date: isoDate(r.filed_date),
      form_type: str(r.form_type),
      fiscal_year: Number(r.proxy_fiscal_year),
      name: String(r.name),
      name_normalized: String(r.name_key),
      title: str(r.title),
      is_director: Boolean(r.is_director),
      is_officer: Boolean(r.is_officer),
      is_independent: bool(r.is_independent),
      age: int(r.age),
      director_since: int(r.director_since),
      officer_since: int(r.officer_since),
      confidence: Number(r.confidence),
      found_in: jsonList<string>(r.found_in),
      source: SOURCE.sec_proxy,
      source_url: str(r.source_url),
    }),
  }),
];
