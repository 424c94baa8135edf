import { defineTable } from '../table.ts';

/** The entity directory: one row per CIK, the canonical entity every endpoint resolves identifiers to. */
export const entitiesTable = defineTable({
  name: 'entities',
  description: 'Entity directory: one row per CIK (companies, funds, individuals) from the submissions data and the ticker files.',
  columns: {
    cik: { type: 'VARCHAR', nullable: false, description: 'CIK zero-padded to 10 digits.' },
    cik_bucket: { type: 'VARCHAR', nullable: false, description: 'Partition: first 5 digits of the padded CIK.' },
    name: { type: 'VARCHAR', nullable: false, description: 'Current conformed name.' },
    ticker: { type: 'VARCHAR', description: 'Primary (first listed) current ticker.' },
    tickers: { type: 'JSON', nullable: false, description: 'Current tickers (array), parallel to exchanges.' },
    exchanges: { type: 'JSON', nullable: false, description: 'Exchange of each ticker (array; entries may be null).' },
    sic: { type: 'VARCHAR', description: '4-digit SIC code.' },
    sic_description: { type: 'VARCHAR' },
    state_of_incorp: { type: 'VARCHAR', description: 'State (or EDGAR country code) of incorporation.' },
    state_of_incorp_description: { type: 'VARCHAR' },
    fiscal_year_end: { type: 'VARCHAR', description: 'MMDD.' },
    entity_type: { type: 'VARCHAR', description: 'operating, other, investment, individual, … (submissions `entityType`).' },
    category: { type: 'VARCHAR', description: 'Filer status(es), `; `-separated.' },
    ein: { type: 'VARCHAR' },
    phone: { type: 'VARCHAR' },
    website: { type: 'VARCHAR' },
    business_address: { type: 'JSON' },
    mailing_address: { type: 'JSON' },
    former_names: { type: 'JSON', nullable: false, description: 'Array of {name, from, to} (dates YYYY-MM-DD).' },
    detail_source: { type: 'VARCHAR', nullable: false, description: '`submissions` (full record) or `company_tickers` (ticker file only).' },
    source_url: { type: 'VARCHAR', nullable: false },
    updated_date: { type: 'DATE', nullable: false, description: 'Snapshot date of the run that wrote the row.' },
  },
  partitionBy: 'cik_bucket',
  sortBy: ['cik'],
  primaryKey: ['cik'],
  writeMode: 'merge',
});

/** Every name a CIK has carried, with its validity range (renamed companies still resolve by old names). */
export const entityNamesTable = defineTable({
  name: 'entity_names',
  description: 'Current and former names per CIK with validity ranges (from the submissions formerNames history).',
  columns: {
    cik: { type: 'VARCHAR', nullable: false },
    cik_bucket: { type: 'VARCHAR', nullable: false },
    name: { type: 'VARCHAR', nullable: false },
    name_norm: { type: 'VARCHAR', nullable: false, description: 'Upper-case, punctuation folded: the matching key of name resolution.' },
    name_core: { type: 'VARCHAR', nullable: false, description: 'name_norm without corporate suffixes (INC, CORP, CO, LTD…): the looser matching key.' },
    valid_from: { type: 'DATE', description: 'First day the name was used; null when unknown.' },
    valid_to: { type: 'DATE', description: 'Last day the name was used; null for the current name.' },
    is_current: { type: 'BOOLEAN', nullable: false },
  },
  partitionBy: 'cik_bucket',
  sortBy: ['cik', 'name'],
  primaryKey: ['cik', 'name'],
  writeMode: 'merge',
});

/**
 * Ticker → CIK with validity: built by folding each dated snapshot of the ticker files into the previous state.
 * `valid_to` is exclusive (the first snapshot date on which the pair was no longer listed); null = still listed.
 */
export const entityTickersTable = defineTable({
  name: 'entity_tickers',
  description: 'Ticker history: which CIK held each ticker over which dates (folded from dated ticker-file snapshots).',
  columns: {
    ticker: { type: 'VARCHAR', nullable: false, description: 'Upper-case ticker as the regulator lists it (e.g. BRK-B).' },
    ticker_initial: { type: 'VARCHAR', nullable: false, description: 'Partition: first character of the ticker.' },
    cik: { type: 'VARCHAR', nullable: false },
    exchange: { type: 'VARCHAR' },
    name: { type: 'VARCHAR', description: 'Company name shown with the ticker when last seen.' },
    valid_from: { type: 'DATE', nullable: false, description: 'First snapshot date listing the pair.' },
    valid_to: { type: 'DATE', description: 'Exclusive end: first snapshot date no longer listing it; null while listed.' },
    last_seen: { type: 'DATE', nullable: false },
  },
  partitionBy: 'ticker_initial',
  sortBy: ['ticker', 'valid_from', 'cik'],
  primaryKey: ['ticker', 'cik', 'valid_from'],
  writeMode: 'replace',
});

/** Upper-case, `&`→AND, punctuation and corporate noise folded: `Apple Inc.` and `APPLE INC` match. */
export function normalizeName(name: string): string {
  return name
    .toUpperCase()
    .replace(/&/g, ' AND ')
    .replace(/[^A-Z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const CORPORATE_NOISE = new Set([
  'INC',
  'INCORPORATED',
  'CORP',
  'CORPORATION',
  'CO',
  'COMPANY',
  'LTD',
  'LIMITED',
  'LLC',
  'LP',
  'PLC',
  'SA',
  'NV',
  'AG',
  'HOLDINGS',
  'HOLDING',
  'GROUP',
  'THE',
  'DE',
  'NEW',
]);

/** normalizeName minus corporate suffixes and a trailing state tag (`/DE/`): `Apple Inc.` → `APPLE`. */
export function coreName(name: string): string {
  const words = normalizeName(name).split(' ');
  while (words.length > 1 && CORPORATE_NOISE.has(words[words.length - 1])) words.pop();
  if (words.length > 1 && words[0] === 'THE') words.shift();
  return words.join(' ');
}
