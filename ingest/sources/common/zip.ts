import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { ZipFile } from 'yazl';

/**
 * Zip archives of the regulator (bulk submissions.zip with ~1M members, quarterly data sets, IRS batches of
 * 100 MB–1 GB) read one member at a time with yauzl's lazy entries: only the member being read is ever in
 * memory, and a member's bytes are only read when the caller opens it.
 */
export interface ZipMember {
  /** Path inside the archive, as stored (may include folders). */
  name: string;
  /** Uncompressed size. */
  size: number;
  /** The member's bytes as a stream; open it before asking for the next member. */
  open(): Promise<Readable>;
  /** The whole member (small to mid-size members only). */
  read(): Promise<Buffer>;
}

/** Deflate64: yauzl cannot inflate it, and IRS TEOS zips use it for some members. */
const DEFLATE64 = 9;

/** Members whose full name passes `accept` (folders are never yielded), in archive order. */
export async function* zipMembers(path: string, accept: (name: string) => boolean = () => true): AsyncGenerator<ZipMember> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (err, z) => (err || !z ? reject(err ?? new Error(`${path}: zip open failed`)) : resolve(z))),
  );
  try {
    for (;;) {
      const entry = await nextEntry(zip);
      if (!entry) return;
      if (entry.fileName.endsWith('/') || !accept(entry.fileName)) continue;
      const open = entry.compressionMethod === DEFLATE64 ? async () => unzipPipe(path, entry.fileName) : () => openEntry(zip, entry);
      yield { name: entry.fileName, size: entry.uncompressedSize, open, read: async () => readStream(await open()) };
    }
  } finally {
    // Safe while a member stream is still open: yauzl reference-counts the file and closes it after that stream.
    zip.close();
  }
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const onEntry = (e: yauzl.Entry) => {
      cleanup();
      resolve(e);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, s) => (err || !s ? reject(err ?? new Error(`${entry.fileName}: zip read failed`)) : resolve(s))),
  );
}

/** A Deflate64 member through Info-ZIP `unzip -p`; a non-zero exit fails the stream. */
function unzipPipe(zipPath: string, member: string): Readable {
  const p = spawn('unzip', ['-p', zipPath, member], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = new PassThrough();
  p.stdout.pipe(out, { end: false });
  p.on('error', (err) => out.destroy(err));
  p.on('close', (code) => (code === 0 ? out.end() : out.destroy(new Error(`unzip -p exited ${code} for ${member}`))));
  return out;
}

/** Reads a whole stream into one buffer. */
async function readStream(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks);
}

/**
 * Extracts the members whose BASE name passes `accept` into `dest`, flat (some data-set zips nest members under
 * a `2024Q3_d/` folder whose case varies), streaming each to disk so DuckDB can `read_csv` them. A member already
 * extracted by an earlier run is kept (the zip in the raw cache does not change); `as` renames the written file.
 * Returns the written paths in archive order.
 */
export async function extractZipMembers(
  zipPath: string,
  dest: string,
  accept: (baseName: string) => boolean,
  opts: { as?: (baseName: string) => string } = {},
): Promise<string[]> {
  await mkdir(dest, { recursive: true });
  const written: string[] = [];
  for await (const m of zipMembers(zipPath, (n) => accept(basename(n)))) {
    const base = basename(m.name);
    const target = join(dest, opts.as ? opts.as(base) : base);
    if (!existsSync(target)) {
      // Written under a temporary name first, so an interrupted run never leaves a truncated member to reuse.
      const tmp = `${target}.part`;
      await pipeline(await m.open(), createWriteStream(tmp));
      await rename(tmp, target);
    }
    written.push(target);
  }
  return written;
}

/**
 * Writes a deflated zip (sample generators only: our demo files must be real zips, like the regulator's).
 * Small members only, added from memory; names are stored as given (ASCII, as the regulator's are).
 */
export async function writeZip(path: string, members: { name: string; data: Buffer }[]): Promise<void> {
  const zip = new ZipFile();
  // A fixed timestamp, DOS field only (no extended-time field, which would carry the zone's UTC offset),
  // keeps sample output byte-identical for the same seed on any machine.
  for (const m of members) zip.addBuffer(m.data, m.name, { mtime: SAMPLE_MTIME, forceDosTimestamp: true });
  zip.end();
  await mkdir(dirname(path), { recursive: true });
  await pipeline(zip.outputStream, createWriteStream(path));
}

/** 2026-07-01 00:00 as local wall time: yazl encodes the DOS date and time from local fields. */
const SAMPLE_MTIME = new Date(2026, 6, 1);
