import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import filingsRoutes from '../../api/filings/routes.ts';
import datasetEntities from '../../ingest/datasets/entities/dataset.ts';
import datasetFilings from '../../ingest/datasets/filings/dataset.ts';
import { openDuck, sqlString } from '../../ingest/lake/duck.ts';
import { keyIndexFile } from '../../ingest/lake/key-index.ts';
import { partitionDir } from '../../ingest/lake/layout.ts';
import { cikBucket } from '../../ingest/sources/edgar/index.ts';
import { entitiesTable } from '../../schemas/tables/entities.ts';
import { filingsTable } from '../../schemas/tables/filings.ts';
import { addEarlierPartitions } from '../support/earlier-partitions.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { pageAll } from '../support/page-all.ts';
import { plainFilings } from '../support/plain-filings.ts';
import { logQueries } from '../support/query-log.ts';

/**
 * `/v1/filings?sic=` and `?state_of_incorp=` (api/entities/filters.ts `directoryFilter`): the filers of an industry or
 * state are looked up in the entity directory once a request; at most 20 are bound, and the key index locates their
 * quarters, each filer's rows read on their own; a value with more filers keeps the lookup as a subquery of each read.
 * Every way answers the plain filter's rows in the page order.
 */
const OWN_SIC = '9999';

describe('directory filters on the filing index', () => {
  let app: TestApp;
  let quarters: string[];
  let alone: string[];
  const sql: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ routes: filingsRoutes, env: { METERING: 'off', RATE_LIMIT_RPS: '100000' } });
    await app.ingestSample(datasetEntities, { skipDiff: true });
    await app.ingestSample(datasetFilings, { skipDiff: true });
    // The sample's quarter again a year earlier, for about half of its filers: a located page skips it for the rest.
    quarters = await addEarlierPartitions(join(app.settings.lakeDir, 'filings'), filingsTable, 'filed_date', [{ years: 1, where: 'hash(cik) % 2 = 0' }]);
    // Two filers of the newest quarter only moved to an industry of their own (the live lane's kind of file, which wins
    // over the partition's data file): the few-filers way.
    alone = (
      await app.services.lake.query('SELECT DISTINCT cik FROM filings WHERE hash(cik) % 2 = 1 AND cik IN (SELECT cik FROM entities) ORDER BY cik LIMIT 2')
    ).map((r) => String(r.cik));
    expect(alone).toHaveLength(2);
    const { instance, conn } = await openDuck();
    try {
      for (const [i, cik] of alone.entries()) {
        const dir = partitionDir(app.settings.lakeDir, entitiesTable, cikBucket(cik));
        await conn.run(
          `COPY (SELECT * REPLACE ('${OWN_SIC}' AS sic) FROM read_parquet(${sqlString(join(dir, 'data.parquet'))}, hive_partitioning = false) ` +
            `WHERE cik = '${cik}') TO ${sqlString(join(dir, `part-live-00000000000000${i + 1}-test.parquet`))} (FORMAT parquet)`,
        );
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    await app.services.lake.refresh();
    logQueries(app.services.lake, sql);
  });
  afterAll(() => app?.close());

  const ids = async (qs: string, limit: number) => (await pageAll(app, '/v1/filings', { qs, limit })).map((d) => `${d.accession}/${d.cik}`);
  const inDirectory = (column: string, value: string) => plainFilings(app.services.lake, `cik IN (SELECT cik FROM entities WHERE ${column} = $1)`, [value]);
  // A quarter's files, or its head (the reader's first rows of the newest quarters: ingest/lake/heads.ts).
  const filingReads = () => sql.filter((s) => s.includes('/filings/') || s.includes('head_filings_'));
  /** Values of `column` with their number of entities, for the filers of the index (and `none`, held by no entity). */
  const valuesOf = async (column: string) =>
    (
      await app.services.lake.query(
        `SELECT ${column} AS v, count(*)::INTEGER AS n FROM entities ` +
          `WHERE ${column} IN (SELECT ${column} FROM entities WHERE cik IN (SELECT cik FROM filings)) GROUP BY 1 ORDER BY 1`,
      )
    ).map((r) => ({ value: String(r.v), entities: Number(r.n) }));

  it('every industry’s pages hold the plain filter’s rows in order; a rare one’s few filers are located by the key index', async () => {
    const sics = await valuesOf('sic');
    // Both ways are met: the industry of one filer, and the sample's, of about 100 entities each.
    expect(sics.find((s) => s.value === OWN_SIC)?.entities).toBe(2);
    expect(sics.some((s) => s.entities > 20)).toBe(true);
    for (const { value } of sics)
      for (const limit of [2, 100]) expect(await ids(`sic=${value}`, limit), `sic ${value} limit ${limit}`).toEqual(await inDirectory('sic', value));

    sql.length = 0;
    const own = await app.get(`/v1/filings?sic=${OWN_SIC}&limit=100`);
    expect(own.body.data.length).toBeGreaterThan(0);
    expect(new Set(own.body.data.map((d: { cik: string }) => d.cik))).toEqual(new Set(alone));
    // One directory lookup for the request; the quarters are located through the key index: the filers' only, each
    // filer's rows read on their own (one top-N per located CIK).
    expect(sql.filter((s) => s.includes('entities'))).toHaveLength(1);
    expect(sql.some((s) => s.includes(keyIndexFile('cik')))).toBe(true);
    const opened = filingReads().filter((s) => s.includes('data.parquet'));
    expect(opened).toHaveLength(1);
    expect(opened[0]).not.toContain(`/${quarters[1]}/`);
    expect(opened[0]).not.toContain('entities');
    expect(opened[0].split(' UNION ALL ')).toHaveLength(2);
  });

  it('an industry the directory does not hold: an empty page, no quarter opened', async () => {
    sql.length = 0;
    const none = await app.get('/v1/filings?sic=0001');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(none.body.warnings[0].code).toBe('empty_result');
    expect(filingReads().filter((s) => s.includes('data.parquet'))).toEqual([]);
  });

  it('a state or an industry of more than 20 filers keeps the lookup in each read (and reads no head), with the plain filter’s rows', async () => {
    const states = await valuesOf('state_of_incorp');
    const crowded = states.filter((s) => s.entities > 20);
    expect(crowded.length).toBeGreaterThan(0);
    for (const { value } of crowded)
      for (const limit of [2, 100])
        expect(await ids(`state_of_incorp=${value}`, limit), `${value} limit ${limit}`).toEqual(await inDirectory('state_of_incorp', value));
    const sic = (await valuesOf('sic')).find((s) => s.entities > 20)!.value;
    for (const qs of [`state_of_incorp=${crowded[0].value}`, `sic=${sic}`]) {
      sql.length = 0;
      expect((await app.get(`/v1/filings?${qs}`)).status).toBe(200);
      const reads = filingReads();
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every((s) => s.includes('entities'))).toBe(true);
      expect(sql.some((s) => s.includes(keyIndexFile('cik')))).toBe(false);
      // Nor a quarter's head: one it did not fill would make the page run the lookup twice (page-query.ts `lookups`).
      expect(reads.some((s) => s.includes('head_filings_'))).toBe(false);
    }
  });
});
