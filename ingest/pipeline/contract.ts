import type { TableSpec } from '../../schemas/table.ts';
import type { IngestArgs, IngestContext, LoadContext, RawInput, SampleOptions } from '../sources/common/context.ts';

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
