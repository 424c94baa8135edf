import { Parser } from 'htmlparser2';
import { cleanText, toIsoDate, toInt, toNumber } from '../common/normalize.ts';

/**
 * Form 990 / 990-EZ / 990-PF e-file XML → the return header and the people it lists (Part VII Section A
 * of the 990, the officer lists of the EZ and PF). Tokenized with htmlparser2 in xmlMode: fast, and
 * tolerant of the bad entities some e-files carry. Element names are read by local name so the default
 * namespace never matters, and the pre-2013 spellings map onto the current ones.
 */

export interface Return990Header {
  ein: string | null;
  organizationName: string | null;
  returnType: string | null;
  returnVersion: string | null;
  taxYear: number | null;
  taxPeriodEnd: string | null;
  amended: boolean;
}

export interface Person990 {
  /** 1-based position in the return's list (keeps two identical names apart). */
  seq: number;
  form: '990' | '990EZ' | '990PF';
  personName: string | null;
  businessName: string | null;
  title: string | null;
  averageHours: number | null;
  averageHoursRelated: number | null;
  isDirectorOrTrustee: boolean | null;
  isInstitutionalTrustee: boolean | null;
  isOfficer: boolean | null;
  isKeyEmployee: boolean | null;
  isHighestCompensated: boolean | null;
  isFormer: boolean | null;
  reportableComp: number | null;
  reportableCompRelated: number | null;
  otherComp: number | null;
  benefitProgram: number | null;
  expenseAllowance: number | null;
}

export interface Parsed990 {
  header: Return990Header;
  people: Person990[];
}

const GROUPS: Record<string, Person990['form']> = {
  Form990PartVIISectionAGrp: '990',
  Form990PartVIISectionA: '990',
  OfficerDirectorTrusteeEmplGrp: '990EZ',
  OfficerDirectorTrusteeKeyEmpl: '990EZ',
  OfficerDirTrstKeyEmplGrp: '990PF',
  OfficerDirTrstKeyEmpl: '990PF',
};

/** Current element name ← every spelling met (legacy pre-2013 names on the right). */
const ALIASES: Record<string, string[]> = {
  PersonNm: ['PersonNm', 'NamePerson', 'PersonName'],
  BusinessNameLine1Txt: ['BusinessNameLine1Txt', 'BusinessNameLine1'],
  BusinessNameLine2Txt: ['BusinessNameLine2Txt', 'BusinessNameLine2'],
  TitleTxt: ['TitleTxt', 'Title'],
  Hours: ['AverageHoursPerWeekRt', 'AverageHoursPerWeek', 'AverageHrsPerWkDevotedToPosRt', 'AverageHrsPerWkDevotedToPos', 'AvgHoursPerWkDevotedToPosition'],
  HoursRelated: ['AverageHoursPerWeekRltdOrgRt', 'AverageHoursPerWeekRelated'],
  Director: ['IndividualTrusteeOrDirectorInd', 'IndividualTrusteeOrDirector'],
  Institutional: ['InstitutionalTrusteeInd', 'InstitutionalTrustee'],
  Officer: ['OfficerInd', 'Officer'],
  KeyEmployee: ['KeyEmployeeInd', 'KeyEmployee'],
  Highest: ['HighestCompensatedEmployeeInd', 'HighestCompensatedEmployee'],
  Former: ['FormerOfcrDirectorTrusteeInd', 'Former', 'FormerOfcrDirTrusteeInd'],
  Comp: ['ReportableCompFromOrgAmt', 'ReportableCompFromOrganization', 'CompensationAmt', 'Compensation'],
  CompRelated: ['ReportableCompFromRltdOrgAmt', 'ReportableCompFromRelatedOrgs'],
  Other: ['OtherCompensationAmt', 'OtherCompensation'],
  Benefit: ['EmployeeBenefitProgramAmt', 'ContriToEmplBenefitPlansEtc', 'EmployeeBenefitProgram'],
  Expense: ['ExpenseAccountOtherAllwncAmt', 'ExpenseAccount', 'ExpenseAccountOtherAllowances'],
};
const FIELD_OF = new Map<string, string>();
for (const [k, names] of Object.entries(ALIASES)) for (const n of names) FIELD_OF.set(n, k);

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** A checkbox is `X` (sometimes `1`/`true`) when checked and absent when not: absent is false on the full 990. */
function checkbox(v: string | undefined, form: Person990['form']): boolean | null {
  if (v === undefined) return form === '990' ? false : null;
  return /^(x|1|true)$/i.test(v.trim());
}

