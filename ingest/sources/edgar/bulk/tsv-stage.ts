import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadContext } from '../../common/context.ts';
import type { RowOf, TableSpec } from '../../../../schemas/table.ts';
import { sqlPath } from './local-files.ts';

const NULL = '\\N';

const BREAKS = /[\t\r\n]/;
function cell(v: unknown): string {
  if (v == null) return NULL;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const t = typeof v === 'object' ? JSON.stringify(v) : String(v);
  // Tabs and line breaks would split the row; the values that carry them (labels) lose nothing by a space.
  return BREAKS.test(t) ? t.replace(/[\t\r\n]+/g, ' ') : t;
}

/**
 * Bulk path for tables of tens of millions of rows: rows are written to a temporary TSV and handed to DuckDB's
 * read_csv into `staging_<table>` every `batchRows` rows (10× faster than validating row objects one by one;
 * memory stays at one write buffer). The parser has already validated every value it writes.
 */
export class TsvStager<T extends TableSpec> {
  private dir: string | null = null;
  private out: WriteStream | null = null;
  private file = '';
  private pending = 0;
  private seq = 0;
  readonly cols: string[];
  total = 0;

  constructor(
    private ctx: LoadContext,
    private table: T,
    private batchRows = 2_000_000,
  ) {
    this.cols = Object.keys(table.columns);
  }

  private async open() {
    this.dir ??= await mkdtemp(join(tmpdir(), `stage-${this.table.name}-`));
    this.file = join(this.dir, `part-${this.seq++}.tsv`);
    this.out = createWriteStream(this.file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  }

  async write(row: RowOf<T>): Promise<void> {
    if (!this.out) await this.open();
    // Read by column name in the table's order; a generic row type cannot be indexed by a plain string.
    const values: Record<string, unknown> = row;
    let line = '';
    for (let i = 0; i < this.cols.length; i++) line += (i ? '\t' : '') + cell(values[this.cols[i]]);
    line += '\n';
    if (!this.out!.write(line)) await new Promise<void>((r) => this.out!.once('drain', () => r()));
    this.pending++;
    this.total++;
    if (this.pending >= this.batchRows) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.out) return;
    const out = this.out;
    this.out = null;
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    if (this.pending) {
      const types = this.cols.map((c) => {
        const t = this.table.columns[c].type;
        return `'${c}': '${t === 'JSON' ? 'VARCHAR' : t}'`;
      });
      const list = this.cols.map((c) => `"${c}"`).join(', ');
      await this.ctx.sql(
        `INSERT INTO "staging_${this.table.name}" (${list}, parser_version)
         SELECT ${list}, ${Number(this.ctx.parserVersion)} FROM read_csv(${sqlPath(this.file)}, delim = '\t', header = false,
           quote = '', escape = '', nullstr = '${NULL.replace(/\\/g, '\\')}', columns = {${types.join(', ')}})`,
      );
    }
    this.ctx.progress.rows(this.pending);
    this.pending = 0;
    await rm(this.file, { force: true });
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}
