/** The public surface of `ingest/lake` for the API (and other layers above): import from here, not from its files. */
export { type CatalogEntry, readCatalog, readCatalogEntry } from './catalog.ts';
export { openDuck, orderSql, queryRows, sqlString, streamRows } from './duck.ts';
export { type LakeReader, openLakeReader, type ReaderHooks } from './reader.ts';
export type { PartitionRelation } from './partition-relation.ts';
export { keyLookupSql } from './key-index.ts';
export { mayHold } from './key-filter.ts';
export { createStatementCache, type StatementCache } from './statement-cache.ts';
export { createLogger, type Logger } from './logger.ts';
export { allInTop, mayMatch, type PartitionSummary, rowsAtMost, type SummaryBounds } from './summary.ts';
export { type Compare, comparator, orderedPartitions, WALKABLE } from './partition-order.ts';
