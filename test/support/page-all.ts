import { expect } from 'vitest';

/**
 * Walks a list through its cursors and returns every record, in page order: each page a 200 whose `has_more` says
 * whether a cursor follows. Stops after `maxPages` (a walk that never ends fails its comparison instead of hanging).
 */
export async function pageAll(
  app: { get(path: string): Promise<{ status: number; body: any }> },
  path: string,
  opts: { qs?: string; limit?: number; maxPages?: number } = {},
): Promise<any[]> {
  const { qs = '', limit = 100, maxPages = 2000 } = opts;
  const records: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r = await app.get(`${path}?${qs}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(r.status, `${path}?${qs}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
    records.push(...r.body.data);
    cursor = r.body.page.next_cursor;
    expect(r.body.page.has_more).toBe(cursor !== null);
    pages++;
  } while (cursor && pages < maxPages);
  return records;
}
