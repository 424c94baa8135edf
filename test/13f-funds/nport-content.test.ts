import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { runIngest } from '../../ingest/pipeline/runner.ts';
import { loadSettings, type Settings } from '../../schemas/settings.ts';
import { fundHoldings } from '../../schemas/tables/nport.ts';
import datasetNport from '../../ingest/datasets/nport/dataset.ts';
import { writeNportSample } from '../../ingest/datasets/nport/sample.ts';
import { generateNportDataSet } from '../bench/nport-ingest.bench.ts';

/**
 * The N-PORT data set ingest writes exactly the lake file it wrote before its rework for speed and memory (#20
 * item 3): every column's name and type, every row, in file order, digested. Recorded on the loader as it was before
 * the rework: the demo sample's zip (amendments, `N/A` CUSIPs and LEIs, foreign currency, restricted securities),
 * then the bench's generated data set merged into the same quarter (several identifier lines per holding, three
 * portfolio dates, NPORT-P/A replacing the report before it). A change to either input writer changes its digest
 * and needs a new recording; a change to the loader, the table or the writer must not.
 */
const SAMPLE = { rows: 3_717, digest: '77a365ba9ff51336f1a7a7801bcba83a/ceeb3e86' };
const MERGED = { rows: 3_717 + 20_000, digest: '1358eef0fcc5d162d01b9709c08c4717/ceeb3e86' };

describe('fund_holdings content from N-PORT data sets', () => {
  let dir: string;
  let settings: Settings;
  const file = () => join(settings.lakeDir, fundHoldings.name, 'report_quarter=2024Q4', 'data.parquet');

  async function contentOf(path: string): Promise<{ rows: number; digest: string; current: number }> {
    const { conn, instance } = await openDuck(':memory:');
    try {
      const cols = await queryRows(conn, `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${sqlString(path)}))`);
      const [r] = await queryRows(
        conn,
        `SELECT count(*)::INTEGER AS rows, count(*) FILTER (WHERE is_current)::INTEGER AS current,
                md5(string_agg(CAST(p AS VARCHAR), chr(10) ORDER BY file_row_number)) AS digest
         FROM read_parquet(${sqlString(path)}, file_row_number = true) p`,
      );
      const schema = cols.map((c) => `${c.column_name} ${c.column_type}`).join(', ');
      return { rows: Number(r.rows), current: Number(r.current), digest: `${String(r.digest)}/${schemaHash(schema)}` };
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nport-content-'));
    settings = loadSettings({ DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent' });
    await writeNportSample(join(dir, 'sample'), { seed: 7, scale: 1 });
    await generateNportDataSet(join(dir, 'generated'), 20_000);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes the demo sample data set as before, row for row in file order', async () => {
    await runIngest(datasetNport, { from: join(dir, 'sample') }, settings, { quiet: true, skipDiff: true });
    const got = await contentOf(file());
    expect(got.current).toBeLessThan(got.rows);
    expect({ rows: got.rows, digest: got.digest }).toEqual(SAMPLE);
  });

  it('merges a second data set into the quarter as before', async () => {
    await runIngest(datasetNport, { from: join(dir, 'generated') }, settings, { quiet: true, skipDiff: true });
    const got = await contentOf(file());
    expect({ rows: got.rows, digest: got.digest }).toEqual(MERGED);
  });
});

function schemaHash(schema: string): string {
  let h = 0;
  for (const ch of schema) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return (h >>> 0).toString(16);
}
