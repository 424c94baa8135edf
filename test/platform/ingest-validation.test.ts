import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogEntry } from '../../ingest/lake/catalog.ts';
import { defineIngester } from '../../ingest/pipeline/contract.ts';
import { IngestRefused } from '../../ingest/pipeline/validate.ts';
import { localInputs } from '../../ingest/sources/common/local-inputs.ts';
import { sqlString } from '../../ingest/lake/duck.ts';
import form144 from '../../ingest/datasets/form144/dataset.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { fixturePath, fixturesSkipReason, hasFixtures } from '../support/fixtures.ts';
import { firmsTable, toyIngester, writeToyCsv } from './toy-dataset.ts';

/** Validation before replace: a run that read a cut file, rejected its rows or would shrink a partition refuses to write. */
describe('ingest validation before replace', () => {
  let app: TestApp;
  const count = async () => Number((await app.services.lake.query("SELECT count(*) AS n FROM toy_firms WHERE snapshot_date = '2026-01-01'"))[0].n);
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(IngestRefused);
    return (err as IngestRefused).message;
  };

  beforeAll(async () => {
    app = await createTestApp({ extraTables: [firmsTable] });
    await writeToyCsv(join(app.dataDir, 'good'), '2026-01-01', 100);
    await app.ingest(toyIngester(), { from: join(app.dataDir, 'good') });
  });
  afterAll(() => app.close());

  it('a CSV cut mid-line is refused with its file and line, and the partition stays as it was', async () => {
    const dir = join(app.dataDir, 'cut');
    const file = await writeToyCsv(dir, '2026-01-01', 100);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.slice(0, text.lastIndexOf(',', text.length - 10)));
    const msg = await refusal(app.ingest(toyIngester(), { from: dir }));
    expect(msg).toMatch(/firms-2026-01-01\.csv:101: the last line has 3 of the 5 fields the other lines have: the file is cut short/);
    expect(msg).toContain('--force');
    expect(await count()).toBe(100);
  });

  it('a CSV ending inside an open quote is refused', async () => {
    const dir = join(app.dataDir, 'quote');
    const file = await writeToyCsv(dir, '2026-01-01', 100);
    await writeFile(file, `${await readFile(file, 'utf8')}F09999,"Firm cut`);
    expect(await refusal(app.ingest(toyIngester(), { from: dir }))).toMatch(/firms-2026-01-01\.csv:102: a quoted field is still open/);
    expect(await count()).toBe(100);
  });

  it('a run whose every row was rejected is refused, citing the first bad line', async () => {
    const dir = join(app.dataDir, 'rejected');
    await writeToyCsv(dir, '2026-01-01', 3, { badLines: [2, 3, 4] });
    const msg = await refusal(app.ingest(toyIngester(), { from: dir }));
    expect(msg).toMatch(/every row was rejected \(3 bad row\(s\)\); the first: .*firms-2026-01-01\.csv:2: aum not a number/);
    expect(await count()).toBe(100);
  });

  it('a drop of more than INGEST_MAX_DROP of a partition is refused; --force replaces anyway', async () => {
    const dir = join(app.dataDir, 'small');
    await writeToyCsv(dir, '2026-01-01', 40);
    const msg = await refusal(app.ingest(toyIngester(), { from: dir }));
    expect(msg).toContain('toy_firms/snapshot_date=2026-01-01: would replace 100 rows with 40 (a drop of 60%, more than INGEST_MAX_DROP=0.5)');
    expect(await count()).toBe(100);
    const forced = await app.ingest(toyIngester(), { from: dir }, { force: true });
    expect(forced.forced).toHaveLength(1);
    expect(await count()).toBe(40);
    // Back to the full snapshot for the tests below (a growth is never refused).
    await app.ingest(toyIngester(), { from: join(app.dataDir, 'good') });
    expect(await count()).toBe(100);
  });

  it('a snapshot built from several files is not replaced from only some of them', async () => {
    const dir = join(app.dataDir, 'multi');
    await mkdir(dir, { recursive: true });
    const rows = (from: number, n: number) =>
      ['id,name,state,aum,active', ...Array.from({ length: n }, (_, i) => `G${from + i},Firm ${from + i},NY,${1000 + i},Y`)].join('\n');
    await writeFile(join(dir, 'firms-2026-02-01-registered.csv'), `${rows(0, 30)}\n`);
    await writeFile(join(dir, 'firms-2026-02-01-exempt.csv'), `${rows(100, 20)}\n`);
    await app.ingest(toyIngester(), { from: dir });
    const part = (await readCatalogEntry(app.settings.lakeDir, 'toy_firms'))!.partitions.find((p) => p.value === '2026-02-01')!;
    expect(part.rows).toBe(50);
    // Only the partition's own files are recorded, not every file of the run.
    expect(part.inputs.map((i) => i.path.split('/').pop()).sort()).toEqual(['firms-2026-02-01-exempt.csv', 'firms-2026-02-01-registered.csv']);
    const msg = await refusal(app.ingest(toyIngester(), { from: join(dir, 'firms-2026-02-01-registered.csv') }));
    expect(msg).toContain('snapshot_date=2026-02-01: the snapshot was built from 2 files and this run lacks firms-2026-02-01-exempt.csv');
    const [{ n }] = await app.services.lake.query("SELECT count(*) AS n FROM toy_firms WHERE snapshot_date = '2026-02-01'");
    expect(n).toBe(50);
  });

  it('a file holding fewer rows than it declares is refused', async () => {
    const dir = join(app.dataDir, 'declared');
    const file = await writeToyCsv(dir, '2026-01-01', 100);
    const base = toyIngester();
    // A loader whose format carries a row count (here: a count the test states for the file).
    const declaring = defineIngester({
      ...base,
      async load(ctx, inputs, args) {
        ctx.declaredRows?.(inputs[0].path, 120);
        await base.load(ctx, inputs, args);
      },
    });
    expect(await refusal(app.ingest(declaring, { from: dir }))).toContain(`${file}: 100 row(s) read where the file declares 120`);
    expect(await count()).toBe(100);
  });

  it('a DuckDB error while a loader reads its file names the file and the column it expected', async () => {
    const dir = join(app.dataDir, 'layout');
    const file = join(dir, 'firms-2026-03-01.csv');
    await mkdir(dir, { recursive: true });
    await writeFile(file, 'id,name,state,amount,active\nF1,One,NY,5,Y\nF2,Two,CA,6,N\nF3,Three,TX,7,Y\n');
    const sqlToy = defineIngester({
      ...toyIngester(),
      async load(ctx, inputs) {
        await ctx.sql(
          'INSERT INTO staging_toy_firms (snapshot_date, id, name, aum, parser_version) ' +
            `SELECT DATE '2026-03-01', id, name, aum, 1 FROM read_csv(${sqlString(inputs[0].path)})`,
        );
      },
      inputs: (_c, args) => localInputs(args.from!),
    });
    await expect(app.ingest(sqlToy, { from: dir })).rejects.toThrow(
      /toy_firms: firms-2026-03-01\.csv: the toy_firms loader expects a column "aum" that the file does not have/,
    );
  });
});

