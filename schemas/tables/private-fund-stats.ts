import { defineTable } from '../table.ts';

/** SEC Private Funds Statistics tables in long format: one row per (tab, row label, column label) cell. */
export const privateFundStatsTable = defineTable({
  name: 'private_fund_stats',
  description: 'SEC Division of Investment Management "Private Funds Statistics" tables, long format, one partition per quarter.',
  columns: {
    quarter_end_date: { type: 'DATE', nullable: false },
    tab_name: { type: 'VARCHAR', nullable: false, description: 'Worksheet (table) name as published.' },
    table_title: { type: 'VARCHAR', description: 'Title line above the table, when present.' },
    row_key: { type: 'VARCHAR', nullable: false, description: 'Row label as published.' },
    metric_key: { type: 'VARCHAR', nullable: false, description: 'Column label as published.' },
    value: { type: 'DOUBLE', description: 'Numeric value; null when masked or not numeric.' },
    value_raw: { type: 'VARCHAR', description: 'Cell text as published (masking symbols kept).' },
    row_order: { type: 'INTEGER', nullable: false },
    col_order: { type: 'INTEGER', nullable: false },
    source_file: { type: 'VARCHAR', nullable: false },
    source_line: { type: 'INTEGER', description: 'Worksheet row number.' },
    source_url: { type: 'VARCHAR', nullable: false },
  },
  partitionBy: 'quarter_end_date',
  sortBy: ['tab_name', 'row_order', 'col_order'],
  primaryKey: ['quarter_end_date', 'tab_name', 'row_order', 'col_order'],
  writeMode: 'replace',
});
