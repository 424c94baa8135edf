/**
 * Value normalizers shared by every parser. Each takes the untouched source text and returns the typed
 * value or null; none throws, because a missing or odd field in a real filing must become null, not a crash.
 */

const MONTHS: Record<string, number> = {
  JAN: 1,
  FEB: 2,
  MAR: 3,
  APR: 4,
  MAY: 5,
  JUN: 6,
  JUL: 7,
  AUG: 8,
  SEP: 9,
  OCT: 10,
  NOV: 11,
  DEC: 12,
  JANUARY: 1,
  FEBRUARY: 2,
  MARCH: 3,
  APRIL: 4,
  JUNE: 6,
  JULY: 7,
  AUGUST: 8,
  SEPTEMBER: 9,
  SEPT: 9,
  OCTOBER: 10,
  NOVEMBER: 11,
  DECEMBER: 12,
};

function isoIfValid(y: number, m: number, d: number): string | null {
  if (!(y >= 1800 && y <= 2200 && m >= 1 && m <= 12 && d >= 1 && d <= 31)) return null;
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * Any date format met in the regulator's data (see docs/formats/README.md) to `YYYY-MM-DD`:
 * `YYYY-MM-DD`, `YYYYMMDD`, `YYYYMMDDHHMMSS`, ISO timestamps, `DD-MON-YYYY`, `MM/DD/YYYY[ hh:mm:ss AM]`,
 * `MM-DD-YYYY`, `Month D, YYYY`.
 */
export function toIsoDate(raw: unknown): string | null {
  if (raw == null) return null;
  const s = String(raw).trim();
  if (!s) return null;
  let m: RegExpMatchArray | null;
  if ((m = s.match(/^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/))) return isoIfValid(+m[1], +m[2], +m[3]);
  if ((m = s.match(/^(\d{4})(\d{2})(\d{2})(?:\d{4,6})?$/))) return isoIfValid(+m[1], +m[2], +m[3]);
  if ((m = s.match(/^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/))) {
    const mon = MONTHS[m[2].toUpperCase()];
    return mon ? isoIfValid(+m[3], mon, +m[1]) : null;
  }
  if ((m = s.match(/^(\d{1,2})[/-](\d{1,2})[/-](\d{4})(?:\s.*)?$/))) return isoIfValid(+m[3], +m[1], +m[2]);
  if ((m = s.match(/^([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$/))) {
    const mon = MONTHS[m[1].toUpperCase()];
    return mon ? isoIfValid(+m[3], mon, +m[2]) : null;
  }
  return null;
}

/** `YYYYMMDDHHMMSS` (SGML acceptance time, US Eastern) or an ISO timestamp to an ISO timestamp string. */
export function toIsoTimestamp(raw: unknown): string | null {
  if (raw == null) return null;
  const s = String(raw).trim();
  let m: RegExpMatchArray | null;
  if ((m = s.match(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/))) {
    return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s)) return s;
  return null;
}

/** Numbers as printed: `1,234`, `$ 1,234.50`, `(1,234)` for negatives, `-`/`—` and empty for null. */
export function toNumber(raw: unknown): number | null {
  if (raw == null) return null;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  let s = String(raw).trim();
  if (!s || /^[-–—]+$/.test(s) || /^n\/?a$/i.test(s)) return null;
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  s = s.replace(/[$,\s]/g, '');
  if (s.startsWith('-')) {
    negative = !negative;
    s = s.slice(1);
  }
  if (!/^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s)) return null;
  const n = Number(s);
  if (!Number.isFinite(n)) return null;
  return negative ? -n : n;
}

/** Integer (rounded) or null; for counts and USD amounts stored as integers. */
export function toInt(raw: unknown): number | null {
  const n = toNumber(raw);
  return n == null ? null : Math.round(n);
}

/** Y/N, true/false, 1/0, X (checkbox) to boolean; anything else null. */
export function toBool(raw: unknown): boolean | null {
  if (raw == null) return null;
  if (typeof raw === 'boolean') return raw;
  const s = String(raw).trim().toLowerCase();
  if (['y', 'yes', 'true', '1', 'x'].includes(s)) return true;
  if (['n', 'no', 'false', '0'].includes(s)) return false;
  return null;
}

/** CIK as digits without padding (the lake's canonical form is the 10-digit padded string). */
export function cikDigits(raw: unknown): string | null {
  if (raw == null) return null;
  const s = String(raw).trim().replace(/^CIK/i, '');
  if (!/^\d{1,10}$/.test(s)) return null;
  return String(Number(s));
}

/** CIK zero-padded to 10 digits, or null. */
export function padCik(raw: unknown): string | null {
  const d = cikDigits(raw);
  return d == null ? null : d.padStart(10, '0');
}

/** Accession number with or without dashes to the canonical dashed `0001234567-24-000123`; null when malformed. */
export function normalizeAccession(raw: unknown): string | null {
  if (raw == null) return null;
  const s = String(raw).trim().replace(/-/g, '');
  if (!/^\d{18}$/.test(s)) return null;
  return `${s.slice(0, 10)}-${s.slice(10, 12)}-${s.slice(12)}`;
}

/** Whitespace folded and trimmed; empty to null. */
export function cleanText(raw: unknown): string | null {
  if (raw == null) return null;
  const s = String(raw).replace(/\s+/g, ' ').trim();
  return s ? s : null;
}

/** `2024Q3` → first and last day of that calendar quarter. */
export function quarterBounds(period: string): { start: string; end: string; year: number; quarter: number } | null {
  const m = period.match(/^(\d{4})[Qq]([1-4])$/);
  if (!m) return null;
  const year = +m[1];
  const quarter = +m[2];
  const endMonth = quarter * 3;
  const lastDay = new Date(Date.UTC(year, endMonth, 0)).getUTCDate();
  return {
    start: `${year}-${String(endMonth - 2).padStart(2, '0')}-01`,
    end: `${year}-${String(endMonth).padStart(2, '0')}-${lastDay}`,
    year,
    quarter,
  };
}

/** The calendar quarter label (`2024Q3`) containing an ISO date. */
export function quarterOf(isoDate: string): string {
  const y = isoDate.slice(0, 4);
  const mo = Number(isoDate.slice(5, 7));
  return `${y}Q${Math.ceil(mo / 3)}`;
}

/** RFC 822 dates of RSS feeds (`Mon, 01 Jul 2024 15:00:56 -0400`) to the date as printed, `YYYY-MM-DD`; other formats via toIsoDate. */
export function rfc822Date(raw: unknown): string | null {
  if (raw == null || raw === '') return null;
  const m = String(raw).match(/(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})/);
  if (m) {
    const mon = MONTHS[m[2].toUpperCase()];
    if (mon) return isoIfValid(+m[3], mon, +m[1]);
  }
  return toIsoDate(String(raw).trim());
}
