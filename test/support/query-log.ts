import type { Lake } from '../../api/core/lake.ts';

/**
 * Records the SQL text of every query the lake runs from now on into `into` (those `keep` accepts), so a test can say
 * which files a page opened. Returns `into`; clear it with `into.length = 0` between pages.
 */
export function logQueries(lake: Lake, into: string[] = [], keep: (sql: string) => boolean = () => true): string[] {
  const original = lake.query;
  lake.query = (text, params, opts) => {
    if (keep(text)) into.push(text);
    return original.call(lake, text, params, opts);
  };
  return into;
}
