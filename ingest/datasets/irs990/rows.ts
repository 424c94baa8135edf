import { normalizePersonName } from '../../sources/common/person-names.ts';
import type { Parsed990, Person990 } from '../../sources/irs/form990.ts';
import type { RowOf } from '../../../schemas/table.ts';
import type { boardMembersTable } from '../../../schemas/tables/board.ts';

/** board_members rows of one return. 990 flags are structured: confidence 1; EZ/PF roles read from titles: 0.9. */

const DIRECTOR_TITLE = /director|trustee|board|chair|governor|member/i;
const OFFICER_TITLE = /president|secretary|treasurer|chief|officer|ceo|cfo|coo|executive director|vice|controller/i;

function rolesOf(p: Person990): { roles: string[]; inferred: boolean } {
  if (p.form === '990') {
    const roles = [
      p.isDirectorOrTrustee && 'director',
      p.isInstitutionalTrustee && 'institutional_trustee',
      p.isOfficer && 'officer',
      p.isKeyEmployee && 'key_employee',
      p.isHighestCompensated && 'highest_compensated',
      p.isFormer && 'former',
    ].filter((r): r is string => !!r);
    return { roles: roles.length ? roles : ['listed'], inferred: false };
  }
  const t = p.title ?? '';
  const roles = [DIRECTOR_TITLE.test(t) && 'director', OFFICER_TITLE.test(t) && 'officer'].filter((r): r is string => !!r);
  return { roles: roles.length ? roles : ['listed'], inferred: true };
}

export function board990Rows(
  r: Parsed990,
  opts: { objectId: string; sourceUrl: string | null },
): { rows: RowOf<typeof boardMembersTable>[]; skipped: { seq: number; reason: string }[] } {
  const rows: RowOf<typeof boardMembersTable>[] = [];
  const skipped: { seq: number; reason: string }[] = [];
  const h = r.header;
  const { ein, taxYear } = h;
  // Every row is keyed by both; loadXml reports a return without them as one bad row and never gets here.
  if (!ein || !taxYear) return { rows, skipped };
  for (const p of r.people) {
    const printed = p.personName ?? p.businessName;
    const name = printed
      ? p.personName
        ? normalizePersonName(printed)
        : { clean: printed, first: '', middle: '', last: printed.toLowerCase(), suffix: null, key: printed.toLowerCase() }
      : null;
    if (!printed || !name) {
      skipped.push({ seq: p.seq, reason: 'person without a name' });
      continue;
    }
    const { roles, inferred } = rolesOf(p);
    rows.push({
      record_id: `irs_990:${opts.objectId}:${p.seq}`,
      source_partition: `irs_990-${taxYear}`,
      source_type: 'irs_990',
      org_id: ein,
      sec_cik: null,
      ein,
      organization_name: h.organizationName ?? ein,
      person_name: printed,
      name_key: name.key,
      name_first: name.first || null,
      name_middle: name.middle || null,
      name_last: name.last,
      name_suffix: name.suffix,
      title: p.title,
      role: roles[0],
      roles: roles.join(','),
      is_director: p.form === '990' ? p.isDirectorOrTrustee : roles.includes('director'),
      is_officer: p.form === '990' ? p.isOfficer : roles.includes('officer'),
      is_key_employee: p.isKeyEmployee,
      is_highest_compensated: p.isHighestCompensated,
      is_former: p.isFormer,
      is_institutional_trustee: p.isInstitutionalTrustee,
      is_independent: null,
      age: null,
      director_since: null,
      average_hours_per_week: p.averageHours,
      average_hours_related_orgs: p.averageHoursRelated,
      reportable_comp_usd: p.reportableComp,
      reportable_comp_related_usd: p.reportableCompRelated,
      other_comp_usd: p.otherComp,
      benefit_program_usd: p.benefitProgram,
      expense_allowance_usd: p.expenseAllowance,
      fiscal_year: taxYear,
      period_end: h.taxPeriodEnd,
      form_type: p.form,
      accession_number: null,
      object_id: opts.objectId,
      filed_date: null,
      confidence: inferred ? 0.9 : 1,
      found_in: JSON.stringify([
        p.form === '990' ? 'Form990PartVIISectionAGrp' : p.form === '990EZ' ? 'OfficerDirectorTrusteeEmplGrp' : 'OfficerDirTrstKeyEmplGrp',
      ]),
      source_url: opts.sourceUrl,
    });
  }
  return { rows, skipped };
}
