import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Rng } from '../../samples/random.ts';
import { writeZip } from '../../sources/common/zip.ts';
import type { SampleOptions } from '../../sources/common/context.ts';
import { dmy, sampleUniverse } from '../../samples/securities.ts';
import { sampleFundTrusts } from '../../samples/universe.ts';

/**
 * An N-PORT data set zip (`2025q1_nport.zip`) with the published members and headers: registrants filing one
 * report per series for portfolio date 2024-12-31, equity and debt positions, a foreign-currency line, restricted
 * securities, `N/A` CUSIPs, and one NPORT-P/A replacing an earlier report.
 */
export const NPORT_HEADERS = {
  SUBMISSION: ['ACCESSION_NUMBER', 'FILING_DATE', 'FILE_NUM', 'SUB_TYPE', 'REPORT_ENDING_PERIOD', 'REPORT_DATE', 'IS_LAST_FILING'],
  REGISTRANT: ['ACCESSION_NUMBER', 'CIK', 'REGISTRANT_NAME', 'FILE_NUM', 'LEI', 'ADDRESS1', 'ADDRESS2', 'CITY', 'STATE', 'COUNTRY', 'ZIP', 'PHONE'],
  FUND_REPORTED_INFO: ['ACCESSION_NUMBER', 'SERIES_NAME', 'SERIES_ID', 'SERIES_LEI', 'TOTAL_ASSETS', 'TOTAL_LIABILITIES', 'NET_ASSETS'],
  FUND_REPORTED_HOLDING: [
    'ACCESSION_NUMBER',
    'HOLDING_ID',
    'ISSUER_NAME',
    'ISSUER_LEI',
    'ISSUER_TITLE',
    'ISSUER_CUSIP',
    'BALANCE',
    'UNIT',
    'OTHER_UNIT_DESC',
    'CURRENCY_CODE',
    'CURRENCY_VALUE',
    'EXCHANGE_RATE',
    'PERCENTAGE',
    'PAYOFF_PROFILE',
    'ASSET_CAT',
    'OTHER_ASSET',
    'ISSUER_TYPE',
    'OTHER_ISSUER',
    'INVESTMENT_COUNTRY',
    'IS_RESTRICTED_SECURITY',
    'FAIR_VALUE_LEVEL',
    'DERIVATIVE_CAT',
  ],
  IDENTIFIERS: ['HOLDING_ID', 'IDENTIFIERS_ID', 'IDENTIFIER_ISIN', 'IDENTIFIER_TICKER', 'OTHER_IDENTIFIER', 'OTHER_IDENTIFIER_DESC'],
};
type Member = keyof typeof NPORT_HEADERS;

const NPORT_SAMPLE_ZIP = '2025q1_nport.zip';

export async function writeNportSample(dir: string, opts: SampleOptions): Promise<void> {
  const rng = new Rng(opts.seed + 101);
  const universe = sampleUniverse(opts.seed, 600);
  const lines: Record<Member, string[]> = { SUBMISSION: [], REGISTRANT: [], FUND_REPORTED_INFO: [], FUND_REPORTED_HOLDING: [], IDENTIFIERS: [] };
  const row = (m: Member, cells: (string | number | null)[]) => lines[m].push(cells.map((c) => (c == null ? '' : String(c))).join('\t'));
  const trusts = sampleFundTrusts(opts.seed, opts.scale);
  let hid = 1;
  let seq = 1;
  for (const [t, registrant] of trusts.entries()) {
    const cik = String(registrant.cik).padStart(10, '0');
    const trust = registrant.name;
    // The name comes from the universe; the draw stays so every later draw (and the figures tests record) is unchanged.
    rng.pick(['Harbor', 'Summit', 'Meridian', 'Granite', 'Willow']);
    for (let s = 0; s < rng.int(1, 4); s++) {
      const seriesId = `S${String(10000 + t * 10 + s).padStart(9, '0')}`;
      const fund = `${trust.split(' ')[0]} ${rng.pick(['Growth', 'Income', 'Municipal Bond', 'International Equity', 'Small Cap'])} Fund ${s + 1}`;
      const amended = t === 1 && s === 0;
      for (const type of amended ? ['NPORT-P', 'NPORT-P/A'] : ['NPORT-P']) {
        const acc = `0001${String(100000 + t).slice(-6)}-25-${String(seq++).padStart(6, '0')}`;
        const filed = type === 'NPORT-P' ? '2025-02-26' : '2025-03-10';
        row('SUBMISSION', [acc, dmy(filed), `811-${String(10000 + t).slice(-5)}`, type, dmy('2025-09-30'), dmy('2024-12-31'), 'N']);
        row('REGISTRANT', [
          acc,
          cik,
          trust,
          `811-${String(10000 + t).slice(-5)}`,
          `549300${String(t).padStart(14, '0')}`,
          '1 Fund Plaza',
          '',
          'Boston',
          'US-MA',
          'US',
          '02110',
          '617-555-0100',
        ]);
        const positions = rng.int(20, 80);
        let net = 0;
        const picks: { v: number; cells: (string | number | null)[]; isin: string; ticker: string }[] = [];
        for (let i = 0; i < positions; i++) {
          const sec = rng.pick(universe);
          const debt = rng.chance(0.3);
          const foreign = rng.chance(0.05);
          const balance = debt ? rng.logUniform(10000, 5_000_000) : rng.logUniform(100, 500_000);
          const v = debt ? balance * (0.9 + rng.next() * 0.15) : balance * sec.price;
          net += v;
          picks.push({
            v,
            isin: sec.isin,
            ticker: sec.ticker,
            cells: [
              sec.issuer,
              rng.chance(0.2) ? 'N/A' : `5493${String(hid).padStart(16, '0')}`,
              debt ? `${sec.issuer} ${rng.int(1, 7)}% 2030` : sec.title,
              rng.chance(0.03) ? 'N/A' : sec.cusip,
              balance,
              debt ? 'PA' : 'NS',
              '',
              foreign ? 'EUR' : 'USD',
              v.toFixed(2),
              foreign ? '0.9234' : '',
              null,
              'Long',
              debt ? 'DBT' : 'EC',
              '',
              'CORP',
              '',
              foreign ? 'DE' : 'US',
              rng.chance(0.04) ? 'Y' : 'N',
              rng.pick(['1', '2', '3']),
              '',
            ],
          });
        }
        for (const p of picks) {
          p.cells[10] = ((p.v / net) * 100).toFixed(6);
          row('FUND_REPORTED_HOLDING', [acc, hid, ...p.cells]);
          row('IDENTIFIERS', [hid, hid, p.isin, p.ticker, '', '']);
          hid++;
        }
        row('FUND_REPORTED_INFO', [acc, fund, seriesId, '', (net * 1.01).toFixed(2), (net * 0.01).toFixed(2), net.toFixed(2)]);
      }
    }
  }
  await mkdir(dir, { recursive: true });
  const members = (Object.keys(NPORT_HEADERS) as Member[]).map((m) => ({
    name: `${m}.tsv`,
    data: Buffer.from(`${[NPORT_HEADERS[m].join('\t'), ...lines[m]].join('\n')}\n`),
  }));
  if (opts.scale <= 1) await writeZip(join(dir, NPORT_SAMPLE_ZIP), members);
  else for (const m of members) await writeFile(join(dir, m.name), m.data);
}
