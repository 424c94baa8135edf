import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedReads } from '../../ingest/lake/derived-reads.ts';

/**
 * A reader keeps what it read of each partition's derived files (key summaries, key indexes) and reads a file again
 * only when it or its data changed. What it keeps of partitions gone from a listing must go with them: a long-running
 * server lists the lake for months.
 */
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'derived-reads-'));
  for (const p of ['a', 'b', 'c']) {
    await mkdir(join(root, 't', `p=${p}`), { recursive: true });
    await writeFile(join(root, 't', `p=${p}`, 'x.index'), p);
  }
  await mkdir(join(root, 'other', 'p=a'), { recursive: true });
  await writeFile(join(root, 'other', 'p=a', 'x.index'), 'other');
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('derived reads', () => {
  it('reads a file once while it and its data are unchanged, again when the data changes', async () => {
    const reads = derivedReads<string>();
    let n = 0;
    const read = async () => `read ${++n}`;
    const path = join(root, 't', 'p=a', 'x.index');
    expect(await reads.get(path, 'fp1', read)).toBe('read 1');
    expect(await reads.get(path, 'fp1', read)).toBe('read 1');
    expect(await reads.get(path, 'fp2', read)).toBe('read 2');
    expect(await reads.get(join(root, 't', 'p=none', 'x.index'), 'fp1', read)).toBeNull();
    expect(n).toBe(2);
  });

  it('forgets the files of partitions gone from a listing, and only those of that folder', async () => {
    const reads = derivedReads<string>();
    const counts = new Map<string, number>();
    const get = (table: string, p: string) => {
      const path = join(root, table, `p=${p}`, 'x.index');
      return reads.get(path, 'fp', async () => {
        counts.set(path, (counts.get(path) ?? 0) + 1);
        return path;
      });
    };
    for (const p of ['a', 'b', 'c']) await get('t', p);
    await get('other', 'a');
    // The listing of `t` now holds a and c: b is forgotten, the rest kept (`other` shares no folder with `t`).
    reads.forget(`${join(root, 't')}/`, new Set([join(root, 't', 'p=a', 'x.index'), join(root, 't', 'p=c', 'x.index')]));
    for (const p of ['a', 'b', 'c']) await get('t', p);
    await get('other', 'a');
    expect(Object.fromEntries([...counts].map(([k, v]) => [k.slice(root.length + 1), v]))).toEqual({
      't/p=a/x.index': 1,
      't/p=b/x.index': 2,
      't/p=c/x.index': 1,
      'other/p=a/x.index': 1,
    });
  });
});
