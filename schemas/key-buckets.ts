import type { KeyBucket } from './table.ts';

/**
 * An accession number's year (`0001234567-24-000123` → `24`): the year the regulator assigned it, which a filing
 * shares with its filing date except near a year's end and for the odd late or paper filing. A quarter's filings
 * hold one or two such years, so a lookup of one accession reads the indexes of the few quarters that hold its year
 * (docs/layouts.md, "Key indexes"). Keys of another spelling have no bucket (null in SQL and in JS alike).
 */
export const accessionYear: KeyBucket = {
  sql: (key) => `CASE WHEN regexp_full_match(${key}, '[0-9]{10}-[0-9]{2}-[0-9]{6}') THEN substr(${key}, 12, 2) END`,
  of: (key) => (/^\d{10}-\d{2}-\d{6}$/.test(key) ? key.slice(11, 13) : null),
};
