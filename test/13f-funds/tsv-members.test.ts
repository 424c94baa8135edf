import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuck, queryRows } from '../../ingest/lake/duck.ts';
import type { LoadContext } from '../../ingest/sources/common/context.ts';
import { loadTsv } from '../../ingest/sources/edgar/funds/tsv.ts';

/**
 * `loadTsv` over two data set members read by one statement (the N-PORT holdings joined to their identifiers inline,
 * ingest/datasets/nport/dataset-tsv.ts): a member that is not valid UTF-8 is read as latin-1 on its own, the other
 * stays UTF-8, and each rejected line is reported against the member it came from.
 */
describe('loadTsv over several members', () => {
  let dir: string;
  let opened: Awaited<ReturnType<typeof openDuck>>;
  const bad: { file: string; line: number | null }[] = [];
  const logs: string[] = [];
  let ctx: LoadContext;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsv-members-'));
    opened = await openDuck();
    ctx = {
      sql: (sql: string) => queryRows(opened.conn, sql),
      log: (m: string) => logs.push(m),
      badRow: (b: { file: string; line: number | null }) => bad.push({ file: b.file, line: b.line }),
    } as unknown as LoadContext;
  });
  afterAll(async () => {
    opened.conn.closeSync();
    opened.instance.closeSync();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the latin-1 member as latin-1, the UTF-8 one as UTF-8, and reports each rejected line against its member', async () => {
    const holdings = join(dir, 'FUND_REPORTED_HOLDING.tsv');
    const identifiers = join(dir, 'IDENTIFIERS.tsv');
    await writeFile(holdings, 'HOLDING_ID\tISSUER_NAME\n1\tSociété Générale\n2\tZürich\n3\ttoo\tmany\n');
    // 0xE9 alone is é in latin-1 and invalid UTF-8.
    await writeFile(identifiers, Buffer.concat([Buffer.from('HOLDING_ID\tIDENTIFIER_TICKER\n1\tSOC'), Buffer.from([0xe9]), Buffer.from('\n2\n')]));
    await opened.conn.run('CREATE TABLE loaded (id VARCHAR, issuer VARCHAR, ticker VARCHAR)');
    const n = await loadTsv(
      ctx,
      [holdings, identifiers],
      (h, i) => `INSERT INTO loaded SELECT h.HOLDING_ID, h.ISSUER_NAME, i.IDENTIFIER_TICKER FROM ${h} h LEFT JOIN ${i} i USING (HOLDING_ID)`,
    );
    expect(n).toBe(2);
    expect(await queryRows(opened.conn, 'SELECT * FROM loaded ORDER BY id')).toEqual([
      { id: '1', issuer: 'Société Générale', ticker: 'SOCé' },
      { id: '2', issuer: 'Zürich', ticker: null },
    ]);
    expect(logs).toEqual(['IDENTIFIERS.tsv: not valid UTF-8, read as latin-1']);
    expect(bad).toEqual([
      { file: 'FUND_REPORTED_HOLDING.tsv', line: 4 },
      { file: 'IDENTIFIERS.tsv', line: 3 },
    ]);
  });

  it('a single member with a latin-1 byte deep in the file loses no line (it was a rejected bad row before)', async () => {
    bad.length = 0;
    logs.length = 0;
    const info = join(dir, 'INFOTABLE.tsv');
    const lines = Array.from({ length: 5000 }, (_, i) => Buffer.from(`${i}\tISSUER ${i}\n`));
    lines[4321] = Buffer.concat([Buffer.from('4321\tNESTL'), Buffer.from([0xc9]), Buffer.from(' SA\n')]);
    await writeFile(info, Buffer.concat([Buffer.from('ID\tNAME\n'), ...lines]));
    const n = await loadTsv(ctx, info, (rel) => `CREATE OR REPLACE TABLE info AS SELECT ID AS id, NAME AS name FROM ${rel}`);
    expect(n).toBe(5000);
    expect(await queryRows(opened.conn, 'SELECT count(*) AS n FROM info')).toEqual([{ n: 5000 }]);
    expect(await queryRows(opened.conn, "SELECT name FROM info WHERE id = '4321'")).toEqual([{ name: 'NESTLÉ SA' }]);
    expect(logs).toEqual(['INFOTABLE.tsv: not valid UTF-8, read as latin-1']);
    expect(bad).toEqual([]);
  });
});
