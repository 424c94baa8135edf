import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readCatalogEntry, writeCatalogEntry } from '../core/catalog.ts';
import { openDuck, queryRows, sqlString } from '../core/duck.ts';
import { tableFiles } from '../core/lake-layout.ts';
import { appendPartitionFile } from '../core/lake-writer.ts';
import { withLock } from '../core/lock.ts';
import type { Settings } from '../core/settings.ts';
import { eventsTable } from './table.ts';

export type Importance = 'low' | 'medium' | 'high';
export const IMPORTANCE_RANK: Record<Importance, number> = { low: 1, medium: 2, high: 3 };

export interface EvidenceItem {
  source_type: string;
  url: string;
  retrieved_at: string;
  excerpt: string | null;
  section: string | null;
  excerpt_sha256: string | null;
}

/** What a diff handler proposes; the writer assigns id, seq and detected_at. */
export interface EventDraft {
  event_type: string;
  importance: Importance;
  confidence: number;
  entity_cik: string | null;
  entity_ticker: string | null;
  entity_name: string | null;
  accession: string | null;
  summary: string;
  details: Record<string, unknown>;
  evidence: EvidenceItem[];
  dedup_key: string;
  occurred_at: string | null;
}

/**
 * Appends drafts whose dedup_key is not already in the events table (nor repeated within the batch).
 * Under the events lock, so the server's scheduler and a CLI ingest cannot both append the same key; the new
 * file is renamed into place only when complete, so a crash leaves either nothing or the whole batch, and a
 * rerun appends exactly what is missing. Returns the number appended.
 */
export async function appendEvents(settings: Settings, drafts: EventDraft[], now: Date = new Date()): Promise<number> {
  if (!drafts.length) return 0;
  const lock = join(settings.lakeDir, eventsTable.name, '.lock');
  return withLock(lock, async () => {
    const workDir = join(settings.dataDir, '.work', `events-${randomUUID().slice(0, 8)}`);
    await mkdir(workDir, { recursive: true });
    const { instance, conn } = await openDuck(':memory:', { threads: '2' });
    try {
      const file = join(workDir, 'drafts.ndjson');
      const seen = new Set<string>();
      const lines: string[] = [];
      for (const d of drafts) {
        if (seen.has(d.dedup_key)) continue;
        seen.add(d.dedup_key);
        lines.push(JSON.stringify({
          ...d,
          importance_rank: IMPORTANCE_RANK[d.importance],
          details: JSON.stringify(d.details),
          evidence: JSON.stringify(d.evidence),
        }));
      }
      await writeFile(file, `${lines.join('\n')}\n`);
      const files = tableFiles(settings.lakeDir, eventsTable.name);
      const existing = files.length
        ? `SELECT dedup_key, seq FROM read_parquet(${sqlString(join(settings.lakeDir, eventsTable.name, '*', '*.parquet'))}, hive_partitioning = false)`
        : `SELECT NULL::VARCHAR AS dedup_key, 0::BIGINT AS seq WHERE false`;
      await conn.run(`CREATE TABLE existing AS ${existing}`);
      const [{ maxseq }] = await queryRows(conn, 'SELECT coalesce(max(seq), 0)::BIGINT AS maxseq FROM existing');
      const detectedAt = now.toISOString().replace('Z', '');
      const day = now.toISOString().slice(0, 10);
      const select =
        `SELECT gen_random_uuid()::VARCHAR AS id, d.event_type, d.importance, d.importance_rank::INTEGER AS importance_rank, ` +
        `d.confidence::DOUBLE AS confidence, d.entity_cik, d.entity_ticker, d.entity_name, d.accession, d.summary, ` +
        `d.details, d.evidence, d.dedup_key, d.occurred_at::TIMESTAMP AS occurred_at, ` +
        `${sqlString(detectedAt)}::TIMESTAMP AS detected_at, ` +
        `(${Number(maxseq)} + row_number() OVER (ORDER BY d.occurred_at NULLS FIRST, d.dedup_key))::BIGINT AS seq, ` +
        `1::INTEGER AS parser_version ` +
        `FROM read_json(${sqlString(file)}, format = 'newline_delimited', columns = {event_type: 'VARCHAR', importance: 'VARCHAR', ` +
        `importance_rank: 'INTEGER', confidence: 'DOUBLE', entity_cik: 'VARCHAR', entity_ticker: 'VARCHAR', entity_name: 'VARCHAR', ` +
        `accession: 'VARCHAR', summary: 'VARCHAR', details: 'VARCHAR', evidence: 'VARCHAR', dedup_key: 'VARCHAR', occurred_at: 'VARCHAR'}) d ` +
        `WHERE d.dedup_key NOT IN (SELECT dedup_key FROM existing) ORDER BY seq`;
      const n = await appendPartitionFile(conn, settings.lakeDir, eventsTable, day, select);
      if (n > 0) {
        const entry = (await readCatalogEntry(settings.lakeDir, eventsTable.name)) ?? {
          table: eventsTable.name, dataset: 'events', description: eventsTable.description, source: 'svc_events',
          source_urls: [], partition_key: eventsTable.partitionBy, record_count: 0, last_refresh: null, partitions: [],
        };
        const part = entry.partitions.find((p) => p.value === day);
        if (part) part.rows += n;
        else entry.partitions.push({ value: day, rows: n, parser_version: 1, refreshed_at: now.toISOString(), inputs: [], args: {} });
        entry.partitions.sort((a, b) => a.value.localeCompare(b.value));
        entry.record_count += n;
        entry.last_refresh = now.toISOString();
        await writeCatalogEntry(settings.lakeDir, entry);
      }
      return n;
    } finally {
      conn.closeSync();
      instance.closeSync();
      await rm(workDir, { recursive: true, force: true });
    }
  });
}
