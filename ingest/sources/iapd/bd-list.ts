import { cleanText, padCik } from '../common/normalize.ts';
import { decodeStream } from '../common/text.ts';

/**
 * The SEC "Company Information About Active Broker-Dealers" file (bd*.txt): tab-delimited, no header, a trailing
 * tab on each line, odd line endings (`\r\r\n`), ASCII/Latin-1 or UTF-16 with a BOM.
 */
export interface BdListRow {
  line: number;
  cik: string;
  name: string;
  fileNumberRaw: string | null;
  secNumber: string | null;
  street1: string | null;
  street2: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
}

/** `00821897` → `8-21897`; `8-21897`, `008-21897` accepted too. Null when it is not a BD file number. */
export function bdSecNumber(raw: string | null | undefined): string | null {
  const s = (raw ?? '').trim();
  let m = s.match(/^0*8-0*(\d+)$/);
  if (m) return `8-${m[1]}`;
  m = s.match(/^008(\d+)$/);
  if (m) return `8-${String(Number(m[1]))}`;
  return null;
}

export async function* parseBdList(bytes: AsyncIterable<Buffer | Uint8Array>, onBad: (line: number, reason: string) => void): AsyncGenerator<BdListRow> {
  let carry = '';
  let lineNo = 0;
  const handle = function* (raw: string): Generator<BdListRow> {
    lineNo++;
    const text = raw.replace(/\r/g, '');
    if (!text.trim()) return;
    const f = text.split('\t');
    while (f.length > 8 && f[f.length - 1].trim() === '') f.pop();
    if (f.length !== 8) {
      onBad(lineNo, `expected 8 tab-separated fields, found ${f.length}`);
      return;
    }
    const cik = padCik(f[0]);
    if (!cik) {
      onBad(lineNo, `invalid CIK '${f[0].trim()}'`);
      return;
    }
    const name = cleanText(f[1]);
    if (!name) {
      onBad(lineNo, `CIK ${cik}: empty company name`);
      return;
    }
    const fileNumberRaw = cleanText(f[2]);
    const secNumber = bdSecNumber(fileNumberRaw);
    if (fileNumberRaw && !secNumber) onBad(lineNo, `CIK ${cik}: unrecognized file number '${fileNumberRaw}' (row kept)`);
    yield {
      line: lineNo,
      cik,
      name,
      fileNumberRaw,
      secNumber,
      street1: cleanText(f[3]),
      street2: cleanText(f[4]),
      city: cleanText(f[5]),
      state: cleanText(f[6])?.toUpperCase() ?? null,
      postalCode: cleanText(f[7]),
    };
  };
  for await (const chunk of decodeStream(bytes, 'iso-8859-1')) {
    const parts = (carry + chunk).split('\n');
    carry = parts.pop()!;
    for (const p of parts) yield* handle(p);
  }
  if (carry) yield* handle(carry);
}

const US = new Set(
  (
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ ' +
    'NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR VI GU AS MP'
  ).split(' '),
);
/** EDGAR location codes used for foreign offices (the common ones; others stay unresolved). */
const EDGAR_COUNTRIES: Record<string, string> = {
  A0: 'Canada',
  A1: 'Canada',
  A2: 'Canada',
  A3: 'Canada',
  A4: 'Canada',
  A5: 'Canada',
  A6: 'Canada',
  A7: 'Canada',
  A8: 'Canada',
  A9: 'Canada',
  B0: 'Canada',
  Z4: 'Canada',
  X0: 'United Kingdom',
  E9: 'Cayman Islands',
  D0: 'Bermuda',
  K3: 'Hong Kong',
  U0: 'Singapore',
  F4: 'China',
  '2M': 'Germany',
  I0: 'France',
  M0: 'Japan',
};

export function countryOfCode(code: string | null): string | null {
  if (!code) return null;
  if (US.has(code)) return 'United States';
  return EDGAR_COUNTRIES[code] ?? null;
}
