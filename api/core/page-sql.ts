import { orderSql } from '../../ingest/lake/index.ts';
import type { OrderColumn } from './endpoint.ts';

/** The SQL text of one page query over a FROM item (its filters' placeholders bound by the caller). */

/** `from`: the table's view (its quoted name) or a parenthesized SELECT over some of its files. */
export function selectSql(from: string, where: string[], order: OrderColumn[], limit: number): string {
  return `SELECT * FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${orderSql(order)} LIMIT ${limit}`;
}

/** Most values of the first sort column a page reads one by one (`pointReadsSql`); more are one `IN` list. */
export const MAX_POINT_READS = 20;

/**
 * The page over the rows whose `key` (the files' first sort column) is one of `values`, read as one top-N per value
 * and the page taken from theirs: each value's rows are one run of row groups, which its equality finds by their
 * statistics. The 7 filers of a rare industry over the 7 quarters of 300,000 filings holding them: 123 ms of CPU,
 * against 313 ms for the same values as one `IN` list (docs/layouts.md).
 */
export function pointReadsSql(from: string, where: string[], key: string, values: string[], order: OrderColumn[], limit: number): string {
  const each = values.map((v) => `(${selectSql(from, [...where, `${key} = ${v}`], order, limit)})`);
  return `SELECT * FROM (${each.join(' UNION ALL ')}) ORDER BY ${orderSql(order)} LIMIT ${limit}`;
}

/**
 * The same page when `from` returns its rows already in `order` (a serving copy read in storage order): the first
 * `limit` rows that pass the filters are the page, so DuckDB stops at them instead of a top-N over every match (an
 * unfiltered page of a 6.25M-line quarter's copy: 3.9 ms of CPU against 29–31 ms; docs/read-path.md). DuckDB keeps
 * insertion order through a scan, filter and LIMIT (`preserve_insertion_order`, on for the API); the outer ORDER BY only
 * orders the page's own rows.
 */
export function storedOrderSql(from: string, where: string[], order: OrderColumn[], limit: number): string {
  return `SELECT * FROM (SELECT * FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} LIMIT ${limit}) ORDER BY ${orderSql(order)}`;
}
