import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readCatalogEntry, writeCatalogEntry } from '../lake/catalog.ts';
import { queryRows, sqlString } from '../lake/duck.ts';
import { appendPartitionFile } from '../lake/writer.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openLakeReader, type LakeReader } from '../lake/reader.ts';
import { withLock } from '../lake/lock.ts';
import { startRun } from '../lake/scratch.ts';
import type { Settings } from '../../schemas/settings.ts';
import type { EventDraft } from '../../schemas/events.ts';
import { eventsTable } from '../../schemas/tables/events.ts';

/**
 * Drafts produced by SQL over the lake (large diffs such as 13F quarter over quarter): a SELECT returning the
 * draft columns, `details` and `evidence` as JSON text. They never pass through JS objects.
 */
export interface SqlDrafts {
  sql: string;
  params?: unknown[];
}

const DRAFT_COLUMNS =
  "event_type: 'VARCHAR', importance: 'VARCHAR', confidence: 'DOUBLE', entity_cik: 'VARCHAR', entity_ticker: 'VARCHAR', " +
  "entity_name: 'VARCHAR', accession: 'VARCHAR', summary: 'VARCHAR', details: 'VARCHAR', evidence: 'VARCHAR', dedup_key: 'VARCHAR', occurred_at: 'VARCHAR'";
const DRAFT_DDL =
  'draft_no BIGINT, event_type VARCHAR, importance VARCHAR, confidence DOUBLE, entity_cik VARCHAR, entity_ticker VARCHAR, entity_name VARCHAR, ' +
  'accession VARCHAR, summary VARCHAR, details VARCHAR, evidence VARCHAR, dedup_key VARCHAR, occurred_at VARCHAR';

/**
 * Drafts waiting in the writer's table before they are written out as a file. The table is in memory and a file is
 * sorted by `seq`: one file of a real 13F quarter's 1,229,161 events took the diff stage to 6.0 GB (docs/events.md,
 * "Memory"). SQL drafts run one statement at a time, so a file holds at most this many plus one statement's drafts:
 * a 13F slice of 250,000 lines drafts about 100,000, so each slice makes a file of its own. At 100,000 two slices
 * shared a file of ≈ 200,000, whose sort took the second of two 1M-line 13F windows to 1,538–1,553 MB (over the
 * 1,500 MB target); at 50,000, 1,086–1,101 MB and ≈ 1 s less CPU in its events step.
 */
const EVENTS_PER_FILE = 50_000;

/**
 * Appends drafts whose dedup_key is not already in the events table (nor repeated within the batch: the first draft
 * of a key wins, and handlers list the strongest first). Under the events lock, so the server's scheduler and a CLI
 * ingest cannot both append the same key. The drafts go out as a file whenever `perFile` (EVENTS_PER_FILE) are
 * waiting, each file renamed into place only when complete: a crash leaves whole files, and a rerun (the roll-forward
 * of the commit) appends exactly what is missing. Returns the number appended.
 */
export async function appendEvents(settings: Settings, drafts: EventDraft[], opts: WriteOptions = {}): Promise<number> {
  return (await writeEvents(settings, drafts, opts)).appended;
}

interface WriteOptions {
  now?: Date;
  lake?: LakeReader;
  sql?: SqlDrafts[];
  perFile?: number;
  /** A folder of a registered run for the JS drafts' file (the diff stage passes its own); else the writer starts one. */
  workDir?: string;
}

/** The events table's writer lock: appends and the key filters' backfill take it, one at a time. */
export const eventsLock = (settings: Settings): string => join(settings.lakeDir, eventsTable.name, '.lock');

