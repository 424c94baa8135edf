import { defineTable } from '../table.ts';

/** Investment-adviser representatives from the IAPD individual compilation feed, one snapshot per feed date. */
export const iapdIndividualsTable = defineTable({
  name: 'iapd_individuals',
  description: 'Individuals (investment adviser representatives) from the IAPD compilation feed, with current employments.',
  columns: {
    snapshot_date: { type: 'DATE', nullable: false },
    ind_source_id: { type: 'VARCHAR', nullable: false, description: 'Individual CRD (Info@indvlPK).' },
    ind_int: { type: 'BIGINT', nullable: false },
    first_name: { type: 'VARCHAR' },
    middle_name: { type: 'VARCHAR' },
    last_name: { type: 'VARCHAR', nullable: false },
    suffix: { type: 'VARCHAR' },
    full_name: { type: 'VARCHAR', nullable: false, description: 'First middle last suffix.' },
    /** Page key: LAST, FIRST MIDDLE upper-cased (non-null). */
    sort_name: { type: 'VARCHAR', nullable: false },
    other_names: { type: 'JSON' },
    ia_scope: { type: 'VARCHAR', nullable: false, description: 'ACTIVE when Info@actvAGReg = Y (active IA representative registration), else INACTIVE.' },
    bc_scope: { type: 'VARCHAR', nullable: false, description: 'ACTIVE when a current registration is a broker-dealer category (RR, AG …), else NOTINSCOPE.' },
    has_disclosure: { type: 'INTEGER', nullable: false, description: '1 when any DRP flag is Y.' },
    disclosure_types: { type: 'JSON' },
    firm_count: { type: 'INTEGER', nullable: false, description: 'Number of current employments.' },
    firm_crds: { type: 'JSON', description: 'CRDs of the current employers (join to advisers.crd).' },
    current_employments: { type: 'JSON' },
    exams: { type: 'JSON' },
    designations: { type: 'JSON' },
    cal_date: { type: 'DATE', description: 'Industry start: earliest registration date in the record.' },
    link: { type: 'VARCHAR', description: 'Info@link as published.' },
    source_file: { type: 'VARCHAR', nullable: false },
    source_line: { type: 'INTEGER' },
    source_url: { type: 'VARCHAR', nullable: false },
  },
  partitionBy: 'snapshot_date',
  sortBy: ['sort_name', 'ind_int'],
  primaryKey: ['snapshot_date', 'ind_source_id'],
  writeMode: 'replace',
});
