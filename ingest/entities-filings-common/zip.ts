import yauzl from 'yauzl';
import type { Readable } from 'node:stream';

/**
 * Iterates the members of a zip one at a time (bulk submissions.zip / companyfacts.zip are 1.5 GB with ~1M
 * members): only the member being read is ever in memory, and the next member opens when the caller asks.
 */
export async function* zipEntries(path: string, accept: (name: string) => boolean = () => true): AsyncGenerator<{ name: string; stream: () => Promise<Readable> }> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (err, z) => (err || !z ? reject(err ?? new Error('zip open failed')) : resolve(z))),
  );
  try {
    while (true) {
      const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        const onEntry = (e: yauzl.Entry) => { cleanup(); resolve(e); };
        const onEnd = () => { cleanup(); resolve(null); };
        const onError = (err: Error) => { cleanup(); reject(err); };
        const cleanup = () => { zip.off('entry', onEntry); zip.off('end', onEnd); zip.off('error', onError); };
        zip.on('entry', onEntry); zip.on('end', onEnd); zip.on('error', onError);
        zip.readEntry();
      });
      if (!entry) return;
      if (entry.fileName.endsWith('/') || !accept(entry.fileName)) continue;
      const e = entry;
      yield {
        name: e.fileName,
        stream: () => new Promise<Readable>((resolve, reject) => zip.openReadStream(e, (err, s) => (err || !s ? reject(err ?? new Error('zip read failed')) : resolve(s)))),
      };
    }
  } finally {
    zip.close();
  }
}

/** Reads a whole (small to mid-size) member into a string. */
export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
