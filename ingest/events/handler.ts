import type { EventDraft } from '../../schemas/events.ts';
import type { Settings } from '../../schemas/settings.ts';
import type { LakeReader } from '../lake/reader.ts';
import type { SqlDrafts } from './writer.ts';

/**
 * What a diff handler is: the diff stage runs each handler whose input tables an ingest changed, with the lake
 * open for reading, and appends the drafts it returns. Handlers live in `ingest/events/handlers/`, listed in
 * `ingest/events/diff.ts`.
 */
export interface DiffContext {
  lake: LakeReader;
  settings: Settings;
  log(message: string): void;
}

export interface ChangedTable {
  table: string;
  partitions: string[];
  /**
   * The filings the change is about, when known (the live lane's batches): handlers that read by accession draft
   * events for these alone instead of re-drafting the whole partition (a quarter of the filing index: ~1 minute).
   */
  accessions?: string[];
}

/** Drafts in JS for small diffs, or SELECTs the writer runs inside DuckDB for large ones. */
export interface DiffOutput {
  drafts?: EventDraft[];
  sql?: SqlDrafts[];
}

export interface DiffHandler {
  name: string;
  /** Tables whose change triggers the handler. */
  tables: string[];
  run(ctx: DiffContext, changed: ChangedTable[]): Promise<DiffOutput>;
}
