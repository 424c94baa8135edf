/**
 * Deterministic pseudo-random source for the sample generators: the same seed must give byte-identical demo
 * files (tests assert values from them, and `make demo` is reproducible).
 */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = (seed >>> 0) || 0x9e3779b9;
  }
  /** mulberry32: tiny, fast, good enough for demo data. */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Log-uniform amounts: AUM and fund sizes span many orders of magnitude in the real data. */
  logUniform(lo: number, hi: number): number {
    return Math.round(Math.exp(Math.log(lo) + this.next() * (Math.log(hi) - Math.log(lo))));
  }
}

export const STATES = ['NY', 'CA', 'TX', 'FL', 'IL', 'MA', 'NJ', 'PA', 'CT', 'GA', 'OH', 'WA', 'CO', 'AZ', 'MN', 'NC', 'VA', 'MD', 'MI', 'TN'] as const;
export const CITIES: Record<string, string> = {
  NY: 'NEW YORK', CA: 'SAN FRANCISCO', TX: 'DALLAS', FL: 'MIAMI', IL: 'CHICAGO', MA: 'BOSTON', NJ: 'PRINCETON', PA: 'PHILADELPHIA',
  CT: 'GREENWICH', GA: 'ATLANTA', OH: 'COLUMBUS', WA: 'SEATTLE', CO: 'DENVER', AZ: 'SCOTTSDALE', MN: 'MINNEAPOLIS', NC: 'CHARLOTTE',
  VA: 'RICHMOND', MD: 'BALTIMORE', MI: 'DETROIT', TN: 'NASHVILLE',
};
const NAME_A = ['Summit', 'Harbor', 'Granite', 'Blue Ridge', 'Cedar', 'Northstar', 'Meridian', 'Keystone', 'Crescent', 'Sterling', 'Beacon', 'Oakmont', 'Riverside', 'Pinnacle', 'Lakeshore', 'Evergreen', 'Redwood', 'Falcon', 'Atlas', 'Bayview'];
const NAME_B = ['Capital', 'Wealth', 'Asset', 'Investment', 'Financial', 'Partners', 'Advisory', 'Portfolio', 'Global', 'Private'];
const NAME_C = ['Management', 'Advisors', 'Group', 'Partners', 'Counsel', 'Strategies'];
const SUFFIX = ['LLC', 'L.P.', 'INC.', 'LLC', 'LTD', 'CORP.'];

/** A plausible firm name; `i` keeps names distinct across a large generated roster. */
export function firmName(rng: Rng, i: number): { business: string; legal: string } {
  const base = `${rng.pick(NAME_A)} ${rng.pick(NAME_B)} ${rng.pick(NAME_C)}`;
  const business = i % 7 === 0 ? `${base} ${i}` : `${base}${i > 20 ? ` ${String.fromCharCode(65 + (i % 26))}${i}` : ''}`;
  return { business: business.toUpperCase(), legal: `${business} ${rng.pick(SUFFIX)}`.toUpperCase() };
}

const FIRST = ['JOHN', 'MARY', 'ROBERT', 'PATRICIA', 'MICHAEL', 'JENNIFER', 'DAVID', 'LINDA', 'JAMES', 'ELIZABETH', 'JOSÉ', 'RENÉE', 'WILLIAM', 'SUSAN'];
const LAST = ['SMITH', 'JOHNSON', 'WILLIAMS', 'BROWN', 'JONES', 'GARCIA', 'MILLER', 'DAVIS', 'O\'BRIEN', 'MÜLLER', 'NGUYEN', 'PATEL', 'KIM', 'LOPEZ'];
export function personName(rng: Rng): { first: string; last: string; middle: string | null } {
  return { first: rng.pick(FIRST), last: rng.pick(LAST), middle: rng.chance(0.4) ? String.fromCharCode(65 + rng.int(0, 25)) : null };
}

export function mmddyyyy(iso: string): string {
  return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
}

/** `1234567.5` → `1,234,567.50`, the roster's money format. */
export function money(n: number): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