/** `appendEvents`, also telling how many drafts it was given (the JS drafts and the rows of the SQL drafts). */
export async function writeEvents(settings: Settings, drafts: EventDraft[], opts: WriteOptions = {}): Promise<{ drafted: number; appended: number }> {
  if (!drafts.length && !opts.sql?.length) return { drafted: 0, appended: 0 };
  const now = opts.now ?? new Date();
  const perFile = opts.perFile ?? EVENTS_PER_FILE;
  return withLock(eventsLock(settings), async () => {
    // A registered run: the scratch cleaner of another process's start leaves a live run's folder alone. Only JS drafts
    // go through a file, and the diff stage lends its own run's folder.
    const scratch = drafts.length && !opts.workDir ? await startRun(settings.dataDir, 'events') : null;
    const lake = opts.lake ?? (await openLakeReader(settings.lakeDir));
    const conn = await lake.connect();
    const table = `event_drafts_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    let appended = 0;
    let drafted = drafts.length;
    let waiting = 0;
    const flush = async () => {
      if (waiting) appended += await appendFile(settings, lake, conn, table, now);
      waiting = 0;
    };
    try {
      await conn.run(`CREATE TABLE ${table} (${DRAFT_DDL})`);
      if (drafts.length) {
        const file = join(opts.workDir ?? scratch!.workDir, 'drafts.ndjson');
        await writeFile(
          file,
          `${drafts.map((d) => JSON.stringify({ ...d, details: JSON.stringify(d.details), evidence: JSON.stringify(d.evidence) })).join('\n')}\n`,
        );
        await conn.run(
          `INSERT INTO ${table} BY NAME SELECT *, row_number() OVER () AS draft_no ` +
            `FROM read_json(${sqlString(file)}, format = 'newline_delimited', columns = {${DRAFT_COLUMNS}})`,
        );
        waiting = drafts.length;
      }
      for (const s of opts.sql ?? []) {
        // Numbered after every draft before it, in the statement's own order; the first of a key wins.
        const numbered = `SELECT *, ${waiting} + row_number() OVER () AS draft_no FROM (${s.sql})`;
        const r = await conn.run(`INSERT INTO ${table} BY NAME ${numbered}`, s.params?.length ? (s.params as never) : undefined);
        waiting += r.rowsChanged;
        drafted += r.rowsChanged;
        if (waiting >= perFile) {
          await flush();
          // Dropped and made again: DuckDB's DELETE marks rows deleted without freeing their blocks.
          await conn.run(`DROP TABLE ${table}`);
          await conn.run(`CREATE TABLE ${table} (${DRAFT_DDL})`);
        }
      }
      await flush();
      return { drafted, appended };
    } finally {
      await conn.run(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
      conn.closeSync();
      if (!opts.lake) await lake.close();
      await scratch?.finish();
    }
  });
}

/**
 * Writes the waiting drafts whose keys are new as one file of `now`'s day partition, or of the newest day when `now`
 * stands before it; returns how many.
 */
async function appendFile(settings: Settings, lake: LakeReader, conn: DuckDBConnection, table: string, now: Date): Promise<number> {
  // The files appended so far, this batch's included, are what a key is new against and what `seq` continues from.
  await lake.refresh();
  // `seq` continues after the largest in the lake, under the events lock, and the batch goes into the day of `now`,
  // or into the newest day folder when the clock stands before it (a clock stepped back): so a later day never holds
  // a smaller `seq` than an earlier one. /v1/events walks the day folders newest first on that (api/events/routes.ts),
  // and the monitor scanner reads only the days from its position on (api/monitors/runtime.ts). It also puts the
  // largest `seq` in the newest day folder, the one read for it here: `max(seq)` over every folder cost 0.5-0.6 s of
  // CPU a batch on a feed of 18M events in 3,650 day folders (docs/events.md, "Known limit").
  const newest = lake.partitions(eventsTable.name).sort().at(-1);
  const at = newest && now.toISOString().slice(0, 10) < newest ? new Date(`${newest}T00:00:00.000Z`) : now;
  const [{ maxseq }] = newest
    ? await queryRows(conn, `SELECT coalesce(max(seq), 0)::BIGINT AS maxseq FROM ${lake.relation(eventsTable.name, [newest]).sql}`)
    : [{ maxseq: 0 }];
  const detectedAt = at.toISOString().replace('Z', '');
  const day = at.toISOString().slice(0, 10);
  // One row per new key, the first inserted draft of a key winning, numbered in (occurred_at, dedup_key) order: on
  // the narrow (draft number, key, time) rows, so that only the file's final sort carries the drafts' text. With the
  // text in both windows, files of ≈ 200,000 13F events failed at a 768MB limit (docs/events.md, "Memory").
  const numbered =
    `SELECT draft_no, row_number() OVER (ORDER BY ts NULLS FIRST, dedup_key) AS rn FROM (` +
    `SELECT draft_no, dedup_key, try_cast(occurred_at AS TIMESTAMP) AS ts FROM ${table} ` +
    `QUALIFY row_number() OVER (PARTITION BY dedup_key ORDER BY draft_no) = 1) k ` +
    `WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.dedup_key = k.dedup_key)`;
  const select =
    `SELECT gen_random_uuid()::VARCHAR AS id, d.event_type, d.importance, ` +
    `CASE d.importance WHEN 'high' THEN 3 WHEN 'medium' THEN 2 ELSE 1 END::INTEGER AS importance_rank, ` +
    `d.confidence, d.entity_cik, d.entity_ticker, d.entity_name, d.accession, d.summary, d.details, d.evidence, d.dedup_key, ` +
    `try_cast(d.occurred_at AS TIMESTAMP) AS occurred_at, ${sqlString(detectedAt)}::TIMESTAMP AS detected_at, ` +
    `(${Number(maxseq)} + n.rn)::BIGINT AS seq, 1::INTEGER AS parser_version ` +
    `FROM ${table} d JOIN (${numbered}) n USING (draft_no) ORDER BY seq`;
  const n = await appendPartitionFile(conn, settings.lakeDir, eventsTable, day, select);
  if (n > 0) await recordInCatalog(settings, day, n, now);
  return n;
}

async function recordInCatalog(settings: Settings, day: string, n: number, now: Date): Promise<void> {
  const entry = (await readCatalogEntry(settings.lakeDir, eventsTable.name)) ?? {
    table: eventsTable.name,
    dataset: 'events',
    description: eventsTable.description,
    source: 'svc_events',
    source_urls: [],
    partition_key: eventsTable.partitionBy,
    record_count: 0,
    last_refresh: null,
    partitions: [],
  };
  const part = entry.partitions.find((p) => p.value === day);
  if (part) part.rows += n;
  else entry.partitions.push({ value: day, rows: n, parser_version: 1, refreshed_at: now.toISOString(), inputs: [], args: {} });
  entry.partitions.sort((a, b) => a.value.localeCompare(b.value));
  entry.record_count += n;
  entry.last_refresh = now.toISOString();
  await writeCatalogEntry(settings.lakeDir, entry);
}
