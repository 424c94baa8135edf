import type { Lake } from '../../api/core/lake.ts';

/**
 * Every filter of `/v1/holdings`, alone and combined, on keys picked from the lake so that each page crosses quarters:
 * the CUSIP and the manager present in the most lines of several quarters, a minimum value that lets a tenth of the
 * CUSIP's lines through, and a word of the manager's name. The tests that serve a page another way (from summaries,
 * from serving copies) compare every one of these with the plain read.
 */
export async function holdingsPagesToCompare(lake: Pick<Lake, 'query' | 'partitions'>): Promise<{ cusip: string; queries: string[] }> {
  const [{ cusip }] = await lake.query('SELECT cusip FROM holdings_13f GROUP BY 1 HAVING count(DISTINCT period) > 1 ORDER BY count(*) DESC, 1 LIMIT 1');
  const [{ cik, name }] = await lake.query(
    'SELECT manager_cik AS cik, any_value(manager_name) AS name FROM holdings_13f ' +
      'GROUP BY 1 HAVING count(DISTINCT period) > 1 ORDER BY count(*) DESC, 1 LIMIT 1',
  );
  const [{ v }] = await lake.query('SELECT quantile_disc(value_usd, 0.9) AS v FROM holdings_13f WHERE cusip = $1', [cusip]);
  const periods = (await lake.partitions('holdings_13f')).sort();
  const word = String(name).split(/\s+/)[0];
  const queries = [
    `/v1/holdings?cusip=${cusip}`,
    `/v1/holdings?cusip=${cusip}&min_value=${Math.round(Number(v))}`,
    `/v1/holdings?cusip=${cusip}&include_superseded=true`,
    `/v1/holdings?cusip=${cusip}&period=${periods[0]}`,
    `/v1/holdings?cusip=${cusip}&manager=${Number(cik)}`,
    `/v1/holdings?manager=${Number(cik)}`,
    `/v1/holdings?manager=${Number(cik)}&min_value=1000000`,
    `/v1/holdings?manager=${encodeURIComponent(word)}`,
    `/v1/holdings?period=${periods[1]}`,
    `/v1/holdings?min_value=${Math.round(Number(v))}`,
    '/v1/holdings?issuer=a&min_value=500000',
    '/v1/holdings',
  ];
  return { cusip: String(cusip), queries };
}
