import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RawInput } from './context.ts';

/** Lists local input files for `--from` (a file, or every file below a folder, sorted). */
export async function localInputs(from: string, filter: (name: string) => boolean = () => true): Promise<RawInput[]> {
  const st = await stat(from).catch(() => null);
  if (!st) throw new Error(`--from ${from}: no such file or folder`);
  if (st.isFile()) return [{ path: from, url: null }];
  const out: RawInput[] = [];
  const walk = async (dir: string) => {
    for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (filter(e.name)) out.push({ path: p, url: null });
    }
  };
  await walk(from);
  return out;
}
