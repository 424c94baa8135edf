import type { ChangedTable } from './handler.ts';
import { sqlString } from '../lake/duck.ts';

/**
 * SQL building blocks shared by the diff handlers. Everything interpolated here is ours (column expressions,
 * literal labels); values from the data stay in the data, and the few run-time values are bound parameters.
 */

/** One evidence item as JSON text: source, URL, retrieval time, excerpt, section and the excerpt's SHA-256. */
export function evidenceSql(o: { sourceType: string; url: string; retrievedAt: string; excerpt: string; section: string }): string {
  return (
    `json_array(json_object('source_type', ${sqlString(o.sourceType)}, 'url', ${o.url}, 'retrieved_at', ${o.retrievedAt}, ` +
    `'excerpt', ${o.excerpt}, 'section', ${o.section}, 'excerpt_sha256', sha256(coalesce(${o.excerpt}, ''))))::VARCHAR`
  );
}

/** Current ticker and name per CIK from the entity directory (empty relation before it is ingested). */
export const ENTITY_LOOKUP = `(SELECT cik, any_value(ticker) AS ticker, any_value(name) AS name FROM entities GROUP BY cik)`;

/**
 * `$n, …` for the distinct `values`, appended to `params`: an IN list of bound values (an empty list binds nothing and
 * gives an empty string, which the caller rules out).
 */
export function placeholders(values: Iterable<unknown>, params: unknown[]): string {
  return [...new Set(values)]
    .map((v) => {
      params.push(v);
      return `$${params.length}`;
    })
    .join(', ');
}

/**
 * `inPartitions` over the changed partitions, narrowed to the changed accessions when every change names them
 * (the live lane), so a batch of 25 filings does not re-draft a whole quarter.
 */
export function inChanged(col: string, changed: ChangedTable[], params: unknown[], accessionCol: string): string {
  const where = inPartitions(
    col,
    changed.flatMap((c) => c.partitions),
    params,
  );
  if (!changed.length || !changed.every((c) => c.accessions)) return where;
  const accs = changed.flatMap((c) => c.accessions!);
  if (!accs.length) return 'false';
  return `${where} AND ${accessionCol} IN (${placeholders(accs, params)})`;
}

/** `col IN ($n, …)` for the changed partitions; `params` receives the values. */
function inPartitions(col: string, values: string[], params: unknown[]): string {
  if (!values.length) return 'false';
  return `CAST("${col}" AS VARCHAR) IN (${placeholders(values, params)})`;
}
