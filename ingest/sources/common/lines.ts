import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * Streams the lines of a text file (or stream) with their 1-based line numbers. EDGAR index files are
 * ASCII with the odd Latin-1 byte in company names, so they are decoded as latin1 (never a replacement char).
 */
export async function* readLines(source: string | Readable, encoding: BufferEncoding = 'latin1'): AsyncGenerator<{ line: string; lineNo: number }> {
  const input = typeof source === 'string' ? createReadStream(source, { encoding }) : source.setEncoding(encoding);
  const rl = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  for await (const line of rl) {
    lineNo += 1;
    yield { line, lineNo };
  }
}
