/** CUSIPs as typed by filers: lower case, trailing blanks, lost leading zeros. Normalized, then check-digit tested. */
export function normalizeCusip(raw: unknown): string | null {
  if (raw == null) return null;
  const s = String(raw).trim().toUpperCase().replace(/[\s-]/g, '');
  if (!s) return null;
  // Spreadsheets drop leading zeros ('53015103' for 053015103): restore them only when the check digit agrees.
  if (s.length < 9 && s.length >= 6 && /^[0-9A-Z]+$/.test(s)) {
    const padded = s.padStart(9, '0');
    if (isValidCusip(padded)) return padded;
  }
  return s;
}

/** The CUSIP check digit (modulus 10 "double-add-double") over the first 8 characters. */
export function cusipCheckDigit(first8: string): number | null {
  if (!/^[0-9A-Z*@#]{8}$/.test(first8)) return null;
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const c = first8[i];
    let v: number;
    if (c >= '0' && c <= '9') v = c.charCodeAt(0) - 48;
    else if (c >= 'A' && c <= 'Z') v = c.charCodeAt(0) - 55;
    else v = c === '*' ? 36 : c === '@' ? 37 : 38;
    if (i % 2 === 1) v *= 2;
    sum += Math.floor(v / 10) + (v % 10);
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidCusip(cusip: string | null): boolean {
  if (cusip?.length !== 9) return false;
  const d = cusipCheckDigit(cusip.slice(0, 8));
  return d != null && String(d) === cusip[8];
}
