import type { Rng } from './random.ts';

export const STATES = ['NY', 'CA', 'TX', 'FL', 'IL', 'MA', 'NJ', 'PA', 'CT', 'GA', 'OH', 'WA', 'CO', 'AZ', 'MN', 'NC', 'VA', 'MD', 'MI', 'TN'] as const;
export const CITIES: Record<string, string> = {
  NY: 'NEW YORK',
  CA: 'SAN FRANCISCO',
  TX: 'DALLAS',
  FL: 'MIAMI',
  IL: 'CHICAGO',
  MA: 'BOSTON',
  NJ: 'PRINCETON',
  PA: 'PHILADELPHIA',
  CT: 'GREENWICH',
  GA: 'ATLANTA',
  OH: 'COLUMBUS',
  WA: 'SEATTLE',
  CO: 'DENVER',
  AZ: 'SCOTTSDALE',
  MN: 'MINNEAPOLIS',
  NC: 'CHARLOTTE',
  VA: 'RICHMOND',
  MD: 'BALTIMORE',
  MI: 'DETROIT',
  TN: 'NASHVILLE',
};
const NAME_A = [
  'Summit',
  'Harbor',
  'Granite',
  'Blue Ridge',
  'Cedar',
  'Northstar',
  'Meridian',
  'Keystone',
  'Crescent',
  'Sterling',
  'Beacon',
  'Oakmont',
  'Riverside',
  'Pinnacle',
  'Lakeshore',
  'Evergreen',
  'Redwood',
  'Falcon',
  'Atlas',
  'Bayview',
];
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
const LAST = ['SMITH', 'JOHNSON', 'WILLIAMS', 'BROWN', 'JONES', 'GARCIA', 'MILLER', 'DAVIS', "O'BRIEN", 'MÜLLER', 'NGUYEN', 'PATEL', 'KIM', 'LOPEZ'];
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
