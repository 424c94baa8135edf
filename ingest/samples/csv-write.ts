import { encodeCp1252 } from '../sources/common/text.ts';

/** One CSV line the way the regulator's exports write it: every field quoted, `""` escapes, CRLF. */
function csvLine(fields: (string | number | null | undefined)[]): string {
  return `${fields.map((f) => `"${f == null ? '' : String(f).replace(/"/g, '""')}"`).join(',')}\r\n`;
}

/** A whole CSV (header + rows, picked by header name) encoded as Windows-1252. */
export function cp1252Csv(headers: string[], rows: Record<string, string | number | null | undefined>[]): Buffer {
  let text = csvLine(headers);
  for (const r of rows) text += csvLine(headers.map((h) => r[h]));
  return encodeCp1252(text);
}
