import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readCatalogEntry, writeCatalogEntry } from '../lake/catalog.ts';
import { queryRows, sqlString } from '../lake/duck.ts';
import { appendPartitionFile } from '../lake/writer.ts';
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
  'event_type VARCHAR, importance VARCHAR, confidence DOUBLE, entity_cik VARCHAR, entity_ticker VARCHAR, entity_name VARCHAR, ' +
  'accession VARCHAR, summary VARCHAR, details VARCHAR, evidence VARCHAR, dedup_key VARCHAR, occurred_at VARCHAR';

/**
 * Appends drafts whose dedup_key is not already in the events table (nor repeated within the batch).
 * Under the events lock, so the server's scheduler and a CLI ingest cannot both append the same key; the new
 * file is renamed into place only when complete, so a crash leaves either nothing or the whole batch, and a
 * rerun appends exactly what is missing. Returns the number appended.
 */
export async function appendEvents(settings: Settings, drafts: EventDraft[], opts: { now?: Date; lake?: LakeReader; sql?: SqlDrafts[] } = {}): Promise<number> {
  if (!drafts.length && !opts.sql?.length) return 0;
  const now = opts.now ?? new Date();
  const lock = join(settings.lakeDir, eventsTable.name, '.lock');
  return withLock(lock, async () => {
    // A registered run: the scratch cleaner of another process's start leaves a live run's folder alone.
    const scratch = await startRun(settings.dataDir, 'events');
    const workDir = scratch.workDir;
    const lake = opts.lake ?? (await openLakeReader(settings.lakeDir));
    const conn = await lake.connect();
    const table = `event_drafts_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    try {
      await lake.refresh();
      await conn.run(`CREATE TABLE ${table} (${DRAFT_DDL})`);
      if (drafts.length) {
        const file = join(workDir, 'drafts.ndjson');
        await writeFile(
          file,
          `${drafts.map((d) => JSON.stringify({ ...d, details: JSON.stringify(d.details), evidence: JSON.stringify(d.evidence) })).join('\n')}\n`,
        );
        await conn.run(`INSERT INTO ${table} SELECT * FROM read_json(${sqlString(file)}, format = 'newline_delimited', columns = {${DRAFT_COLUMNS}})`);
      }
      for (const s of opts.sql ?? []) {
        await conn.run(`INSERT INTO ${table} BY NAME ${s.sql}`, s.params?.length ? (s.params as never) : undefined);
      }
      // `seq` continues after the largest in the lake, under the events lock, and the batch goes into the day of
      // `now`: so a later day never holds a smaller `seq` than an earlier one (while the clock does not step back a
      // day), which lets /v1/events order by (day, seq) and walk the day folders newest first (api/events/routes.ts).
      const [{ maxseq }] = await queryRows(conn, 'SELECT coalesce(max(seq), 0)::BIGINT AS maxseq FROM events');
      const detectedAt = now.toISOString().replace('Z', '');
      const day = now.toISOString().slice(0, 10);
      // One row per new key: the first draft of a key within the batch wins (handlers list the strongest first).
      const select =
        `SELECT gen_random_uuid()::VARCHAR AS id, d.event_type, d.importance, ` +
        `CASE d.importance WHEN 'high' THEN 3 WHEN 'medium' THEN 2 ELSE 1 END::INTEGER AS importance_rank, ` +
        `d.confidence, d.entity_cik, d.entity_ticker, d.entity_name, d.accession, d.summary, d.details, d.evidence, d.dedup_key, ` +
        `try_cast(d.occurred_at AS TIMESTAMP) AS occurred_at, ${sqlString(detectedAt)}::TIMESTAMP AS detected_at, ` +
        `(${Number(maxseq)} + row_number() OVER (ORDER BY try_cast(d.occurred_at AS TIMESTAMP) NULLS FIRST, d.dedup_key))::BIGINT AS seq, ` +
        `1::INTEGER AS parser_version ` +
        `FROM (SELECT * FROM ${table} QUALIFY row_number() OVER (PARTITION BY dedup_key) = 1) d ` +
        `WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.dedup_key = d.dedup_key) ORDER BY seq`;
      const n = await appendPartitionFile(conn, settings.lakeDir, eventsTable, day, select);
      if (n > 0) await recordInCatalog(settings, day, n, now);
      return n;
    } finally {
      await conn.run(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
      conn.closeSync();
      if (!opts.lake) lake.close();
      await scratch.finish();
    }
  });
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
