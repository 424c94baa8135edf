import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

/**
 * Whether a raw file is whole, judged from its own structure before anything is parsed: a download or copy cut
 * short still parses (an advisers roster cut in half gave 159 of 320 rows; a Form 144 cut mid-XML gave
 * units_to_be_sold 72 instead of 72800), so the parsers cannot be relied on to notice.
 * Returns null for a complete file, or where and why it is not, in plain words.
 */
export interface Incomplete {
  file: string;
  line: number | null;
  reason: string;
}

const TAIL_BYTES = 64 * 1024;

async function readRange(path: string, start: number, length: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, start);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** One pass over the file: its line count and whether its double quotes pair up (an odd count is an open quote). */
async function scan(path: string): Promise<{ lines: number; quotesEven: boolean }> {
  let lines = 1;
  let quotes = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    for (let i = chunk.indexOf(34); i >= 0; i = chunk.indexOf(34, i + 1)) quotes++;
  }
  return { lines, quotesEven: quotes % 2 === 0 };
}

/** Fields of one delimited line, delimiters inside double quotes not counted. */
function fieldCount(line: string, delimiter: string): number {
  let n = 1;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === delimiter && !quoted) n++;
  }
  return n;
}

const evenQuotes = (s: string) => (s.split('"').length - 1) % 2 === 0;

async function checkDelimited(path: string, size: number, delimiter: string, quoting: boolean): Promise<Incomplete | null> {
  const file = basename(path);
  const { lines, quotesEven } = await scan(path);
  if (quoting && !quotesEven) return { file, line: lines, reason: 'a quoted field is still open at the end of the file: the file is cut short' };
  const tail = (await readRange(path, Math.max(0, size - TAIL_BYTES), Math.min(size, TAIL_BYTES))).toString('utf8');
  const all = tail.split(/\r?\n/);
  let trailing = 0;
  while (all.length && all[all.length - 1].trim() === '') {
    all.pop();
    trailing++;
  }
  // The tail's first line may start mid-line; lines with an odd quote count belong to multi-line fields.
  const whole = (size > TAIL_BYTES ? all.slice(1) : all).filter((l) => !quoting || evenQuotes(l));
  const last = all[all.length - 1];
  if (whole.length < 3 || last === undefined || (quoting && !evenQuotes(last))) return null;
  const counts = new Map<number, number>();
  for (const l of whole.slice(0, -1)) counts.set(fieldCount(l, delimiter), (counts.get(fieldCount(l, delimiter)) ?? 0) + 1);
  const usual = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const got = fieldCount(last, delimiter);
  if (got >= usual) return null;
  return { file, line: lines - trailing, reason: `the last line has ${got} of the ${usual} fields the other lines have: the file is cut short` };
}

/** The root element's name: the first element after the prolog, comments and doctype. */
function rootName(head: string): string | null {
  const re = /<([^?!/\s>][^\s/>]*)/g;
  const body = head.replace(/<!--[\s\S]*?-->/g, '').replace(/<\?[\s\S]*?\?>/g, '');
  return re.exec(body)?.[1] ?? null;
}

async function checkXml(path: string, size: number): Promise<Incomplete | null> {
  const file = basename(path);
  const head = (await readRange(path, 0, Math.min(size, TAIL_BYTES))).toString('utf8');
  const root = rootName(head);
  if (!root) return { file, line: 1, reason: 'no XML element found: the file is empty or not XML' };
  const tail = (await readRange(path, Math.max(0, size - TAIL_BYTES), Math.min(size, TAIL_BYTES))).toString('utf8').replace(/[\s\0]+$/, '');
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (new RegExp(`</${escaped}\\s*>$`).test(tail)) return null;
  const { lines } = await scan(path);
  const lastBytes = tail.slice(-40).replace(/\s+/g, ' ');
  return { file, line: lines, reason: `the XML ends before its root element <${root}> is closed (it ends with '${lastBytes}'): the file is cut short` };
}

/** An EDGAR full submission (.txt/.nc): every document and XML block it opens must be closed. */
function checkSubmission(file: string, text: string): Incomplete | null {
  for (const tag of ['DOCUMENT', 'XML', 'TEXT']) {
    const opened = text.split(`<${tag}>`).length - 1;
    const closed = text.split(`</${tag}>`).length - 1;
    if (opened > closed) {
      const line = text.split('\n').length;
      return { file, line, reason: `<${tag}> opened ${opened} time(s) but closed ${closed}: the submission is cut short` };
    }
  }
  return null;
}

/** The zip's end-of-central-directory record: missing when the download stopped before the end. */
async function checkZip(path: string, size: number): Promise<Incomplete | null> {
  const file = basename(path);
  const tailLen = Math.min(size, TAIL_BYTES + 22);
  const tail = await readRange(path, size - tailLen, tailLen);
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== 0x06054b50) continue;
    const cdSize = tail.readUInt32LE(i + 12);
    const cdOffset = tail.readUInt32LE(i + 16);
    // Zip64 stores 0xFFFFFFFF here and the real values elsewhere.
    if (cdOffset === 0xffffffff || cdOffset + cdSize <= size - tailLen + i) return null;
    break;
  }
  return { file, line: null, reason: 'the zip has no central directory at its end: the download or copy was cut short' };
}

async function checkGzip(path: string): Promise<Incomplete | null> {
  try {
    const gunzip = createGunzip();
    // Decompressed bytes are dropped: only whether the stream reaches its trailer matters.
    gunzip.resume();
    await pipeline(createReadStream(path), gunzip);
    return null;
  } catch (err) {
    return { file: basename(path), line: null, reason: `the gzip stream ends early (${(err as Error).message}): the file is cut short` };
  }
}

async function checkJson(path: string, size: number): Promise<Incomplete | null> {
  const head = (await readRange(path, 0, Math.min(size, 1024))).toString('utf8').trimStart();
  const tail = (await readRange(path, Math.max(0, size - 1024), Math.min(size, 1024))).toString('utf8').trimEnd();
  const close = head.startsWith('{') ? '}' : head.startsWith('[') ? ']' : null;
  if (!close || tail.endsWith(close)) return null;
  const { lines } = await scan(path);
  return { file: basename(path), line: lines, reason: `the JSON does not end with the '${close}' that closes it: the file is cut short` };
}

export async function checkComplete(path: string): Promise<Incomplete | null> {
  const st = await stat(path);
  if (!st.isFile()) return null;
  const name = basename(path).toLowerCase();
  if (st.size === 0) return { file: basename(path), line: null, reason: 'the file is empty' };
  if (name.endsWith('.zip')) return checkZip(path, st.size);
  if (name.endsWith('.gz')) return checkGzip(path);
  if (name.endsWith('.xml')) return checkXml(path, st.size);
  if (name.endsWith('.json')) return checkJson(path, st.size);
  if (name.endsWith('.csv')) return checkDelimited(path, st.size, ',', true);
  if (name.endsWith('.tsv')) return checkDelimited(path, st.size, '\t', false);
  if (name.endsWith('.txt') || name.endsWith('.nc')) {
    const head = (await readRange(path, 0, Math.min(st.size, 4096))).toString('utf8');
    if (/<(SEC-DOCUMENT|SUBMISSION|DOCUMENT)>/.test(head)) {
      // Filings are small; a 13F or financial-statement .txt is tab-separated and takes the branch below.
      if (st.size > 512 * 1024 * 1024) return null;
      return checkSubmission(basename(path), (await readRange(path, 0, st.size)).toString('utf8'));
    }
    if (head.split('\n')[0].includes('\t')) return checkDelimited(path, st.size, '\t', false);
  }
  return null;
}
