import { defineTable } from '../table.ts';

/** Notifications of late filing (Form 12b-25: NT 10-K, NT 10-Q, NT 20-F, NT 11-K, NT N-CEN …) from the filing index. */
export const ntLateTable = defineTable({
  name: 'nt_late',
  description: 'Late-filing notices (NT forms) taken from the filing index, with the report form they announce as late.',
  columns: {
    accession: { type: 'VARCHAR', nullable: false },
    filer_cik: { type: 'VARCHAR', nullable: false, description: '10-digit CIK.' },
    filer_name: { type: 'VARCHAR', nullable: false },
    form_type: { type: 'VARCHAR', nullable: false, description: 'NT 10-K, NT 10-Q/A, …' },
    late_for_form: { type: 'VARCHAR', nullable: false, description: 'The report announced as late: 10-K, 10-Q, 20-F, 11-K, N-CEN, N-CSR …' },
    is_amendment: { type: 'BOOLEAN', nullable: false },
    filing_date: { type: 'DATE', nullable: false },
    filed_quarter: { type: 'VARCHAR', nullable: false },
    report_date: { type: 'DATE', description: 'Period the late report covers, when the submissions data gives it.' },
    filing_url: { type: 'VARCHAR', nullable: false },
    index_url: { type: 'VARCHAR', nullable: false },
  },
  partitionBy: 'filed_quarter',
  sortBy: ['filing_date', 'accession', 'filer_cik'],
  primaryKey: ['accession', 'filer_cik'],
  writeMode: 'merge',
});

/** `NT 10-K` → 10-K, `NT 10-Q/A` → 10-Q, `NT NCSR` → N-CSR; null when the form is not a late notice. */
export function lateForForm(form: string): string | null {
  const m = form
    .trim()
    .toUpperCase()
    .match(/^NT\s+(.+?)(\/A)?$/);
  if (!m) return null;
  const target = m[1].trim();
  const aliases: Record<string, string> = { NCSR: 'N-CSR', 'N-CSR': 'N-CSR', NCEN: 'N-CEN', 'N-CEN': 'N-CEN', NMFP: 'N-MFP' };
  return aliases[target] ?? target;
}

export function ntRow(f: {
  accession: string;
  cik: string;
  company: string;
  form: string;
  filed_date: string;
  filed_quarter: string;
  report_date: string | null;
  filing_url: string;
  index_url: string;
}) {
  const late = lateForForm(f.form);
  if (!late) return null;
  return {
    accession: f.accession,
    filer_cik: f.cik,
    filer_name: f.company,
    form_type: f.form,
    late_for_form: late,
    is_amendment: /\/A$/i.test(f.form.trim()),
    filing_date: f.filed_date,
    filed_quarter: f.filed_quarter,
    report_date: f.report_date,
    filing_url: f.filing_url,
    index_url: f.index_url,
  };
}
