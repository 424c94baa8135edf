import { defineTable } from '../table.ts';

export const tradingSuspensionsTable = defineTable({
  name: 'trading_suspensions',
  description: 'SEC trading suspension orders (Exchange Act §12(k), 10 trading days): one row per release number.',
  columns: {
    release_number: { type: 'VARCHAR', nullable: false, description: 'Exchange Act release `34-NNNNNN`.' },
    suspension_date: { type: 'DATE', nullable: false, description: 'Date of the order.' },
    suspension_year: { type: 'INTEGER', nullable: false, description: 'Partition: calendar year of suspension_date.' },
    company: { type: 'VARCHAR', description: 'Company line as published (one or several issuers).' },
    companies: { type: 'JSON', description: 'Array of company names split from the line.' },
    tickers: { type: 'JSON', description: 'Ticker symbols named in the text ("ticker: ABCD"), when stated.' },
    file_number: { type: 'VARCHAR', description: 'Administrative file number `3-NNNNN`.' },
    other_release_numbers: { type: 'JSON' },
    summary: { type: 'VARCHAR' },
    documents: { type: 'JSON', description: 'Order and release PDFs [{title,url}].' },
    detail_url: { type: 'VARCHAR' },
    source_url: { type: 'VARCHAR' },
  },
  partitionBy: 'suspension_year',
  sortBy: ['suspension_date', 'release_number'],
  primaryKey: ['release_number'],
  writeMode: 'merge',
});
