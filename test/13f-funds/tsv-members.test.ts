import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuck, queryRows } from '../../ingest/lake/duck.ts';
import type { LoadContext } from '../../ingest/sources/common/context.ts';
import { loadTsv, tsvColumns } from '../../ingest/sources/edgar/funds/tsv.ts';

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

  // DuckDB's reader allocates each buffer at 16 times the longest line allowed, whatever the file's size: at the 10 MB
  // the readers allowed before, one buffer was a 152.5 MiB block, so this statement failed out of memory under any
  // limit below that, as a 10M-line N-PORT data set did at the 1GB default in about one run of three.
  it('reads two members in one statement within a 96MB memory limit', async () => {
    const small = await openDuck(':memory:', { memory_limit: '96MB', threads: '2' });
    try {
      const holdings = join(dir, 'small-holdings.tsv');
      const identifiers = join(dir, 'small-identifiers.tsv');
      await writeFile(holdings, `HOLDING_ID\tISSUER_NAME\n${Array.from({ length: 2000 }, (_, i) => `${i}\tISSUER ${i}`).join('\n')}\n`);
      const isins = Array.from({ length: 2000 }, (_, i) => `${i}\tUS${String(i).padStart(9, '0')}0`);
      await writeFile(identifiers, `HOLDING_ID\tIDENTIFIER_ISIN\n${isins.join('\n')}\n`);
      const smallCtx = { ...ctx, sql: (sql: string) => queryRows(small.conn, sql) } as LoadContext;
      const n = await loadTsv(
        smallCtx,
        [holdings, identifiers],
        (h, i) => `CREATE TABLE joined AS SELECT h.HOLDING_ID, i.IDENTIFIER_ISIN FROM ${h} h JOIN ${i} i USING (HOLDING_ID)`,
      );
      expect(n).toBe(2000);
    } finally {
      small.conn.closeSync();
      small.instance.closeSync();
    }
  });

  // The first read takes lines up to 2 MiB (small buffers); a longer line, where DuckDB sniffs (it throws) or past
  // that (it rejects the line), makes the member be read again with a longer limit, so no line is lost to the limit.
  it.each([
    ['where the reader sniffs', 1],
    ['past what it sniffs', 30_000],
  ])('a line longer than the first read takes is read again with a longer limit (%s)', async (_, before) => {
    bad.length = 0;
    logs.length = 0;
    const info = join(dir, `LONG-${before}.tsv`);
    const lines = Array.from({ length: before }, (_, i) => `${i}\tSHORT ${i}\n`);
    await writeFile(info, `ID\tNAME\n${lines.join('')}long\t${'X'.repeat(2_200_000)}\nlast\tSHORT TOO\n`);
    const n = await loadTsv(ctx, info, (rel) => `CREATE OR REPLACE TABLE long_lines AS SELECT ID AS id, NAME AS name FROM ${rel}`);
    expect(n).toBe(before + 2);
    expect(await queryRows(opened.conn, "SELECT length(name) AS n FROM long_lines WHERE id = 'long'")).toEqual([{ n: 2_200_000 }]);
    expect(bad).toEqual([]);
    // DuckDB counts the line's size with a few bytes of its own (2,200,003 to 2,200,006 for these 2,200,000 X's).
    const logged = new RegExp(`^LONG-${before}\\.tsv: a line of 220000\\d bytes, read again taking lines up to 4194304 bytes$`);
    expect(logs).toEqual([expect.stringMatching(logged)]);
  });

  it("a member's header is described past a long line where DuckDB sniffs (N-CEN reads its provider members' headers)", async () => {
    logs.length = 0;
    const info = join(dir, 'LONG-HEADER.tsv');
    await writeFile(info, `ID\tPROVIDER_NAME\nlong\t${'X'.repeat(2_200_000)}\n`);
    expect(await tsvColumns(ctx, info)).toEqual(new Set(['ID', 'PROVIDER_NAME']));
    expect(logs).toEqual([expect.stringMatching(/^LONG-HEADER\.tsv: a line of 220000\d bytes, read again taking lines up to 4194304 bytes$/)]);
  });

  it('a line past the longest any read takes (16 MiB) stays a bad row of its member; its other lines load', async () => {
    bad.length = 0;
    const info = join(dir, 'HUGE.tsv');
    const lines = Array.from({ length: 30_000 }, (_, i) => `${i}\tSHORT ${i}\n`);
    await writeFile(info, `ID\tNAME\n${lines.join('')}huge\t${'X'.repeat(17_000_000)}\nlast\tSHORT TOO\n`);
    const n = await loadTsv(ctx, info, (rel) => `CREATE OR REPLACE TABLE huge_lines AS SELECT ID AS id FROM ${rel}`);
    expect(n).toBe(30_001);
    expect(await queryRows(opened.conn, "SELECT count(*) AS n FROM huge_lines WHERE id IN ('huge', 'last')")).toEqual([{ n: 1 }]);
    expect(bad).toEqual([{ file: 'HUGE.tsv', line: 30_002 }]);
  });
});
