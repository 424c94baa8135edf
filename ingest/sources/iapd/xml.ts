import { Parser } from 'htmlparser2';
import { decodeStream, type SourceEncoding } from '../common/text.ts';

/**
 * Streaming, lenient XML for the IAPD compilation feeds (hundreds of MB, ISO-8859-1, attribute-heavy).
 * htmlparser2 in xmlMode tolerates the stray `&` that strict parsers reject (docs/engine-notes.md §5).
 * The callbacks receive the 1-based line of each opening tag so bad records can be reported precisely.
 */
export interface XmlHandlers {
  open(name: string, attrs: Record<string, string>, line: number): void;
  text?(text: string): void;
  close(name: string): void;
}

/**
 * Feeds the document to the handlers chunk by chunk and yields after each chunk, so a caller that queued
 * records in its handlers can hand them on (with backpressure) before the next chunk is parsed.
 */
export async function* streamXml(bytes: AsyncIterable<Buffer | Uint8Array>, encoding: SourceEncoding, h: XmlHandlers): AsyncGenerator<void> {
  // Line tracking without keeping the document: count newlines of the current chunk up to each tag start.
  let chunk = '';
  let chunkStart = 0;
  let scanned = 0;
  let line = 1;
  const lineAt = (index: number): number => {
    const from = Math.max(scanned, chunkStart);
    for (let i = from - chunkStart; i < index - chunkStart && i < chunk.length; i++) if (chunk.charCodeAt(i) === 10) line++;
    scanned = Math.max(scanned, index);
    return line;
  };
  const parser = new Parser(
    {
      onopentag: (name, attrs) => h.open(name, attrs, lineAt(parser.startIndex)),
      ontext: h.text ? (t) => h.text!(t) : undefined,
      onclosetag: (name) => h.close(name),
    },
    { xmlMode: true, decodeEntities: true },
  );
  for await (const text of decodeStream(bytes, encoding)) {
    // Finish counting the previous chunk so line numbers stay right across chunk boundaries.
    lineAt(chunkStart + chunk.length);
    chunkStart += chunk.length;
    chunk = text;
    parser.write(text);
    yield;
  }
  parser.end();
  yield;
}
