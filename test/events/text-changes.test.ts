import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuck, sqlString } from '../../ingest/lake/duck.ts';
import { openLakeReader } from '../../ingest/lake/reader.ts';
import { textChangesHandler } from '../../ingest/events/handlers/text-changes.ts';
import type { ChangedTable } from '../../ingest/events/handler.ts';
import { loadSettings } from '../../schemas/settings.ts';
import { countedQueries } from '../support/counted-queries.ts';
import { allColumns } from '../../schemas/table.ts';
import { filingSectionsTable } from '../../schemas/tables/filing-sections.ts';

/**
 * Which filing a section is compared with: the same company's previous filing of the same form, filed on an earlier
 * day, the highest accession of that day. The handler finds those for a whole batch in one query (it used to run one
 * query per section); these rows pin the choice, written straight into a lake's partitions.
 */
interface Section {
  accession: string;
  cik: string;
  form: string;
  filed: string;
  section: 'risk_factors' | 'mda';
  text: string;
}

const paragraphs = (topic: string) => Array.from({ length: 6 }, (_, i) => `Paragraph ${i} on ${topic}, which this filing words its own way.`).join('\n\n');

const SECTIONS: Section[] = [
  { accession: '0000000001-22-000001', cik: '0000000001', form: '10-K', filed: '2022-03-01', section: 'risk_factors', text: paragraphs('supply') },
  // Two 10-Ks the same day: each is compared with the 2022 one, not with the other.
  { accession: '0000000001-23-000001', cik: '0000000001', form: '10-K', filed: '2023-03-01', section: 'risk_factors', text: paragraphs('rates') },
  { accession: '0000000001-23-000002', cik: '0000000001', form: '10-K', filed: '2023-03-01', section: 'risk_factors', text: paragraphs('weather') },
  // The next year's is compared with the higher accession of that day.
  { accession: '0000000001-24-000001', cik: '0000000001', form: '10-K', filed: '2024-03-01', section: 'risk_factors', text: paragraphs('tariffs') },
  // A 10-Q's MD&A is compared with the previous 10-Q's, never a 10-K's.
  { accession: '0000000001-22-000002', cik: '0000000001', form: '10-K', filed: '2022-03-01', section: 'mda', text: paragraphs('annual results') },
  { accession: '0000000001-23-000003', cik: '0000000001', form: '10-Q', filed: '2023-05-01', section: 'mda', text: paragraphs('first quarter') },
  { accession: '0000000001-24-000002', cik: '0000000001', form: '10-Q', filed: '2024-05-01', section: 'mda', text: paragraphs('second quarter') },
  // Another company's filings are never the previous one.
  { accession: '0000000002-24-000001', cik: '0000000002', form: '10-K', filed: '2024-02-01', section: 'risk_factors', text: paragraphs('litigation') },
];

let lakeDir: string;

beforeAll(async () => {
  lakeDir = await mkdtemp(join(tmpdir(), 'text-changes-'));
  const columns = Object.keys(allColumns(filingSectionsTable));
  const { instance, conn } = await openDuck(':memory:', { threads: '1' });
  try {
    const values = SECTIONS.map((s) =>
      [
        s.accession,
        s.cik,
        `Company ${s.cik}`,
        s.form,
        s.form,
        s.filed,
        s.filed.slice(0, 4),
        null,
        s.section,
        s.section === 'mda' ? '7' : '1A',
        null,
        s.text,
        6,
        60,
        `https://www.sec.gov/Archives/edgar/data/${Number(s.cik)}/${s.accession}.txt`,
        1,
      ]
        .map((v) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : sqlString(v)))
        .join(', '),
    );
    expect(columns).toHaveLength(16);
    await conn.run(
      'COPY (SELECT * REPLACE (CAST(filed_date AS DATE) AS filed_date, CAST(period AS DATE) AS period) ' +
        `FROM (VALUES (${values.join('), (')})) t(${columns.join(', ')})) ` +
        `TO ${sqlString(join(lakeDir, filingSectionsTable.name))} (FORMAT parquet, PARTITION_BY (filed_year))`,
    );
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
});

afterAll(() => rm(lakeDir, { recursive: true, force: true }));

/** Queries the handler ran in its last call (streamed reads aside): a few a batch, never one per section. */
let queries = 0;

/** The handler's drafts for `changed`, as dedup key → the accession compared with. */
async function comparedWith(changed: ChangedTable[]): Promise<Record<string, unknown>> {
  const lake = await openLakeReader(lakeDir, [], {}, { serving: false });
  try {
    const settings = { ...loadSettings({}), lakeDir };
    const counted = countedQueries(lake);
    const { drafts = [] } = await textChangesHandler.run({ lake: counted.lake, settings, log: () => undefined }, changed);
    queries = counted.queries();
    return Object.fromEntries(drafts.map((d) => [d.dedup_key, (d.details as { previous_accession: unknown }).previous_accession]));
  } finally {
    await lake.close();
  }
}

describe('the text-changes handler compares each section with the previous filing', () => {
  it('on an earlier day, the highest accession of that day, of the same company and form', async () => {
    expect(await comparedWith([{ table: 'filing_sections', partitions: ['2022', '2023', '2024'] }])).toEqual({
      'sec.10k.risk_factor_changed|0000000001-23-000001': '0000000001-22-000001',
      'sec.10k.risk_factor_changed|0000000001-23-000002': '0000000001-22-000001',
      'sec.10k.risk_factor_changed|0000000001-24-000001': '0000000001-23-000002',
      'sec.10q.mda_changed|0000000001-24-000002': '0000000001-23-000003',
    });
    // The previous filings of all seven compared sections in one query, their text in one more per streamed chunk (at
    // most one chunk per year's file here): one query per section used to be seven.
    expect(queries).toBeGreaterThanOrEqual(2);
    expect(queries).toBeLessThanOrEqual(4);
  });

  it('for the changed partitions and, when a live batch names them, those filings alone', async () => {
    expect(Object.keys(await comparedWith([{ table: 'filing_sections', partitions: ['2024'] }])).sort()).toEqual([
      'sec.10k.risk_factor_changed|0000000001-24-000001',
      'sec.10q.mda_changed|0000000001-24-000002',
    ]);
    expect(await comparedWith([{ table: 'filing_sections', partitions: ['2023'], accessions: ['0000000001-23-000002'] }])).toEqual({
      'sec.10k.risk_factor_changed|0000000001-23-000002': '0000000001-22-000001',
    });
  });
});
