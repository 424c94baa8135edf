import { defineTable } from '../table.ts';

export const litigationTable = defineTable({
  name: 'sec_litigation_releases',
  description: 'SEC litigation releases (civil actions in federal court): one row per LR number, from the listing pages, the RSS feed and each release page.',
  columns: {
    release_number: { type: 'VARCHAR', nullable: false, description: '`LR-26040` (normalized; the feed also prints `LR26040`).' },
    release_date: { type: 'DATE', nullable: false },
    release_year: { type: 'INTEGER', nullable: false, description: 'Partition: calendar year of release_date.' },
    title: { type: 'VARCHAR', description: 'Defendants line as published.' },
    defendants: { type: 'JSON', description: 'Array of defendant names split from the title.' },
    more_defendants: { type: 'BOOLEAN', description: 'The title ends with "et al.".' },
    action_type: {
      type: 'VARCHAR',
      description: 'complaint | settlement | final_judgment | emergency_action | verdict | dismissal; derived from the text, null when not stated.',
    },
    summary: { type: 'VARCHAR', description: 'Release text (page body), else the listing/feed description.' },
    court_case_number: { type: 'VARCHAR', description: 'Federal civil action number found in the text.' },
    other_release_numbers: { type: 'JSON', description: 'Other release numbers on the same page (AAER, Act releases).' },
    penalty_usd: { type: 'BIGINT', description: 'Civil penalties stated in the text, integer USD.' },
    penalty_text: { type: 'VARCHAR', description: 'The phrase(s) penalty_usd was parsed from.' },
    disgorgement_usd: { type: 'BIGINT' },
    disgorgement_text: { type: 'VARCHAR' },
    documents: { type: 'JSON', description: 'Linked documents [{title,url}] (complaint, judgment…).' },
    detail_url: { type: 'VARCHAR', description: 'The release page.' },
    source_url: { type: 'VARCHAR', description: 'Listing page or feed the row was read from.' },
  },
  partitionBy: 'release_year',
  sortBy: ['release_date', 'release_number'],
  primaryKey: ['release_number'],
  writeMode: 'merge',
});
