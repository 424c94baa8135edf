import type { RowOf, TableSpec } from '../../schemas/table.ts';
import type { BadRow } from '../lake/staging.ts';
import type { HttpClient } from '../sources/common/http.ts';

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
  settings: import('../../schemas/settings.ts').Settings;
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
  parserVersion: number;
}

export interface SampleOptions {
  /** Deterministic output for the same seed. */
  seed: number;
  /** Row-count multiplier; 1 = the demo size. Bench harnesses pass larger values. */
  scale: number;
}

/**
 * One ingester: fetch raw → stream-parse → validate/normalize → write partition → update catalog → diff stage.
 * The framework does everything after `load`; a dataset declares tables and writes `inputs` and `load`.
 */
export interface DatasetIngester {
  /** CLI name, e.g. `advisers`. */
  name: string;
  description: string;
  /** The lake tables this ingester writes (one folder and SQL view each). */
  tables: TableSpec[];
  /**
   * Datasets whose lake tables this one reads while it runs (in `inputs`, `load` or its events), by name: the demo
   * and the nightly schedule run them first (registry `dependencyOrder`). An unknown name or a cycle fails the load.
   */
  dependsOn: string[];
  /** Bump when the parser's output changes: the next run re-derives affected partitions from the raw cache. */
  parserVersion: number;
  /** Source label used in the API envelope, e.g. `sec_form_adv`. */
  source: string;
  /** Regulator pages the data comes from (shown in /v1/sources and the README). */
  sourceUrls: string[];
  /** Which IngestArgs it takes, for `--list` and errors. */
  argsHelp: string;
  /**
   * The DuckDB memory limit of its runs when INGEST_MEMORY_LIMIT is not set (else `DEFAULT_INGEST_MEMORY_LIMIT`): a
   * dataset whose peak RSS at real sizes runs past the 1.5 GB target at the default sets a lower one (13F).
   */
  memoryLimit?: string;
  /** The raw files a run needs: downloaded through ctx.http (cached under data/raw/) or listed from args.from. */
  inputs(ctx: IngestContext, args: IngestArgs): Promise<RawInput[]>;
  /** Stream-parse the inputs and hand rows to ctx.append (or ctx.sql for bulk tables). */
  load(ctx: LoadContext, inputs: RawInput[], args: IngestArgs): Promise<void>;
  /** Write a demo sample in the regulator's real format into `dir` (then ingested with --from dir). */
  sample?(dir: string, opts: SampleOptions): Promise<void>;
}

export function defineIngester(def: DatasetIngester): DatasetIngester {
  return def;
}
