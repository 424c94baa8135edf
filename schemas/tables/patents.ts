import { defineTable, type OrderColumn } from '../table.ts';

/**
 * `/v1/uspto-patent-grants`' order within a year: its first pages read the newest years' heads, where a year's file,
 * sorted by patent number, is sorted whole for them (docs/layouts.md, "Heads").
 */
export const patentPageOrder = [
  { column: 'grant_date', dir: 'desc' },
  { column: 'patent_number', dir: 'asc' },
] as const satisfies readonly OrderColumn[];

export const patentGrantsTable = defineTable({
  name: 'uspto_patent_grants',
  description:
    'USPTO patent grants from the weekly full-text grant files (ipgYYMMDD.xml, us-patent-grant v4.x): ' +
    'bibliographic data, first assignee flattened for filtering, all assignees and inventors as JSON.',
  columns: {
    patent_number: {
      type: 'VARCHAR',
      nullable: false,
      description: 'PatentsView form: leading zeros dropped after the prefix (`11540449`, `D656308`, `RE49876`).',
    },
    doc_number: { type: 'VARCHAR', nullable: false, description: 'doc-number as printed in the XML (`D0656308`).' },
    kind_code: { type: 'VARCHAR', description: 'B1, B2, S1, P2, P3, E, H1…' },
    patent_type: { type: 'VARCHAR', description: 'appl-type: utility, design, plant, reissue…' },
    title: { type: 'VARCHAR' },
    grant_date: { type: 'DATE', nullable: false },
    grant_year: { type: 'INTEGER', nullable: false, description: 'Partition: year of grant_date.' },
    application_number: { type: 'VARCHAR', description: 'Application doc-number as printed (series code + serial, `29379369`).' },
    application_date: { type: 'DATE', description: 'Filing date.' },
    series_code: { type: 'VARCHAR' },
    claims_count: { type: 'INTEGER' },
    figures_count: { type: 'INTEGER' },
    drawing_sheets_count: { type: 'INTEGER' },
    citations_count: { type: 'INTEGER', description: 'References cited (patent and non-patent).' },
    cpc_main: { type: 'VARCHAR', description: 'Main CPC symbol, e.g. `A23L 1/164`; absent before CPC (2013) and on design patents.' },
    ipc_main: { type: 'VARCHAR', description: 'First IPC (classification-ipcr) symbol.' },
    assignee: { type: 'VARCHAR', description: 'First assignee (organisation, or "First Last"); null when inventor-owned.' },
    assignee_city: { type: 'VARCHAR' },
    assignee_state: { type: 'VARCHAR', description: 'Two-letter US state; present only for US addresses.' },
    assignee_country: { type: 'VARCHAR', description: 'ISO-2 country.' },
    assignee_role: { type: 'VARCHAR', description: 'USPTO role code (02 US company, 03 foreign company, 04/05 individuals…).' },
    assignee_cik: { type: 'VARCHAR', description: '10-digit CIK of the first assignee when the name resolves confidently to one company; null otherwise.' },
    assignee_names: { type: 'VARCHAR', description: 'Every assignee name joined with " ; " (substring search over all assignees).' },
    assignees: { type: 'JSON', description: 'All assignees [{name, orgname, last_name, first_name, role, city, state, country}].' },
    inventors: { type: 'JSON', description: 'All inventors, same shape.' },
    abstract: { type: 'VARCHAR' },
    source_file: { type: 'VARCHAR', description: 'Weekly file the grant came from (`ipg120327.xml`).' },
    source_url: { type: 'VARCHAR' },
  },
  partitionBy: 'grant_year',
  sortBy: ['patent_number'],
  primaryKey: ['patent_number'],
  writeMode: 'merge',
  head: { order: patentPageOrder },
});
