import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import datasetInsider from '../../ingest/datasets/insider/dataset.ts';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { keyIndexFile, writeKeyIndex } from '../../ingest/lake/key-index.ts';
import { fileFingerprint } from '../../ingest/lake/summary.ts';
import { insiderTransactionsTable } from '../../schemas/tables/insider.ts';
import { addEarlierPartitions } from '../support/earlier-partitions.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { logQueries } from '../support/query-log.ts';
import { pageAll } from '../support/page-all.ts';

/**
 * `/v1/insider?owner_cik=` reads each quarter's key index first (TableSpec.keyIndexes, docs/layouts.md): the quarters
 * without the owner are skipped, and the others are read under the issuers the index names for it. The pages must be
 * the rows, in the order, of the plain filter over every quarter, whatever the index holds or lacks.
 */
const OWNERS = insiderTransactionsTable.keyIndexes![0];
const OWNER_INDEX = keyIndexFile(OWNERS.key);
const JOINT = '0001000001';
const ONLY_OLDEST = '0001000002';
const table = 'insider_transactions';

describe('insider owner pages located by the key index', () => {
  let app: TestApp;
  let dir: string;
  let quarters: string[];
  const sql: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ env: { METERING: 'off', RATE_LIMIT_RPS: '100000' } });
    await app.ingestSample(datasetInsider, { skipDiff: true });
    dir = join(app.settings.lakeDir, table);
    // The sample's quarter again one and two years earlier. The year-before copy adds a joint owner (`JOINT`) to
    // every other filing, so that owner sits under several issuers; the oldest adds it to every third, and gives one
    // filing's owners to `ONLY_OLDEST`, an owner of that quarter alone.
    const joint = (every: number) => `CASE WHEN hash(accession) % ${every} = 0 THEN owner_ciks || ',${JOINT}' ELSE owner_ciks END`;
    const first = `(SELECT min(accession) FROM read_parquet(${sqlString(join(dir, '*', 'data.parquet'))}))`;
    quarters = await addEarlierPartitions(dir, insiderTransactionsTable, 'filed_date', [
      { years: 1, replace: { owner_ciks: joint(2) } },
      { years: 2, replace: { owner_ciks: `CASE WHEN accession = ${first} THEN '${ONLY_OLDEST}' ELSE ${joint(3)} END` } },
    ]);
    await app.services.lake.refresh();
    logQueries(app.services.lake, sql);
  });
  afterAll(() => app?.close());

  /** Every row of the owner over the table's view, in the list's order: what its pages must hold. */
  async function expected(owner: string, where = ''): Promise<string[]> {
    const rows = await app.services.lake.query(
      `SELECT accession, row_seq FROM ${table} WHERE contains(coalesce(owner_ciks, ''), $1)${where} ` +
        'ORDER BY filed_quarter DESC, filed_date DESC, accession DESC, row_seq',
      [owner],
    );
    return rows.map((r) => `${r.accession}/${r.row_seq}`);
  }
  const ids = async (qs: string, limit: number) => (await pageAll(app, '/v1/insider', { qs, limit })).map((d) => `${d.accession}/${d.row_seq}`);
  async function owners(): Promise<string[]> {
    const rows = await app.services.lake.query(`SELECT DISTINCT unnest(string_split(owner_ciks, ',')) AS o FROM ${table} ORDER BY o`);
    return rows.map((r) => String(r.o));
  }

  it('the writer puts a key index beside the partition it writes: each owner with the issuers of its rows, and the data file it describes', async () => {
    const ingested = join(dir, quarters[0]);
    const index = join(ingested, OWNER_INDEX);
    expect(existsSync(index)).toBe(true);
    const { instance, conn } = await openDuck();
    try {
      const got = await queryRows(conn, `SELECT key, locate, rows, data_fingerprint FROM read_parquet(${sqlString(index)}) ORDER BY key, locate`);
      const want = await queryRows(
        conn,
        `SELECT o AS key, issuer_cik AS locate, count(*)::BIGINT AS rows FROM (SELECT unnest(string_split(owner_ciks, ',')) AS o, issuer_cik ` +
          `FROM read_parquet(${sqlString(join(ingested, 'data.parquet'))})) GROUP BY ALL ORDER BY key, locate`,
      );
      expect(got.length).toBeGreaterThan(10);
      expect(got.map(({ key, locate, rows }) => ({ key, locate, rows }))).toEqual(want);
      const fp = await fileFingerprint(join(ingested, 'data.parquet'));
      expect(new Set(got.map((r) => r.data_fingerprint))).toEqual(new Set([fp]));
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('pages of each owner hold the plain filter’s rows in its order, at any page size and with another filter', async () => {
    const all = await owners();
    expect(all).toContain(JOINT);
    for (const owner of [JOINT, ONLY_OLDEST, ...all.filter((_, i) => i % 10 === 0)]) {
      const want = await expected(owner);
      expect(want.length, owner).toBeGreaterThan(0);
      // The joint owner's rows span quarters and issuers: pages of 7 cross them; the others hold a few rows each.
      for (const limit of owner === JOINT ? [7, 100] : [1, 100]) expect(await ids(`owner_cik=${owner}`, limit), `${owner} limit ${limit}`).toEqual(want);
    }
    // The index counts the owner's rows, not those another filter keeps: a short read must walk on.
    const codes = await app.services.lake.query(`SELECT DISTINCT trans_code AS c FROM ${table} WHERE contains(owner_ciks, $1) ORDER BY c`, [JOINT]);
    for (const { c } of codes) expect(await ids(`owner_cik=${JOINT}&trans_code=${c}`, 5)).toEqual(await expected(JOINT, ` AND trans_code = '${c}'`));
  });

  it('a page reads only the quarters holding the owner, under the issuers the index names', async () => {
    sql.length = 0;
    const r = await app.get(`/v1/insider?owner_cik=${ONLY_OLDEST}&limit=5`);
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    const reads = sql.filter((s) => s.includes('data.parquet'));
    expect(reads.length).toBe(1);
    expect(reads[0]).toContain(`/${quarters.at(-1)}/`);
    for (const q of quarters.slice(0, -1)) expect(reads[0]).not.toContain(`/${q}/`);
    expect(reads[0]).toMatch(/"issuer_cik" IN \(/);
    sql.length = 0;
    const none = await app.get('/v1/insider?owner_cik=0000000001');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(sql.filter((s) => s.includes('data.parquet'))).toEqual([]);
    expect(sql.some((s) => s.includes(OWNER_INDEX))).toBe(true);
  });

  it('a live append file’s rows are found beside the index, a missing or stale index leaves its quarter read whole', async () => {
    const newest = join(dir, quarters[0]);
    const other = await app.services.lake.query(`SELECT max(issuer_cik) AS i FROM ${table} WHERE filed_quarter = $1 AND NOT contains(owner_ciks, $2)`, [
      quarters[0].split('=')[1],
      JOINT,
    ]);
    const { instance, conn } = await openDuck();
    try {
      // The joint owner under an issuer the newest quarter's index does not name for it, in a new filing.
      await conn.run(
        `COPY (SELECT * REPLACE ('APPEND-0001' AS accession, ${sqlString(String(other[0].i))} AS issuer_cik, ${sqlString(JOINT)} AS owner_ciks) ` +
          `FROM read_parquet(${sqlString(join(newest, 'data.parquet'))}) LIMIT 1) ` +
          `TO ${sqlString(join(newest, 'part-live-000000000000001-test.parquet'))} (FORMAT parquet)`,
      );
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    await app.services.lake.refresh();
    const want = await expected(JOINT);
    expect(want.filter((id) => id.startsWith('APPEND-0001/'))).toHaveLength(1);
    for (const limit of [7, 100]) expect(await ids(`owner_cik=${JOINT}`, limit)).toEqual(want);
    // No index in the middle quarter: it is read whole, the others still located.
    await rm(join(dir, quarters[1], OWNER_INDEX));
    await app.services.lake.refresh();
    expect(await ids(`owner_cik=${JOINT}`, 7)).toEqual(want);
    // A stale index (of another data file) in the oldest quarter: ignored the same way.
    await rm(join(dir, quarters[2], OWNER_INDEX));
    const { instance: i2, conn: c2 } = await openDuck();
    try {
      await writeKeyIndex(c2, insiderTransactionsTable, OWNERS, join(dir, quarters[0], 'data.parquet'), join(dir, quarters[2], OWNER_INDEX));
    } finally {
      c2.closeSync();
      i2.closeSync();
    }
    await app.services.lake.refresh();
    for (const owner of [JOINT, ONLY_OLDEST]) expect(await ids(`owner_cik=${owner}`, 7)).toEqual(await expected(owner));
  });
});
