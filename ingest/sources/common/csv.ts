import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { decodeStream, type SourceEncoding } from './text.ts';

/**
 * Streaming CSV with line numbers. A malformed record (unclosed quote, stray quote) is reported through
 * `onBad` and skipped, never thrown: one bad line must not abort a 100k-row file.
 */
export interface CsvRow {
  fields: string[];
  /** 1-based physical line where the record starts (the header is line 1). */
  line: number;
}

export interface CsvOptions {
  encoding: SourceEncoding;
  delimiter?: string;
  /** Tab-delimited regulator files do not quote; a literal `"` inside a name must stay a character. */
  quote?: string | false;
  onBad(line: number | null, reason: string): void;
}

export async function* csvRows(bytes: AsyncIterable<Buffer | Uint8Array>, opts: CsvOptions): AsyncGenerator<CsvRow> {
  const parser = parse({
    delimiter: opts.delimiter ?? ',',
    quote: opts.quote === false ? null : (opts.quote ?? '"'),
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    info: true,
  });
  // csv-parse counts a CRLF inside a quoted field as two lines, so its `info.lines` drifts after every
  // multi-line cell; `drift` undoes that to report the physical line users see in an editor.
  let drift = 0;
  parser.on('skip', (err: Error & { lines?: number }) => opts.onBad(err.lines == null ? null : err.lines - drift, `unparsable CSV record: ${err.message}`));
  Readable.from(decodeStream(bytes, opts.encoding)).pipe(parser);
  for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    let crlf = 0;
    let breaks = 0;
    for (const f of item.record) {
      if (f.indexOf('\n') < 0 && f.indexOf('\r') < 0) continue;
      crlf += f.match(/\r\n/g)?.length ?? 0;
      breaks += f.match(/\r\n|\r|\n/g)?.length ?? 0;
    }
    const endLine = item.info.lines - drift - crlf;
    drift += crlf;
    yield { fields: item.record, line: endLine - breaks };
  }
}

/** One logical column and the header spellings the regulator has used for it over the years. */
export interface ColumnAlias {
  /** Exact header labels (compared case-, space- and punctuation-insensitively). */
  names?: string[];
  /** A Form ADV item code (`5F(2)(c)`): matches a header that is the code, or the code followed by a label. */
  item?: string;
}

function squash(h: string): string {
  return h.toLowerCase().replace(/[^a-z0-9#()]/g, '');
}

function startsWithItem(header: string, item: string): boolean {
  const h = header.trim().toUpperCase();
  const code = item.toUpperCase();
  if (!h.startsWith(code)) return false;
  const next = h.charAt(code.length);
  return next === '' || /[\s\-:–]/.test(next);
}

/** Resolves columns by header name once per file, so renamed or reordered layouts parse the same way. */
export class HeaderMap<K extends string> {
  readonly index: Partial<Record<K, number>> = {};
  readonly width: number;
  constructor(
    readonly headers: string[],
    aliases: Record<K, ColumnAlias>,
  ) {
    this.width = headers.length;
    const squashed = headers.map(squash);
    for (const [key, alias] of Object.entries(aliases) as [K, ColumnAlias][]) {
      let i = -1;
      for (const n of alias.names ?? []) {
        i = squashed.indexOf(squash(n));
        if (i >= 0) break;
      }
      if (i < 0 && alias.item) i = headers.findIndex((h) => startsWithItem(h, alias.item!));
      if (i >= 0) this.index[key] = i;
    }
  }
  has(key: K): boolean {
    return this.index[key] !== undefined;
  }
  /** The untouched cell text, or null when the column is absent or the cell empty. */
  get(fields: string[], key: K): string | null {
    const i = this.index[key];
    if (i === undefined) return null;
    const v = fields[i];
    if (v === undefined) return null;
    const t = v.trim();
    return t === '' ? null : t;
  }
  /** Headers matching a pattern, for families of item columns (5D client types). */
  matching(re: RegExp): { header: string; index: number }[] {
    return this.headers.map((header, index) => ({ header, index })).filter((h) => re.test(h.header.trim()));
  }
}