describe.skipIf(!hasFixtures)(`a Form 144 filing cut mid-XML (real fixture) ${hasFixtures ? '' : fixturesSkipReason}`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('is refused, naming the file, its last line and the unclosed root, and the good record stays', async () => {
    const good = join(app.dataDir, 'good');
    await mkdir(good, { recursive: true });
    // The XML carries no accession; the loader reads it from the file name, as for a filing saved by accession.
    const name = '0001921094-23-000001.xml';
    await copyFile(fixturePath('form144/form144_apple_maestri_2023-04-13.xml'), join(good, name));
    await app.ingest(form144, { from: good }, { skipDiff: true });
    const before = await app.services.lake.query('SELECT units_to_be_sold, aggregate_market_value, broker_name FROM form144_notices');
    expect(before).toHaveLength(1);

    const cut = join(app.dataDir, 'cut');
    await mkdir(cut, { recursive: true });
    const xml = await readFile(join(good, name), 'utf8');
    // Cut inside the units sold, as the download in the report was: 69996 would read as 69.
    await writeFile(join(cut, name), xml.slice(0, xml.indexOf('<ns2:noOfUnitsSold>') + '<ns2:noOfUnitsSold>'.length + 2));
    const err = await app.ingest(form144, { from: cut }, { skipDiff: true }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(IngestRefused);
    expect((err as Error).message).toMatch(
      new RegExp(`${name.replace(/\./g, '\\.')}:\\d+: the XML ends before its root element <ns2:edgarSubmission> is closed`),
    );
    expect((err as Error).message).toContain("<ns2:noOfUnitsSold>69')");
    expect(await app.services.lake.query('SELECT units_to_be_sold, aggregate_market_value, broker_name FROM form144_notices')).toEqual(before);
  });
});
