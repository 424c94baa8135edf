import { open } from 'node:fs/promises';
import { isSubmissionContainer } from './sgml.ts';

/**
 * What a file with an extension we do not read holds, from its first bytes: a full submission (`.raw`, no
 * extension…), an XML document (or any markup), a zip. Null when none: the loader reports it as skipped, by name.
 */
export async function sniffInput(path: string): Promise<'submission' | 'xml' | 'zip' | null> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead);
    if (head.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) return 'zip';
    const text = head.toString('latin1');
    if (isSubmissionContainer(text) || /^\s*<DOCUMENT>/i.test(text)) return 'submission';
    if (/^(\ufeff|\xef\xbb\xbf)?\s*<(\?xml|[A-Za-z][\w.-]*:?[\w.-]*[\s>])/.test(text)) return 'xml';
    return null;
  } finally {
    await fh.close();
  }
}
