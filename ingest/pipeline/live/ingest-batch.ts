import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Settings } from '../../../schemas/settings.ts';
import type { HttpClient } from '../../sources/common/http.ts';
import { cikDigits } from '../../sources/common/normalize.ts';
import type { FeedFiling } from '../../sources/edgar/bulk/current-feed.ts';
import type { HeaderFacts } from '../../sources/edgar/archive/index-headers.ts';
import { runDiffStage } from '../../events/diff-stage.ts';
import { startRun } from '../../lake/scratch.ts';
import type { ChangedTable } from '../../events/handler.ts';
import { findIngester } from '../registry.ts';
import { compactAppends } from './compact.ts';
import type { runIngest } from '../runner.ts';
import { datasetForForm } from './route.ts';

/** `lake`: the batch's filings are in the filing index; `events`: the batch's events are appended (latency benches). */
export type LiveStage = 'lake' | 'events';

export interface FetchedFiling {
  filing: FeedFiling;
  /** The downloaded full submission `.txt`; null for forms whose index row is all the lake takes. */
  path: string | null;
  /** 8-Ks: items and acceptance time from the header page. */
  header?: HeaderFacts;
}

export interface BatchResult {
  accessions: string[];
  filings: number;
  rows: number;
  events: number;
  datasets: string[];
  /** Partitions whose append files were folded back into their data file after this batch (`table/value`). */
  compacted: string[];
}

/** The feed's `Filed:` date, else the acceptance day in Eastern time (what EDGAR files it under). */
function filedDay(f: FeedFiling): string {
  if (f.filedDate) return f.filedDate;
  return new Date(Date.parse(f.updated) - 5 * 3600_000).toISOString().slice(0, 10);
}

/**
 * The daily index's own line format (`master.idx`: one line per party CIK), so the filings dataset reads a live
 * batch exactly as it reads the daily lane's file and both produce the same (accession, cik) rows.
 */
function masterIdx(filings: FeedFiling[]): string {
  const lines = filings.flatMap((f) =>
    f.parties.map((p) => {
      const cik = cikDigits(p.cik);
      return `${cik}|${p.name.replace(/\|/g, ' ')}|${f.form}|${filedDay(f).replace(/-/g, '')}|edgar/data/${cik}/${f.accession}.txt`;
    }),
  );
  const head = `Description:           Live lane batch (latest-filings feed)\n\nCIK|Company Name|Form Type|Date Filed|File Name\n${'-'.repeat(80)}`;
  return `${head}\n${lines.join('\n')}\n`;
}

/**
 * The header facts of the batch's 8-Ks in the submissions JSON's own columnar shape (`CIK##########_live.json`,
 * one per party CIK), so the filings dataset enriches their index rows exactly as the nightly submissions lane
 * does. The acceptance time keeps the header's Eastern digits, as the submissions JSON itself writes them.
 */
function submissionsDocs(batch: FetchedFiling[]): { name: string; doc: unknown }[] {
  const byCik = new Map<string, { name: string; rows: { f: FeedFiling; h: HeaderFacts }[] }>();
  for (const b of batch) {
    if (!b.header) continue;
    for (const p of b.filing.parties) {
      const e = byCik.get(p.cik) ?? { name: p.name, rows: [] };
      e.rows.push({ f: b.filing, h: b.header });
      byCik.set(p.cik, e);
    }
  }
  return [...byCik].map(([cik, e]) => {
    const a = e.rows.map(({ h }) => h.accepted?.match(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/));
    const recent = {
      accessionNumber: e.rows.map(({ f }) => f.accession),
      filingDate: e.rows.map(({ f }) => filedDay(f)),
      acceptanceDateTime: a.map((m) => (m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z` : '')),
      form: e.rows.map(({ f }) => f.form),
      items: e.rows.map(({ h }) => h.items.join(',')),
    };
    return { name: `CIK${cik.padStart(10, '0')}_live.json`, doc: { cik: String(Number(cik)), name: e.name, filings: { recent, files: [] } } };
  });
}

/**
 * Ingests one live batch through the datasets' own `--from` paths: the filing index first (every filing), then
 * each owning dataset over its filings' submission files. Each run merges into the partitions it touches and
 * runs the events diff stage, so events follow in the same call. Throws when any run fails (the caller keeps
 * the whole batch pending: re-running it is idempotent).
 */
export async function ingestLiveBatch(
  batch: FetchedFiling[],
  deps: { settings: Settings; http: HttpClient; run: typeof runIngest; onStage?: (stage: LiveStage, accessions: string[]) => void },
): Promise<BatchResult> {
  // A run's scratch (held by its heartbeat lock), so a dead-scratch cleaner never takes it from a live batch.
  const scratch = await startRun(deps.settings.dataDir, 'live');
  const dir = scratch.workDir;
  const accessions = batch.map((b) => b.filing.accession);
  const result: BatchResult = { accessions, filings: batch.length, rows: 0, events: 0, datasets: [], compacted: [] };
  try {
    await mkdir(join(dir, 'filings'), { recursive: true });
    await writeFile(join(dir, 'filings', 'master.live.idx'), masterIdx(batch.map((b) => b.filing)));
    for (const s of submissionsDocs(batch)) await writeFile(join(dir, 'filings', s.name), JSON.stringify(s.doc));
    const owned = new Map<string, FetchedFiling[]>();
    for (const b of batch) {
      const ds = datasetForForm(b.filing.form);
      if (ds && b.path) owned.set(ds, [...(owned.get(ds) ?? []), b]);
    }
    for (const [ds, items] of owned) {
      await mkdir(join(dir, ds), { recursive: true });
      for (const b of items) await copyFile(b.path!, join(dir, ds, `${b.filing.accession}.txt`));
    }
    const changed: ChangedTable[] = [];
    for (const name of ['filings', ...owned.keys()]) {
      const def = await findIngester(name);
      if (!def) throw new Error(`live lane: no dataset named ${name}`);
      const s = await deps.run(def, { from: join(dir, name) }, deps.settings, { http: deps.http, quiet: true, skipDiff: true, appendOnly: true });
      // The filing index lists every filing of the batch: from here they are in the lake.
      if (name === 'filings') deps.onStage?.('lake', accessions);
      changed.push(...s.tables.map((t) => ({ table: t.table, partitions: t.partitions.map((p) => p.value), accessions })));
      result.rows += s.rowsWritten;
      result.datasets.push(name);
      for (const t of s.tables) {
        const spec = def.tables.find((x) => x.name === t.table)!;
        const values = t.partitions.map((p) => p.value);
        result.compacted.push(
          ...(await compactAppends(deps.settings, spec, values, deps.settings.LIVE_COMPACT_FILES, def.memoryLimit)).map((v) => `${t.table}/${v}`),
        );
      }
    }
    // One diff stage for the whole batch (one lake reader, one events file): each stage costs ~2 s on 2 shared cores.
    if (changed.length) result.events += (await runDiffStage(deps.settings, changed, { quiet: true })).appended;
    deps.onStage?.('events', accessions);
    return result;
  } finally {
    await scratch.finish();
  }
}
