import type { LakeReader } from '../../ingest/lake/reader.ts';

/**
 * `lake` with its `query` calls counted (streamed reads through `connect` are not): how many queries a diff handler
 * runs for a batch, which a handler querying once per section or pair would multiply.
 */
export function countedQueries(lake: LakeReader): { lake: LakeReader; queries: () => number } {
  let n = 0;
  const query: LakeReader['query'] = (sql, params) => {
    n++;
    return lake.query(sql, params);
  };
  return { lake: { ...lake, query }, queries: () => n };
}
