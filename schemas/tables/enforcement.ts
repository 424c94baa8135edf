import { defineTable } from '../table.ts';

export const enforcementTable = defineTable({
  name: 'enforcement_actions',
  description:
    "Enforcement actions: the SEC's administrative proceedings and litigation releases in one table, keyed " +
    'by agency and release number, with penalties and disgorgement parsed from the text.',
  columns: {
    action_id: { type: 'VARCHAR', nullable: false, description: '`<agency>:<release_number>`, e.g. `SEC:34-100512`.' },
    agency: { type: 'VARCHAR', nullable: false, description: 'Publishing agency (`SEC`).' },
    action_kind: { type: 'VARCHAR', nullable: false, description: 'administrative_proceeding | litigation_release | aaer' },
    release_number: { type: 'VARCHAR', nullable: false },
    other_release_numbers: { type: 'JSON', description: "The same order's numbers under other Acts, AAER numbers." },
    case_number: { type: 'VARCHAR', description: 'Administrative file number `3-NNNNN`, or the court civil action number.' },
    action_date: { type: 'DATE', nullable: false },
    action_year: { type: 'INTEGER', nullable: false, description: 'Partition: calendar year of action_date.' },
    title: { type: 'VARCHAR', description: 'Respondents line as published.' },
    respondents: { type: 'JSON', description: 'Array of respondent names split from the title.' },
    summary: { type: 'VARCHAR' },
    penalty_usd: { type: 'BIGINT', description: 'Civil (money) penalties stated in the text, integer USD.' },
    penalty_text: { type: 'VARCHAR' },
    disgorgement_usd: { type: 'BIGINT' },
    disgorgement_text: { type: 'VARCHAR' },
    documents: { type: 'JSON' },
    detail_url: { type: 'VARCHAR' },
    source_url: { type: 'VARCHAR' },
  },
  partitionBy: 'action_year',
  sortBy: ['action_date', 'action_id'],
  primaryKey: ['action_id'],
  writeMode: 'merge',
});
