import { defineTable } from '../table.ts';

export const whistleblowerTable = defineTable({
  name: 'whistleblower_orders',
  description: 'SEC whistleblower award final orders (claimants redacted), by U.S. federal fiscal year.',
  columns: {
    award_order_no: { type: 'VARCHAR', nullable: false, description: 'Exchange Act release number of the final order, `34-NNNNNN`.' },
    order_date: { type: 'DATE', nullable: false },
    fiscal_year: {
      type: 'INTEGER',
      nullable: false,
      description: 'U.S. federal fiscal year of order_date (Oct 1 – Sep 30; FY2024 = 2023-10-01..2024-09-30). Partition.',
    },
    title: { type: 'VARCHAR' },
    decision: { type: 'VARCHAR', description: 'award | denial | null when the text says neither.' },
    award_amount_usd: { type: 'BIGINT', description: 'Award stated in USD (integer), null when the order states only a percentage.' },
    award_amount_text: { type: 'VARCHAR', description: 'The phrase award_amount_usd was parsed from.' },
    public_summary: { type: 'VARCHAR' },
    other_release_numbers: { type: 'JSON' },
    documents: { type: 'JSON' },
    detail_url: { type: 'VARCHAR' },
    source_url: { type: 'VARCHAR' },
  },
  partitionBy: 'fiscal_year',
  sortBy: ['order_date', 'award_order_no'],
  primaryKey: ['award_order_no'],
  writeMode: 'merge',
});
