import type { RowOf, TableSpec } from '../../../schemas/table.ts';
import type { Settings } from '../../../schemas/settings.ts';
import type { BadRow } from '../../lake/staging.ts';
import type { HttpClient } from './http.ts';

/**
 * The context an ingest runs in, as a dataset's sources and loaders see it: what the run asked for (`IngestArgs`), the
 * raw files it reads (`RawInput`), its progress, and what `inputs` and `load` are handed (`IngestContext`,
 * `LoadContext`). The ingester that takes them is defined in `ingest/pipeline/contract.ts`; these live here, beside the
 * HTTP client, so the sources and the samples below the pipeline type their readers without importing a layer above.
 */

/** What the CLI (or the scheduler) asked for. Each dataset documents which of these it takes. */
export interface IngestArgs {
  /** Quarter, `2024Q3`. */
  period?: string;
  /** A day, `YYYY-MM-DD` (daily lanes, monthly snapshots). */
  date?: string;
  /** A local file or folder to read instead of downloading. */
  from?: string;
  /** Filings by accession (`cik/accession`, comma-separated) for ingesters that fetch single filings. */
  accession?: string;
}

/** One raw file, already on local disk (in the raw cache or given with --from). */
export interface RawInput {
  path: string;
  /** Where it came from on the regulator's site; becomes `source_url` where rows have no better one. */
  url: string | null;
  meta?: Record<string, unknown>;
}

export interface Progress {
  /**
   * Count rows staged, for the periodic progress lines. One rule, so no row is counted twice: the runner counts
   * every row `ctx.append` accepts, and a dataset never reports those; a loader that inserts rows into
   * `staging_<table>` with `ctx.sql` reports them here once inserted (the runner cannot see them until the end).
   */
  rows(n?: number): void;
  /** Count bytes read (any dataset may report these). */
  bytes(n: number): void;
  note(message: string): void;
  /** What the run is doing now ("writing holdings_13f"): SQL-side work moves no row counter, so the line names it. */
  phase(name: string): void;
}

export interface IngestContext {
  http: HttpClient;
  settings: Settings;
  progress: Progress;
  log(message: string): void;
}

export interface LoadContext extends IngestContext {
  /**
   * Hand one row of `table` (one of the dataset's `tables`) to the writer. The row is typed by the table's
   * columns, so a misspelt or missing column is a compile error; at run time it is validated against the same
   * columns (zod, strict): a row that fails, or carries a key the table lacks, is counted as a bad row with
   * `line` and never aborts the run. The runner counts every appended row for progress.
   */
  append<T extends TableSpec>(table: T, row: RowOf<T>, where?: { file?: string; line?: number }): Promise<void>;
  /** Report a source line that could not be parsed (wrong column count, unparsable number…). */
  badRow(row: BadRow): void;
  /**
   * The number of rows a file says it holds (a trailer, a cover-page total), under the same `file` name the loader
   * passes to `append`/`badRow`: a run that read fewer rows from it (kept or rejected) is refused as cut short.
   * Optional so that contexts built outside the runner (test harnesses) need not provide it; call it as `ctx.declaredRows?.(…)`.
   */
  declaredRows?(file: string, rows: number): void;
  /**
   * SQL on the run's work database, for bulk files DuckDB reads 10× faster than JS (read_csv).
   * Insert into `staging_<table>`, whose columns are the table's columns plus `parser_version`; non-null columns
   * are NOT NULL there. Rows inserted this way skip row validation, so after `load` the runner checks every staged
   * table's primary key (non-null, unique within a partition) and fails the run before writing anything otherwise.
   * Report the rows inserted with `progress.rows` (see Progress.rows).
   * Paths are ours (never user input); quote them with `sqlString`.
   */
  sql(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /**
   * Declares the values a `sortAsCodes` column of `table` holds in the rows this loader stages with `sql`: a SELECT of
   * one column named `v` on the work database (a per-filing table of a few thousand rows, where the staged lines are
   * millions). The staged column becomes an ENUM of them, so each line stages 1–2 bytes instead of the text and the
   * sorted write needs no codes of its own (ingest/lake/sort-codes.ts). Declare before inserting the lines; calls add
   * up. A promise: every value staged in the column through `sql` is among them (more do no harm); one that is not
   * fails its statement, so none is written wrong. Rows staged with `append`, and rows a merge carries over from the
   * lake, add their own values first. Optional, as `declaredRows`: call it as `ctx.codeValues?.(…)`.
   */
  codeValues?(table: TableSpec, column: string, select: string): Promise<void>;
  parserVersion: number;
}

export interface SampleOptions {
  /** Deterministic output for the same seed. */
  seed: number;
  /** Row-count multiplier; 1 = the demo size. Bench harnesses pass larger values. */
  scale: number;
}
