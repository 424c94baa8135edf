/**
 * Small converters from lake rows (DuckDB JSON-ready values) to API record fields, shared by every dataset's
 * `toRecord`. They never throw: a missing or odd value becomes null.
 */
export function str(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = String(v);
  return s === '' ? null : s;
}

export function num(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

export function int(v: unknown): number | null {
  const n = num(v);
  return n === null ? null : Math.round(n);
}

export function bool(v: unknown): boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 1 || v === '1') return true;
  if (v === 'false' || v === 0 || v === '0') return false;
  return null;
}

/** DATE columns come back as `YYYY-MM-DD`; anything longer is cut to the date. */
export function isoDate(v: unknown): string | null {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  const s = str(v);
  return s ? s.slice(0, 10) : null;
}

/** JSON-typed columns hold JSON text; parsed here, `fallback` (null) when absent or unparsable. */
export function json<T = unknown>(v: unknown): T | null;
export function json<T>(v: unknown, fallback: T): T;
export function json<T>(v: unknown, fallback: T | null = null): T | null {
  if (v === null || v === undefined || v === '') return fallback;
  if (typeof v !== 'string') return v as T;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
}

/** A JSON array column as an array (empty when absent). */
export function jsonList<T = unknown>(v: unknown): T[] {
  const parsed = json<T[]>(v);
  return Array.isArray(parsed) ? parsed : [];
}
