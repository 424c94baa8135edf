import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { RawInput } from '../../common/context.ts';
import { zipMembers } from '../../common/zip.ts';

/** Files under `--from` (a file or a folder, searched recursively) whose base name passes `accept`. */
export function listLocal(from: string, accept: (name: string) => boolean): RawInput[] {
  if (!existsSync(from)) throw new Error(`--from ${from}: no such file or folder`);
  const out: RawInput[] = [];
  const walk = (p: string) => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const n of readdirSync(p).sort()) walk(join(p, n));
    } else if (accept(basename(p))) {
      out.push({ path: p, url: null });
    }
  };
  walk(from);
  return out;
}

/**
 * JSON documents from plain `.json` files and from members of `.zip` archives, one at a time. Each document
 * is one entity's file (a few MB at most), so memory is bounded by the largest single member, never the archive.
 */
export async function* jsonDocuments(
  inputs: RawInput[],
  acceptMember: (name: string) => boolean,
): AsyncGenerator<{ name: string; file: string; doc: unknown } | { name: string; file: string; error: string }> {
  for (const input of inputs) {
    if (input.path.toLowerCase().endsWith('.zip')) {
      for await (const member of zipMembers(input.path, (n) => acceptMember(basename(n)))) {
        const text = (await member.read()).toString('utf8');
        yield parse(basename(member.name), `${input.path}:${member.name}`, text);
      }
    } else if (acceptMember(basename(input.path))) {
      yield parse(basename(input.path), input.path, await readFile(input.path, 'utf8'));
    }
  }
}

function parse(name: string, file: string, text: string) {
  try {
    return { name, file, doc: JSON.parse(text) as unknown };
  } catch (e) {
    return { name, file, error: `not valid JSON: ${(e as Error).message}` };
  }
}

/** 10-digit CIK → its partition bucket (`00003` holds CIKs 300000-399999): ~22 buckets, stable per CIK. */
export function cikBucket(cik10: string): string {
  return cik10.slice(0, 5);
}

/** A path as a SQL string literal (paths are ours, never user input). */
export function sqlPath(p: string): string {
  return `'${p.replace(/'/g, "''")}'`;
}
