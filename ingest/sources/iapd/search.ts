import { cleanText, toIsoDate } from '../common/normalize.ts';

/**
 * Firm hits of the IAPD search API (`api.adviserinfo.sec.gov/search/firm?query=…`, docs/formats/08-form-adv.md), as
 * recorded in the fixtures. Quirks: the address is a JSON document escaped inside a string, SEC numbers come both
 * bare (`69521`) and full (`8-69521`), broker-dealer and adviser sides have separate scope/disclosure fields.
 */
export interface SearchFirm {
  index: number;
  crd: string;
  name: string;
  otherNames: string[];
  bdSecNumber: string | null;
  iaSecNumber: string | null;
  bdScope: string | null;
  iaScope: string | null;
  bdDisclosure: boolean | null;
  iaDisclosure: boolean | null;
  branches: number | null;
  finraApprovedRegistrations: number | null;
  expelledDate: string | null;
  office: {
    street1: string | null;
    street2: string | null;
    city: string | null;
    state: string | null;
    country: string | null;
    postalCode: string | null;
  } | null;
  phone: string | null;
  finraLastApprovalDate: string | null;
}

export interface SearchParse {
  total: number | null;
  firms: SearchFirm[];
  problems: { index: number; reason: string }[];
}

const yn = (v: unknown) => (v === 'Y' ? true : v === 'N' ? false : null);

export function parseFirmSearch(text: string): SearchParse {
  const doc = JSON.parse(text) as { hits?: { total?: number; hits?: { _source?: Record<string, unknown> }[] } };
  const out: SearchParse = { total: doc.hits?.total ?? null, firms: [], problems: [] };
  (doc.hits?.hits ?? []).forEach((hit, i) => {
    const s = hit._source ?? {};
    const index = i + 1;
    const crd = String(s.firm_source_id ?? '').trim();
    if (!/^\d{1,10}$/.test(crd)) {
      out.problems.push({ index, reason: `hit ${index}: invalid firm_source_id '${crd}'` });
      return;
    }
    const addressText = (s.firm_address_details ?? s.firm_ia_address_details) as string | undefined;
    let address: Record<string, unknown> | null = null;
    if (addressText) {
      try {
        address = JSON.parse(addressText) as Record<string, unknown>;
      } catch {
        out.problems.push({ index, reason: `hit ${index} (CRD ${crd}): unparsable address details` });
      }
    }
    const office = (address?.officeAddress ?? null) as Record<string, string> | null;
    out.firms.push({
      index,
      crd,
      name: cleanText(s.firm_name) ?? cleanText(s.ia_firm_name) ?? `CRD ${crd}`,
      otherNames: Array.isArray(s.firm_other_names) ? (s.firm_other_names as string[]) : [],
      bdSecNumber: fullSec(s.firm_bd_full_sec_number, s.firm_bd_sec_number, '8'),
      iaSecNumber: fullSec(s.firm_ia_full_sec_number, s.firm_ia_sec_number, '801'),
      bdScope: cleanText(s.firm_scope),
      iaScope: cleanText(s.firm_ia_scope),
      bdDisclosure: yn(s.firm_disclosure_fl),
      iaDisclosure: yn(s.firm_ia_disclosure_fl),
      branches: typeof s.firm_branches_count === 'number' ? s.firm_branches_count : null,
      finraApprovedRegistrations: typeof s.firm_approved_finra_registration_count === 'number' ? s.firm_approved_finra_registration_count : null,
      expelledDate: toIsoDate(s.firm_expelled_date),
      office: office
        ? {
            street1: cleanText(office.street1),
            street2: cleanText(office.street2),
            city: cleanText(office.city),
            state: cleanText(office.state)?.toUpperCase() ?? null,
            country: cleanText(office.country),
            postalCode: cleanText(office.postalCode),
          }
        : null,
      phone: cleanText(address?.businessPhoneNumber),
      finraLastApprovalDate: toIsoDate(address?.finraLastApprovalDate),
    });
  });
  return out;
}

function fullSec(full: unknown, bare: unknown, prefix: string): string | null {
  const f = cleanText(full);
  if (f) return f;
  const b = cleanText(bare);
  return b ? `${prefix}-${b}` : null;
}
