import { parseFirmSearch } from './search.ts';
import { emptyRawAdviser, type RawAdviser } from './adviser-row.ts';

/**
 * Advisers from an IAPD firm-search response (the shape of the real recorded fixture). Only active SEC-registered
 * or exempt-reporting advisers (801-/802- numbers, IA scope ACTIVE) are kept, matching the roster's population;
 * the response carries no AUM, so those fields stay null.
 */
export function searchAdvisers(text: string): {
  advisers: { raw: RawAdviser; index: number }[];
  skipped: number;
  problems: { index: number; reason: string }[];
} {
  const parsed = parseFirmSearch(text);
  const advisers: { raw: RawAdviser; index: number }[] = [];
  let skipped = 0;
  for (const f of parsed.firms) {
    if (!f.iaSecNumber || !/^80[12]-/.test(f.iaSecNumber) || f.iaScope !== 'ACTIVE') {
      skipped++;
      continue;
    }
    const raw = emptyRawAdviser();
    Object.assign(raw, {
      crd: f.crd,
      sec_number: f.iaSecNumber,
      business_name: f.name,
      sec_status: f.iaScope,
      street1: f.office?.street1 ?? null,
      street2: f.office?.street2 ?? null,
      city: f.office?.city ?? null,
      state: f.office?.state ?? null,
      postal_code: f.office?.postalCode ?? null,
      country: f.office?.country ?? null,
      disciplinary: f.iaDisclosure == null ? null : f.iaDisclosure ? 'Y' : 'N',
    });
    advisers.push({ raw, index: f.index });
  }
  return { advisers, skipped, problems: parsed.problems };
}
