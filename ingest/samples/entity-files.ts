import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../sources/common/context.ts';
import {
  addDays,
  pad10,
  SECTION_ISSUERS,
  sampleAccession,
  sampleCompanies,
  sampleFormsFor,
  sampleFundTrusts,
  sampleIssuers,
  sampleManagers,
  samplePrivateIssuers,
  sampleProxyIssuers,
  type SampleFiler,
  type SampleIssuer,
} from './universe.ts';

/**
 * Writes the regulator's real shapes: company_tickers.json and company_tickers_exchange.json (every listed issuer of
 * the universe) and one submissions `CIK##########.json` per filer of the universe: the reporting companies with their
 * filings (entity header + columnar `filings.recent`), every other issuer, 13F manager, fund trust, Form D issuer and
 * text-change issuer with its header only. So the directory holds every entity the other samples name.
 */
export async function writeEntitiesSample(dir: string, opts: SampleOptions): Promise<void> {
  await mkdir(dir, { recursive: true });
  const companies = sampleCompanies(opts.seed, opts.scale);
  const listed = sampleIssuers(opts.seed);
  const tickers: Record<string, unknown> = {};
  listed.forEach((c, i) => {
    tickers[String(i)] = { cik_str: c.cik, ticker: c.ticker, title: c.name };
  });
  await writeFile(join(dir, 'company_tickers.json'), JSON.stringify(tickers));
  await writeFile(
    join(dir, 'company_tickers_exchange.json'),
    JSON.stringify({
      fields: ['cik', 'name', 'ticker', 'exchange'],
      data: listed.map((c) => [c.cik, c.name, c.ticker, c.exchange]),
    }),
  );
  for (const [i, c] of companies.entries()) {
    const recent: Record<string, unknown[]> = {
      accessionNumber: [],
      filingDate: [],
      reportDate: [],
      acceptanceDateTime: [],
      act: [],
      form: [],
      fileNumber: [],
      filmNumber: [],
      items: [],
      size: [],
      isXBRL: [],
      isInlineXBRL: [],
      primaryDocument: [],
      primaryDocDescription: [],
    };
    sampleFormsFor(i).forEach((f, j) => {
      const filed = addDays('2024-01-02', (i * 7 + j * 9) % 88);
      const xbrl = /^10-[KQ]/.test(f.form) || f.form === '8-K';
      recent.accessionNumber.push(sampleAccession(c.cik, 2024, j + 1));
      recent.filingDate.push(filed);
      recent.reportDate.push(f.form === '4' || f.form === 'D' ? '' : addDays(filed, -30));
      recent.acceptanceDateTime.push(`${filed}T16:${String(10 + j).padStart(2, '0')}:05.000Z`);
      recent.act.push(f.form === '4' ? '' : '34');
      recent.form.push(f.form);
      recent.fileNumber.push(`001-${String(30000 + i).padStart(5, '0')}`);
      recent.filmNumber.push(String(24000000 + i * 100 + j));
      recent.items.push(f.items ?? '');
      recent.size.push(20000 + j * 1500);
      recent.isXBRL.push(xbrl ? 1 : 0);
      recent.isInlineXBRL.push(xbrl ? 1 : 0);
      recent.primaryDocument.push(`${c.ticker.toLowerCase()}-${filed.replace(/-/g, '')}.htm`);
      recent.primaryDocDescription.push(f.form);
    });
    const doc = {
      cik: String(c.cik),
      entityType: 'operating',
      sic: c.sic,
      sicDescription: c.sicDescription,
      ownerOrg: '',
      insiderTransactionForOwnerExists: 0,
      insiderTransactionForIssuerExists: 1,
      name: c.name,
      tickers: [c.ticker],
      exchanges: [c.exchange],
      ein: String(100000000 + c.cik),
      lei: null,
      description: '',
      website: '',
      investorWebsite: '',
      category: i % 2 ? 'Large accelerated filer' : 'Non-accelerated filer<br>Smaller reporting company',
      fiscalYearEnd: c.fye,
      stateOfIncorporation: c.state,
      stateOfIncorporationDescription: c.state,
      addresses: {
        mailing: {
          street1: `${100 + i} Main St`,
          street2: null,
          city: 'SPRINGFIELD',
          stateOrCountry: c.state,
          zipCode: '12345',
          stateOrCountryDescription: c.state,
        },
        business: {
          street1: `${100 + i} Main St`,
          street2: null,
          city: 'SPRINGFIELD',
          stateOrCountry: c.state,
          zipCode: '12345',
          stateOrCountryDescription: c.state,
        },
      },
      phone: '555-0100',
      flags: '',
      formerNames: c.formerName ? [{ name: c.formerName.toUpperCase(), from: '2015-03-01T00:00:00.000Z', to: '2020-06-30T00:00:00.000Z' }] : [],
      filings: { recent, files: [] },
    };
    await writeFile(join(dir, `CIK${pad10(c.cik)}.json`), JSON.stringify(doc));
  }
  const others: { filer: SampleFiler | SampleIssuer; entityType: string }[] = [
    ...listed.slice(companies.length).map((filer) => ({ filer, entityType: 'operating' })),
    ...[...sampleProxyIssuers(opts.scale), ...SECTION_ISSUERS].map((filer) => ({ filer, entityType: 'operating' })),
    ...sampleManagers(opts.seed, opts.scale).map((filer) => ({ filer, entityType: 'other' })),
    ...sampleFundTrusts(opts.seed, opts.scale).map((filer) => ({ filer, entityType: 'other' })),
    ...samplePrivateIssuers(opts.seed, opts.scale).map((filer) => ({ filer, entityType: 'other' })),
  ];
  for (const { filer, entityType } of others) {
    await writeFile(join(dir, `CIK${pad10(filer.cik)}.json`), JSON.stringify(headerOnly(filer, entityType)));
  }
}

/** A submissions document with the entity header and no filings (the demo has none of theirs in the index). */
function headerOnly(filer: SampleFiler | SampleIssuer, entityType: string): Record<string, unknown> {
  const issuer = 'ticker' in filer ? filer : null;
  const address = {
    street1: '1 Main St',
    street2: null,
    city: 'SPRINGFIELD',
    stateOrCountry: issuer?.state ?? 'NY',
    zipCode: '12345',
    stateOrCountryDescription: issuer?.state ?? 'NY',
  };
  return {
    cik: String(filer.cik),
    entityType,
    sic: issuer?.sic ?? '',
    sicDescription: issuer?.sicDescription ?? '',
    name: filer.name,
    tickers: issuer ? [issuer.ticker] : [],
    exchanges: issuer ? [issuer.exchange] : [],
    ein: null,
    lei: null,
    category: '',
    fiscalYearEnd: issuer?.fye ?? '1231',
    stateOfIncorporation: issuer?.state ?? '',
    stateOfIncorporationDescription: issuer?.state ?? '',
    addresses: { mailing: address, business: address },
    phone: '555-0100',
    formerNames: issuer?.formerName ? [{ name: issuer.formerName.toUpperCase(), from: '2015-03-01T00:00:00.000Z', to: '2020-06-30T00:00:00.000Z' }] : [],
    filings: { recent: {}, files: [] },
  };
}
