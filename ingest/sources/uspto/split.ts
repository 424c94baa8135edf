import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { zipMembers } from '../common/zip.ts';

/**
 * The weekly grant file is not one XML document but thousands concatenated, each with its own
 * `<?xml …?>` declaration and DOCTYPE (docs/formats/14-uspto-patents.md). This splits a byte stream at
 * those declarations and yields one document at a time, so memory holds one patent (tens of KB) plus one
 * read chunk, never the ~1 GB file.
 */

export interface XmlDocumentChunk {
  /** The document text, from its `<?xml` declaration to just before the next one. */
  xml: string;
  /** 1-based ordinal of the document in the file. */
  ordinal: number;
  /** 1-based line of the file where the document starts (for bad-row reports). */
  line: number;
}

const DECL = '<?xml';

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

export async function* splitConcatenatedXml(source: AsyncIterable<Buffer | string>): AsyncGenerator<XmlDocumentChunk> {
  const decoder = new TextDecoder('utf-8');
  let buf = '';
  // Where to resume searching for the next declaration: never rescan what was already searched.
  let searchFrom = 1;
  let ordinal = 0;
  let line = 1;
  const emit = (xml: string): XmlDocumentChunk => {
    const chunk = { xml, ordinal: ++ordinal, line };
    line += countNewlines(xml);
    return chunk;
  };
  for await (const part of source) {
    buf += typeof part === 'string' ? part : decoder.decode(part, { stream: true });
    for (;;) {
      const at = buf.indexOf(DECL, searchFrom);
      if (at === -1) {
        searchFrom = Math.max(1, buf.length - DECL.length);
        break;
      }
      const doc = buf.slice(0, at);
      buf = buf.slice(at);
      searchFrom = 1;
      // Bytes before the first declaration (a BOM, blank lines) are not a document.
      if (doc.trim()) yield emit(doc);
      else line += countNewlines(doc);
    }
  }
  buf += decoder.decode();
  if (buf.trim()) yield emit(buf);
}

/** The grant XML of a local `.xml` file, or of the first `.xml` member of a weekly `.zip`, as a byte stream. */
export async function openGrantStream(path: string): Promise<Readable> {
  if (!/\.zip$/i.test(path)) return createReadStream(path, { highWaterMark: 1 << 20 });
  for await (const member of zipMembers(path, (name) => /\.xml$/i.test(name))) return await member.open();
  throw new Error(`${path}: the zip holds no .xml member`);
}