export function parse990(xml: string | Buffer): Parsed990 {
  const header: Return990Header = {
    ein: null,
    organizationName: null,
    returnType: null,
    returnVersion: null,
    taxYear: null,
    taxPeriodEnd: null,
    amended: false,
  };
  const people: Person990[] = [];
  const path: string[] = [];
  let text = '';
  let group: { form: Person990['form']; fields: Record<string, string> } | null = null;
  const filerName: string[] = [];

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const n = local(name);
        if (n === 'Return' && attrs.returnVersion) header.returnVersion = attrs.returnVersion;
        if (GROUPS[n] && !group) group = { form: GROUPS[n], fields: {} };
        path.push(n);
        text = '';
      },
      ontext(t) {
        text += t;
      },
      onclosetag(name) {
        const n = local(name);
        const value = text.trim();
        const parent = path[path.length - 2];
        if (group) {
          if (GROUPS[n]) {
            const g = group;
            const f = (k: string) => g.fields[k];
            people.push({
              seq: people.length + 1,
              form: g.form,
              personName: cleanText(f('PersonNm')),
              businessName: cleanText([f('BusinessNameLine1Txt'), f('BusinessNameLine2Txt')].filter(Boolean).join(' ')),
              title: cleanText(f('TitleTxt')),
              averageHours: toNumber(f('Hours')),
              averageHoursRelated: toNumber(f('HoursRelated')),
              isDirectorOrTrustee: checkbox(f('Director'), g.form),
              isInstitutionalTrustee: checkbox(f('Institutional'), g.form),
              isOfficer: checkbox(f('Officer'), g.form),
              isKeyEmployee: checkbox(f('KeyEmployee'), g.form),
              isHighestCompensated: checkbox(f('Highest'), g.form),
              isFormer: checkbox(f('Former'), g.form),
              reportableComp: toInt(f('Comp')),
              reportableCompRelated: toInt(f('CompRelated')),
              otherComp: toInt(f('Other')),
              benefitProgram: toInt(f('Benefit')),
              expenseAllowance: toInt(f('Expense')),
            });
            group = null;
          } else {
            const key = FIELD_OF.get(n);
            if (key && value) group.fields[key] = value;
          }
        } else if (path.includes('ReturnHeader')) {
          if (n === 'EIN' && parent === 'Filer') header.ein = value;
          else if (
            (n === 'BusinessNameLine1Txt' || n === 'BusinessNameLine1' || n === 'BusinessNameLine2Txt' || n === 'BusinessNameLine2') &&
            path.includes('Filer')
          )
            filerName.push(value);
          else if (n === 'TaxPeriodEndDt' || n === 'TaxPeriodEndDate') header.taxPeriodEnd = toIsoDate(value);
          else if (n === 'TaxYr' || n === 'TaxYear') header.taxYear = toInt(value);
          else if (n === 'ReturnTypeCd' || n === 'ReturnType') header.returnType = value;
        } else if (n === 'AmendedReturnInd' && /^(x|1|true)$/i.test(value)) header.amended = true;
        path.pop();
        text = '';
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(typeof xml === 'string' ? xml.replace(/^\uFEFF/, '') : xml.toString('utf8').replace(/^\uFEFF/, ''));
  parser.end();
  header.organizationName = cleanText(filerName.join(' '));
  if (header.ein) header.ein = header.ein.replace(/\D/g, '').padStart(9, '0');
  header.taxYear ??= header.taxPeriodEnd ? Number(header.taxPeriodEnd.slice(0, 4)) : null;
  return { header, people };
}
