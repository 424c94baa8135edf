import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SampleOptions } from '../pipeline/contract.ts';
import { addDays, pad10, sampleFormsFor, sampleAccession, sampleCompanies } from './universe.ts';

/**
 * Writes the regulator's real shapes: company_tickers.json, company_tickers_exchange.json and one submissions
 * `CIK##########.json` per demo company (entity header + columnar `filings.recent`).
 */
export async function writeEntitiesSample(dir: string, opts: SampleOptions): Promise<void> {
  await mkdir(dir, { recursive: true });
  const companies = sampleCompanies(opts.seed, opts.scale);
  const tickers: Record<string, unknown> = {};
  companies.forEach((c, i) => {
    tickers[String(i)] = { cik_str: c.cik, ticker: c.ticker, title: c.name };
  });
  await writeFile(join(dir, 'company_tickers.json'), JSON.stringify(tickers));
  await writeFile(
    join(dir, 'company_tickers_exchange.json'),
    JSON.stringify({
      fields: ['cik', 'name', 'ticker', 'exchange'],
      data: companies.map((c) => [c.cik, c.name, c.ticker, c.exchange]),
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
}
