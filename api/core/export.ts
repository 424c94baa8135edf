import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RequestHandler, Response } from 'express';
import { z } from 'zod';
import { orderSql, sqlString } from '../../ingest/lake/index.ts';
import { exportCost } from '../../schemas/plans.ts';
import { callOf } from './call.ts';
import { filterList } from './compile.ts';
import { openCharge } from './credits.ts';
import type { ListEndpoint } from './endpoint.ts';
import { p } from './params.ts';
import type { Services } from './services.ts';

/**
 * Bulk export of a list endpoint: `GET <list path>/export?<the list's filters>&format=csv|parquet|ndjson` answers every
 * matching record (no page limit) in the list's order, with the list's record fields. Same validation and 422s as
 * the list (one `filterList`); the rows are counted first and the export charged by that count (`exportCost`: a 402
 * arrives before any byte), then streamed from DuckDB chunk by chunk (2,048 rows): CSV and NDJSON straight to the
 * response, Parquet through NDJSON in a temp file that DuckDB's COPY turns into zstd Parquet, then streamed. The
 * server never holds the whole result.
 */

const EXPORT_FORMATS = ['csv', 'parquet', 'ndjson'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const exportPath = (listPath: string) => `${listPath}/export`;

export const exportParams = () => ({
  format: p.enum(EXPORT_FORMATS, { required: true, lower: true, description: 'File format: `csv` (header row), `ndjson` (one record per line) or `parquet`.' }),
});

const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
  parquet: 'application/vnd.apache.parquet',
};

/** The record's field names in schema order (the CSV header), or those of the first record when the schema has no shape. */
function fieldsOf(ep: ListEndpoint): string[] | null {
  const shape = (ep.record as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : null;
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

async function* records(ep: ListEndpoint, chunks: AsyncIterable<Record<string, unknown>[]>): AsyncGenerator<Record<string, unknown>[]> {
  for await (const rows of chunks) yield rows.map((r) => ep.toRecord(r) as Record<string, unknown>);
}

async function* csvLines(fields: string[] | null, recs: AsyncIterable<Record<string, unknown>[]>): AsyncGenerator<string> {
  let cols = fields;
  if (cols) yield `${cols.join(',')}\n`;
  for await (const batch of recs) {
    if (!batch.length) continue;
    if (!cols) {
      cols = Object.keys(batch[0]);
      yield `${cols.join(',')}\n`;
    }
    const c = cols;
    yield batch.map((r) => `${c.map((k) => csvCell(r[k])).join(',')}\n`).join('');
  }
}

async function* ndjsonLines(recs: AsyncIterable<Record<string, unknown>[]>): AsyncGenerator<string> {
  for await (const batch of recs) if (batch.length) yield batch.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** NDJSON to a temp file, DuckDB's COPY to Parquet, then the file: the records' types are read from the full file. */
async function sendParquet(services: Services, res: Response, fields: string[] | null, lines: AsyncIterable<string>, rows: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'export-'));
  try {
    const ndjson = join(dir, 'records.ndjson');
    const parquet = join(dir, 'records.parquet');
    await pipeline(Readable.from(lines), createWriteStream(ndjson));
    // An empty export still has the record's columns (as text): read_json cannot type a file with no records.
    const source =
      rows > 0 || !fields
        ? `SELECT * FROM read_json(${sqlString(ndjson)}, format = 'newline_delimited', sample_size = -1)`
        : `SELECT ${fields.map((f) => `NULL::VARCHAR AS "${f.replace(/"/g, '""')}"`).join(', ')} WHERE false`;
    await services.lake.query(`COPY (${source}) TO ${sqlString(parquet)} (FORMAT parquet, COMPRESSION zstd)`, [], { cache: false });
    await pipeline(createReadStream(parquet), res);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The handler of `<list path>/export` (after authentication and the rate limit; the app mounts it). */
export function exportHandler(ep0: ListEndpoint, services: Services, metering: boolean): RequestHandler {
  return async (req, res) => {
    const call = callOf(res);
    const { ep, values, where, params } = await filterList(ep0, services, req.query as Record<string, unknown>, exportParams());
    const format = values.format as ExportFormat;
    const from = `FROM "${ep.table.name}"${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
    const counted = await services.lake.query(`SELECT count(*) AS n ${from}`, params);
    const rows = Number(counted[0]?.n ?? 0);
    const credits = exportCost(rows);
    call.charge = openCharge(services.meter, call.account!, { min: credits, max: credits }, metering);
    await call.charge.reserve();
    const { charged, remaining } = await call.charge.settle(credits);
    res.setHeader('X-Credits-Charged', String(charged));
    res.setHeader('X-Credits-Remaining', String(remaining));
    res.setHeader('X-Export-Rows', String(rows));
    res.setHeader('Content-Type', EXPORT_CONTENT_TYPES[format]);
    res.setHeader('Content-Disposition', `attachment; filename="${ep0.path.split('/').filter(Boolean).slice(1).join('-')}.${format}"`);

    const fields = fieldsOf(ep);
    const recs = records(ep, services.lake.stream(`SELECT * ${from} ORDER BY ${orderSql(ep.orderBy)}`, params));
    try {
      if (format === 'parquet') await sendParquet(services, res, fields, ndjsonLines(recs), rows);
      else await pipeline(Readable.from(format === 'csv' ? csvLines(fields, recs) : ndjsonLines(recs)), res);
    } catch (err) {
      // Bytes may be out already: the status cannot change, so the client sees a cut stream, and pays nothing.
      await call.charge.refund();
      call.log.error({ err, url: req.originalUrl }, 'export failed');
      if (!res.headersSent) throw err;
      res.destroy(err as Error);
    }
  };
}

/** The OpenAPI description of an export's 200 answer, one entry per format. */
export const exportResponseContent = Object.fromEntries(EXPORT_FORMATS.map((f) => [EXPORT_CONTENT_TYPES[f].split(';')[0], { schema: z.string() }]));
