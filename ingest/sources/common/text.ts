import { TextDecoder } from 'node:util';

/**
 * Byte streams to text. The regulator publishes Windows-1252 CSVs, ISO-8859-1 XML and (reportedly) UTF-16
 * broker-dealer lists: a byte-order mark, when present, wins over the declared encoding.
 */
export type SourceEncoding = 'windows-1252' | 'iso-8859-1' | 'utf-8' | 'utf-16le' | 'utf-16be';

function encodingFromBom(head: Uint8Array): { encoding: SourceEncoding; skip: number } | null {
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', skip: 3 };
  return null;
}

/** Decodes a byte stream chunk by chunk (multi-byte characters split across chunks are kept whole). */
export async function* decodeStream(bytes: AsyncIterable<Buffer | Uint8Array>, fallback: SourceEncoding): AsyncGenerator<string> {
  let decoder: TextDecoder | null = null;
  for await (const raw of bytes) {
    let chunk = raw instanceof Buffer ? raw : Buffer.from(raw);
    if (!decoder) {
      const bom = encodingFromBom(chunk);
      // WHATWG maps the label iso-8859-1 to windows-1252, a superset for every printable byte: harmless here.
      decoder = new TextDecoder(bom?.encoding ?? fallback);
      if (bom) chunk = chunk.subarray(bom.skip);
    }
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  if (decoder) {
    const tail = decoder.decode();
    if (tail) yield tail;
  }
}

/** The 27 code points where Windows-1252 differs from ISO-8859-1 (0x80-0x9F). */
const CP1252_HIGH: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};

/** Encodes text as Windows-1252 (sample generators write the regulator's real byte encoding). */
export function encodeCp1252(s: string): Buffer {
  const out = Buffer.alloc(s.length);
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    out[n++] = cp < 0x80 || (cp >= 0xa0 && cp <= 0xff) ? cp : (CP1252_HIGH[cp] ?? 0x3f);
  }
  return out.subarray(0, n);
}
