import { spawn } from 'node:child_process';
import yauzl from 'yauzl';

/**
 * XML members of an IRS TEOS zip, one at a time (the zips are 100 MB–1 GB; members are tens of KB).
 * Members compressed with Deflate64 (method 9), which yauzl cannot inflate, are read with Info-ZIP `unzip -p`.
 */
export async function* xmlMembers(zipPath: string): AsyncGenerator<{ name: string; body: Buffer }> {
  const zip = await new Promise<yauzl.ZipFile>((res, rej) => yauzl.open(zipPath, { lazyEntries: true, autoClose: false }, (e, z) => (e ? rej(e) : res(z!))));
  try {
    while (true) {
      const entry = await new Promise<yauzl.Entry | null>((res, rej) => {
        zip.once('entry', res);
        zip.once('end', () => res(null));
        zip.once('error', rej);
        zip.readEntry();
      });
      zip.removeAllListeners('entry');
      zip.removeAllListeners('end');
      zip.removeAllListeners('error');
      if (!entry) return;
      if (!/\.xml$/i.test(entry.fileName)) continue;
      const body = entry.compressionMethod === 9 ? await unzipMember(zipPath, entry.fileName) : await readEntry(zip, entry);
      yield { name: entry.fileName, body };
    }
  } finally {
    zip.close();
  }
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return new Promise((res, rej) => zip.openReadStream(entry, (e, stream) => {
    if (e || !stream) return rej(e ?? new Error('no stream'));
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => res(Buffer.concat(chunks)));
    stream.on('error', rej);
  }));
}

function unzipMember(zipPath: string, member: string): Promise<Buffer> {
  return new Promise((res, rej) => {
    const p = spawn('unzip', ['-p', zipPath, member], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    p.stdout.on('data', (c: Buffer) => chunks.push(c));
    p.on('error', rej);
    p.on('close', (code) => (code === 0 ? res(Buffer.concat(chunks)) : rej(new Error(`unzip -p exited ${code} for ${member}`))));
  });
}
