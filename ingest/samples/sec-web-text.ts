import type { Rng } from './random.ts';

/** Name pools and sentence templates for the demo releases (invented names; amounts in every printed form). */
export const PEOPLE = [
  'Adrian K. Walsh',
  'Maria T. Delgado',
  'Steven Okafor',
  'Linda Park',
  'Robert J. Hanley, Jr.',
  'Chen Wei',
  'Daniel R. Moss',
  'Priya Natarajan',
  'Thomas Beck, III',
  'Olga Ivanova',
  'Kevin Brandt',
  'Sara Lindqvist',
];
export const COMPANIES = [
  'Northbridge Capital Advisors, LLC',
  'Bluewater Mining Corp.',
  'Helix Biotherapeutics, Inc.',
  'Summit Ridge Partners LP',
  'Quantum Ledger Technologies, Inc.',
  'Granite Peak Holdings Ltd.',
  'Silverline Energy Co.',
  'Arcadia Digital Assets, Inc.',
];
export const DISTRICTS = [
  'Southern District of New York',
  'District of New Jersey',
  'Central District of California',
  'Northern District of Illinois',
  'Southern District of Florida',
  'District of Massachusetts',
];

/** One amount in one of the ways releases print money, with its value. */
export function sampleAmount(r: Rng): { text: string; usd: number } {
  switch (r.int(0, 4)) {
    case 0: {
      const m = r.int(11, 95) / 10;
      return { text: `$${m} million`, usd: Math.round(m * 1e6) };
    }
    case 1: {
      const v = r.int(25, 950) * 1000;
      return { text: `$${v.toLocaleString('en-US')}`, usd: v };
    }
    case 2: {
      const v = r.int(1, 9);
      const w = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'][v - 1];
      return { text: `${w} million dollars`, usd: v * 1e6 };
    }
    case 3: {
      const v = r.int(1000, 99999) + r.int(0, 99) / 100;
      return { text: `$${v.toLocaleString('en-US', { minimumFractionDigits: 2 })}`, usd: Math.round(v) };
    }
    default: {
      const b = r.int(11, 30) / 10;
      return { text: `$${b} billion`, usd: Math.round(b * 1e9) };
    }
  }
}

export function civilActionNumber(r: Rng, year: number): string {
  return `${r.int(1, 2)}:${String(year % 100).padStart(2, '0')}-cv-${String(r.int(100, 9999)).padStart(5, '0')}`;
}
