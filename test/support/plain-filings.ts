import type { Lake } from '../../api/core/lake.ts';
import filingsRoutes from '../../api/filings/routes.ts';
import type { ListEndpoint } from '../../api/core/endpoint.ts';

const { orderBy } = filingsRoutes[0] as ListEndpoint;

/**
 * The filing index's rows that `where` keeps, as the plain filter over every quarter finds them (`accession/cik`), in
 * the page order of `/v1/filings` (the route's own): what a located page must equal.
 */
export async function plainFilings(lake: Lake, where: string, params: unknown[]): Promise<string[]> {
  const order = orderBy.map((o) => `${o.column} ${o.dir}`).join(', ');
  const rows = await lake.query(`SELECT accession, cik FROM filings WHERE ${where} ORDER BY ${order}`, params);
  return rows.map((r) => `${r.accession}/${r.cik}`);
}
