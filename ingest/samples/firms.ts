import { Rng } from './random.ts';
import { CITIES, firmName, STATES } from './rng.ts';

/**
 * The demo universe of adviser firms, shared by every adviser-side sample generator so that the demo's
 * private funds, Form CRS rows and representatives point at advisers that exist in the demo roster.
 */
export interface SampleFirm {
  crd: number;
  secNumber: string;
  exempt: boolean;
  business: string;
  legal: string;
  street1: string;
  street2: string;
  city: string;
  state: string;
  country: string;
  postal: string;
  phone: string;
  cik: string | null;
  aum: number | null;
  discretionary: number | null;
  employees: number;
  hasPrivateFunds: boolean;
  privateFundCount: number;
  disciplinary: boolean;
  website: string | null;
  filed: string;
}

/** Demo size at scale 1: 400 advisers, one in five exempt-reporting. */
export const DEMO_FIRMS = 400;

export function sampleFirms(seed: number, scale: number): SampleFirm[] {
  const rng = new Rng(seed);
  const n = Math.max(1, Math.round(DEMO_FIRMS * scale));
  const firms: SampleFirm[] = [];
  for (let i = 0; i < n; i++) {
    const exempt = i % 5 === 4;
    let { business, legal } = firmName(rng, i);
    // Now and then a name outside ASCII (curly apostrophe, accents): the roster is Windows-1252, the feed Latin-1.
    if (i % 50 === 3) {
      business = `L’ÉTOILE ${business}`;
      legal = `L’ÉTOILE ${legal}`;
    }
    const foreign = i % 97 === 13;
    const state = foreign ? '' : rng.pick(STATES);
    const aum = exempt ? null : rng.logUniform(25_000_000, 900_000_000_000);
    const hasPrivateFunds = exempt || rng.chance(0.3);
    const month = String(rng.int(1, 6)).padStart(2, '0');
    firms.push({
      // CRDs in the real range (1 … ~340,000), distinct and ascending with i so ties are easy to reason about.
      crd: 100_000 + i * 7 + rng.int(0, 6),
      secNumber: `${exempt ? '802' : '801'}-${60_000 + i}`,
      exempt,
      business,
      legal,
      street1: `${rng.int(1, 9999)} ${rng.pick(['MAIN STREET', 'PARK AVENUE', 'MARKET STREET', 'BRICKELL AVENUE', 'STATE STREET'])}`,
      street2: rng.chance(0.5) ? `SUITE ${rng.int(100, 4000)}` : '',
      city: foreign ? 'LONDON' : CITIES[state],
      state,
      country: foreign ? 'United Kingdom' : 'United States',
      postal: foreign ? 'EC2V 7HH' : String(rng.int(10_000, 99_999)),
      phone: `${rng.int(200, 989)}-${rng.int(200, 999)}-${String(rng.int(0, 9999)).padStart(4, '0')}`,
      cik: rng.chance(0.3) ? String(rng.int(1_000_000, 2_000_000)) : null,
      aum,
      discretionary: aum == null ? null : Math.round(aum * (0.6 + rng.next() * 0.4)),
      employees: rng.int(1, 2500),
      hasPrivateFunds,
      privateFundCount: hasPrivateFunds ? rng.int(1, 12) : 0,
      disciplinary: rng.chance(0.08),
      website: rng.chance(0.85) ? `https://www.${business.toLowerCase().replace(/[^a-z0-9]+/g, '')}.com` : null,
      filed: `2026-${month}-${String(rng.int(1, 28)).padStart(2, '0')}`,
    });
  }
  return firms;
}
