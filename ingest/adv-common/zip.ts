import { deflateRawSync, crc32 } from 'node:zlib';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/**
 * Zip members are streamed (yauzl, lazy entries): the monthly roster and the ADV filing-data zips are read one
 * member at a time and never held whole in memory.
 */
export interface ZipMember {
  name: string;
  size: number;
  open(): Promise<Readable>;
}

export async function* zipMembers(path: string): AsyncGenerator<ZipMember> {
  const zip = await new Promise<yauzl.ZipFile>((res, rej) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (err, z) => (err ? rej(err) : res(z!))),
  );
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | null>((res, rej) => {
        const onEntry = (e: yauzl.Entry) => { cleanup(); res(e); };
        const onEnd = () => { cleanup(); res(null); };
        const onError = (e: Error) => { cleanup(); rej(e); };
        const cleanup = () => { zip.off('entry', onEntry); zip.off('end', onEnd); zip.off('error', onError); };
        zip.on('entry', onEntry); zip.on('end', onEnd); zip.on('error', onError);
        zip.readEntry();
      });
      if (!entry) return;
      if (entry.fileName.endsWith('/')) continue;
      yield {
        name: entry.fileName,
        size: entry.uncompressedSize,
        open: () => new Promise<Readable>((res, rej) => zip.openReadStream(entry, (err, s) => (err ? rej(err) : res(s!)))),
      };
    }
  } finally {
    zip.close();
  }
}

/**
 * Writes a deflated zip (sample generators only: our demo files must be real zips, like the regulator's).
 * Small members only; names are stored as given (CP437/ASCII, as the regulator's are).
 */
export async function writeZip(path: string, members: { name: string; data: Buffer }[]): Promise<void> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  // A fixed DOS timestamp keeps sample output byte-identical for the same seed.
  const dosTime = 0;
  const dosDate = ((2026 - 1980) << 9) | (7 << 5) | 1;
  for (const m of members) {
    const name = Buffer.from(m.name, 'latin1');
    const packed = deflateRawSync(m.data);
    const crc = crc32(m.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(m.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(m.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, Buffer.concat([...locals, ...centrals, end]));
}
