import { cleanText, toIsoDate } from '../common/normalize.ts';
import { streamXml } from './xml.ts';
import type { RowOf } from '../../../schemas/table.ts';
import type { iapdIndividualsTable } from '../../../schemas/tables/iapd-individuals.ts';

/**
 * IAPD individual feed (`IA_INDVL_Feed_MM_DD_YYYY.xml.zip`, parts `IA_Indvl_Feeds{n}.xml`, ISO-8859-1): one
 * `<Indvl>` per person, attributes only. Child element names below the documented ones are matched loosely
 * (any element under CrntEmp whose name contains `Rgstn` is a registration), as the XSD is not public.
 */
export interface Employment {
  firm_name: string | null;
  firm_crd: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  registrations: { authority: string | null; category: string | null; status: string | null; date: string | null }[];
}

export interface FeedIndividual {
  line: number;
  crd: string | null;
  first: string | null;
  middle: string | null;
  last: string | null;
  suffix: string | null;
  activeIaRegistration: boolean | null;
  link: string | null;
  otherNames: string[];
  employments: Employment[];
  exams: { code: string | null; name: string | null; date: string | null }[];
  designations: string[];
  registrationDates: string[];
  disclosures: Set<string>;
}

const DRP_FLAGS: Record<string, string> = {
  hasRegAction: 'regulatory',
  hasCriminal: 'criminal',
  hasBankrupt: 'bankruptcy',
  hasCivilJudc: 'civil_judicial',
  hasBond: 'bond',
  hasJudgment: 'judgment_lien',
  hasInvstgn: 'investigation',
  hasCustComp: 'customer_complaint',
  hasTermination: 'termination',
};

const pick = (a: Record<string, string>, ...names: string[]) => {
  for (const n of names) if (a[n] != null && a[n].trim() !== '') return a[n].trim();
  return null;
};

export async function* parseIndividualFeed(bytes: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<FeedIndividual> {
  const ready: FeedIndividual[] = [];
  let cur: FeedIndividual | null = null;
  let emp: Employment | null = null;
  for await (const _ of streamXml(bytes, 'iso-8859-1', {
    open(name, a, line) {
      if (name === 'Indvl') {
        cur = {
          line,
          crd: null,
          first: null,
          middle: null,
          last: null,
          suffix: null,
          activeIaRegistration: null,
          link: null,
          otherNames: [],
          employments: [],
          exams: [],
          designations: [],
          registrationDates: [],
          disclosures: new Set(),
        };
        return;
      }
      if (!cur) return;
      if (name === 'Info') {
        cur.crd = pick(a, 'indvlPK');
        cur.first = cleanText(a.firstNm);
        cur.middle = cleanText(a.midNm);
        cur.last = cleanText(a.lastNm);
        cur.suffix = cleanText(a.sufNm);
        cur.link = pick(a, 'link');
        cur.activeIaRegistration = a.actvAGReg == null ? null : /^y/i.test(a.actvAGReg);
      } else if (name === 'OthrNm') {
        const n = [a.firstNm, a.midNm, a.lastNm, a.sufNm].map(cleanText).filter(Boolean).join(' ');
        if (n) cur.otherNames.push(n);
      } else if (name === 'CrntEmp') {
        emp = {
          firm_name: cleanText(a.orgNm),
          firm_crd: pick(a, 'orgPK'),
          city: cleanText(a.city),
          state: cleanText(a.state),
          country: cleanText(a.cntry),
          registrations: [],
        };
        cur.employments.push(emp);
      } else if (emp && /Rgstn$/.test(name) && name !== 'PrevRgstn') {
        const date = toIsoDate(pick(a, 'stDt', 'dt', 'Dt'));
        emp.registrations.push({ authority: pick(a, 'regAuth'), category: pick(a, 'regCat'), status: pick(a, 'st'), date });
        if (date) cur.registrationDates.push(date);
      } else if (name === 'Exm') {
        cur.exams.push({ code: pick(a, 'exmCd'), name: pick(a, 'exmNm'), date: toIsoDate(pick(a, 'exmDt')) });
      } else if (name === 'Dsgntn') {
        const d = pick(a, 'dsgntnNm', 'nm');
        if (d) cur.designations.push(d);
      } else if (name === 'PrevRgstn') {
        const d = toIsoDate(pick(a, 'regBeginDt', 'beginDt'));
        if (d) cur.registrationDates.push(d);
      } else if (name === 'DRP') {
        for (const [k, v] of Object.entries(a)) if (DRP_FLAGS[k] && /^y/i.test(v)) cur.disclosures.add(DRP_FLAGS[k]);
      }
    },
    close(name) {
      if (name === 'CrntEmp') emp = null;
      if (name === 'Indvl' && cur) {
        ready.push(cur);
        cur = null;
      }
    },
  })) {
    yield* ready.splice(0);
  }
}

/** Broker-dealer registration categories (FINRA registered representative, state agent, general securities …). */
const BD_CATEGORIES = new Set(['RR', 'AG', 'GS', 'GP', 'OR', 'IR', 'DR', 'TR']);

/** A person's row, less what the loader adds: the feed's snapshot date and the row's place in the file. */
export type IndividualRow = Omit<RowOf<typeof iapdIndividualsTable>, 'snapshot_date' | 'source_file' | 'source_line'>;

export function toIndividualRow(p: FeedIndividual): { ok: true; row: IndividualRow } | { ok: false; reason: string } {
  const crd = p.crd?.replace(/^0+(?=\d)/, '') ?? '';
  if (!/^\d{1,10}$/.test(crd)) return { ok: false, reason: p.crd ? `invalid indvlPK '${p.crd}'` : 'missing indvlPK' };
  if (!p.last) return { ok: false, reason: `individual ${crd}: no last name` };
  const full = [p.first, p.middle, p.last, p.suffix].filter(Boolean).join(' ');
  const bc = p.employments.some((e) =>
    e.registrations.some((r) => r.category && BD_CATEGORIES.has(r.category.toUpperCase()) && !/TERM|INACT/i.test(r.status ?? '')),
  );
  const dates = [...p.registrationDates].sort();
  return {
    ok: true,
    row: {
      ind_source_id: crd,
      ind_int: Number(crd),
      first_name: p.first,
      middle_name: p.middle,
      last_name: p.last,
      suffix: p.suffix,
      full_name: full,
      sort_name: `${p.last}, ${[p.first, p.middle].filter(Boolean).join(' ')}`.toUpperCase().trim(),
      other_names: p.otherNames,
      ia_scope: p.activeIaRegistration ? 'ACTIVE' : 'INACTIVE',
      bc_scope: bc ? 'ACTIVE' : 'NOTINSCOPE',
      has_disclosure: p.disclosures.size ? 1 : 0,
      disclosure_types: [...p.disclosures].sort(),
      firm_count: p.employments.length,
      firm_crds: p.employments.map((e) => e.firm_crd).filter(Boolean),
      current_employments: p.employments,
      exams: p.exams,
      designations: p.designations,
      cal_date: dates[0] ?? null,
      link: p.link,
      source_url: `https://adviserinfo.sec.gov/individual/summary/${crd}`,
    },
  };
}
