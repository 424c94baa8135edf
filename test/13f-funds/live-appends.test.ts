import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import def13f from '../../ingest/datasets/13f/dataset.ts';
import { openDuck, queryRows, sqlString } from '../../ingest/lake/duck.ts';
import { openLakeReader } from '../../ingest/lake/reader.ts';
import { extractZipMembers } from '../../ingest/sources/common/zip.ts';
import { runIngest } from '../../ingest/pipeline/runner.ts';
import { loadSettings, type Settings } from '../../schemas/settings.ts';
import { TABLES_13F } from '../../schemas/tables/13f.ts';

/**
 * 13F amendments through the live lane's append files. The sample's current window holds RESTATEMENT filings of its
 * own managers; split in two, the originals are ingested first (a bulk run: each partition's data file), then the
 * restatements as the live lane writes them (`appendOnly`: append files beside the data files). That second run flips
 * the originals' lines to `is_current = false` and recomputes those managers, so its append files share keys with the
 * data files. Every reader must read each key once, as the fold will write it, and equal to the whole window ingested
 * at once; a later bulk run of the whole window (which reads the lake's earlier lines to reconcile with them) must
 * fold the append files and leave the lake equal to it too.
 */
const WINDOW = '01dec2024-28feb2025_form13f';
const KEYS: Record<string, string> = {
  holdings_13f: 'accession_number, line_no',
  filings_13f: 'accession_number',
  managers_13f: 'cik',
  unmapped_cusips_13f: 'cusip',
};

let dir: string;
let appended: Settings;
let reference: Settings;

const settingsIn = (name: string) => loadSettings({ DATA_DIR: join(dir, name), LOG_LEVEL: 'silent' });

async function rows(settings: Settings, table: string): Promise<Record<string, unknown>[]> {
  const reader = await openLakeReader(settings.lakeDir, [], {}, { serving: false });
  try {
    return await reader.query(`SELECT * FROM ${table} ORDER BY period, ${KEYS[table]}`);
  } finally {
    await reader.close();
  }
}

/** Writes each member of `from` into `to`, keeping the header and the lines whose accession (first field) `keep` says. */
async function splitWindow(from: string, to: string, keep: (accession: string) => boolean): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const [header, ...lines] = (await readFile(join(from, name), 'utf8')).split('\n').filter((l) => l !== '');
    await writeFile(join(to, name), `${[header, ...lines.filter((l) => keep(l.split('\t')[0]))].join('\n')}\n`);
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), '13f-live-appends-'));
  const src = join(dir, 'src');
  await def13f.sample!(src, { seed: 7, scale: 0.2 });
  const all = join(dir, WINDOW);
  await extractZipMembers(join(src, `${WINDOW}.zip`), all, (n) => n.endsWith('.tsv'));
  const [header, ...cover] = (await readFile(join(all, 'COVERPAGE.tsv'), 'utf8')).split('\n').filter((l) => l !== '');
  const type = header.split('\t').indexOf('AMENDMENTTYPE');
  const restated = new Set(
    cover
      .map((l) => l.split('\t'))
      .filter((f) => f[type] === 'RESTATEMENT')
      .map((f) => f[0]),
  );
  expect(restated.size).toBeGreaterThan(0);
  await splitWindow(all, join(dir, 'originals'), (a) => !restated.has(a));
  await splitWindow(all, join(dir, 'restatements'), (a) => restated.has(a));

  reference = settingsIn('reference');
  appended = settingsIn('appended');
  await runIngest(def13f, { from: all }, reference, { quiet: true, skipDiff: true });
  await runIngest(def13f, { from: join(dir, 'originals') }, appended, { quiet: true, skipDiff: true });
  await runIngest(def13f, { from: join(dir, 'restatements') }, appended, { quiet: true, skipDiff: true, appendOnly: true });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('13F amendments in live append files', () => {
  it("the restatements' append files rewrite lines the data file holds (the originals', flipped)", async () => {
    const part = join(appended.lakeDir, 'holdings_13f', 'period=2024Q4');
    const files = readdirSync(part).filter((f) => f.endsWith('.parquet'));
    expect(files.filter((f) => f.startsWith('part-live-')).length).toBe(1);
    const { instance, conn } = await openDuck();
    try {
      const [{ n }] = await queryRows(
        conn,
        `SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlString(join(part, 'data.parquet'))}) d
         JOIN read_parquet(${sqlString(join(part, 'part-live-*.parquet'))}) a USING (accession_number, line_no)
         WHERE d.is_current AND NOT a.is_current`,
      );
      expect(n).toBeGreaterThan(0);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('before the fold, every table reads as the whole window ingested at once: each key once, flipped lines not current', async () => {
    for (const t of Object.keys(KEYS)) expect(await rows(appended, t), t).toEqual(await rows(reference, t));
  });

  it('a bulk run of the whole window over the append files folds them and leaves the lake as the reference', async () => {
    await runIngest(def13f, { from: join(dir, WINDOW) }, appended, { quiet: true, skipDiff: true });
    for (const t of TABLES_13F) {
      for (const p of readdirSync(join(appended.lakeDir, t.name)).filter((x) => x.includes('='))) {
        expect(readdirSync(join(appended.lakeDir, t.name, p)).filter((f) => f.endsWith('.parquet'))).toEqual(['data.parquet']);
      }
    }
    for (const t of Object.keys(KEYS)) expect(await rows(appended, t), t).toEqual(await rows(reference, t));
  });
});
