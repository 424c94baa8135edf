import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/**
 * Extracts the wanted members of a bulk data-set zip into `dest` (flat: the zips nest members under a
 * `2024Q3_d/` folder in some quarters), streaming each member to disk so DuckDB can read_csv them.
 * A member already extracted by an earlier run is kept (the zip in the raw cache does not change).
 */
export async function extractZipMembers(zipPath: string, dest: string, accept: (name: string) => boolean): Promise<string[]> {
  await mkdir(dest, { recursive: true });
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true, autoClose: true }, (err, z) => (err || !z ? reject(err ?? new Error('zip open failed')) : resolve(z))),
  );
  const written: string[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = basename(entry.fileName);
      if (entry.fileName.endsWith('/') || !accept(name)) { zip.readEntry(); return; }
      const target = join(dest, name);
      if (existsSync(target)) { written.push(target); zip.readEntry(); return; }
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) { reject(err ?? new Error('zip read failed')); return; }
        const tmp = `${target}.part`;
        pipeline(stream, createWriteStream(tmp))
          .then(() => rename(tmp, target))
          .then(() => { written.push(target); zip.readEntry(); })
          .catch(reject);
      });
    });
    zip.readEntry();
  });
  return written;
}
