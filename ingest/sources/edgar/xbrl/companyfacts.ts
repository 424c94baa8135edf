import { normalizeAccession, padCik, toIsoDate } from '../../common/normalize.ts';
import { cikBucket } from '../bulk/local-files.ts';

export interface FactRow {
  cik: string;
  cik_bucket: string;
  entity_name: string;
  taxonomy: string;
  concept: string;
  label: string | null;
  unit: string;
  period_start: string | null;
  period_end: string;
  period_days: number;
  value: number;
  accession: string;
  fiscal_year: number | null;
  fiscal_period: string | null;
  form: string | null;
  filed: string;
  frame: string | null;
  is_latest: boolean;
}

const DAY = 86_400_000;
function daysInclusive(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY) + 1;
}

/**
 * Dates and accession numbers repeat thousands of times per company (every fact of a filing shares them):
 * memoizing the validated form makes the per-fact cost a map lookup. Bounded, reset when large.
 */
function memo<T>(fn: (raw: unknown) => T): (raw: unknown) => T {
  const cache = new Map<unknown, T>();
  return (raw) => {
    let v = cache.get(raw);
    if (v === undefined && !cache.has(raw)) {
      if (cache.size > 200_000) cache.clear();
      v = fn(raw);
      cache.set(raw, v);
    }
    return v as T;
  };
}
const isoDate = memo(toIsoDate);
const accessionOf = memo(normalizeAccession);
const spanDays = memo((key) => {
  const [start, end] = String(key).split('|');
  return daysInclusive(start, end);
});

/**
 * One company facts document (`{cik, entityName, facts:{taxonomy:{Tag:{label, units:{unit:[fact…]}}}}}`) to
 * rows. `cik` is an int in most files but a zero-padded string in some (the LPA sample). `is_latest` is exact
 * because a document holds every filing of the company: per (concept, unit, start, end) the greatest
 * (filed, accession) wins — amendments and restatements filed later supersede the original.
 */
export function* companyFacts(doc: unknown): Generator<{ row: FactRow } | { error: string }> {
  const d = doc as { cik?: unknown; entityName?: unknown; facts?: Record<string, Record<string, { label?: string; units?: Record<string, unknown[]> }>> };
  const cik = padCik(d?.cik);
  if (!cik || !d.facts || typeof d.facts !== 'object') {
    yield { error: 'company facts document without cik or facts' };
    return;
  }
  const entityName = String(d.entityName ?? '').trim() || cik;
  const bucket = cikBucket(cik);
  for (const [taxonomy, concepts] of Object.entries(d.facts)) {
    for (const [tag, c] of Object.entries(concepts ?? {})) {
      const concept = `${taxonomy}:${tag}`;
      const label = c?.label ? String(c.label) : null;
      for (const [unit, facts] of Object.entries(c?.units ?? {})) {
        const rows: FactRow[] = [];
        const latest = new Map<string, FactRow>();
        for (const raw of facts ?? []) {
          const f = raw as Record<string, unknown>;
          const end = isoDate(f.end);
          const start = f.start == null ? null : isoDate(f.start);
          const accession = accessionOf(f.accn);
          const filed = isoDate(f.filed);
          const value = typeof f.val === 'number' ? f.val : Number(f.val);
          if (!end || !accession || !filed || !Number.isFinite(value) || (f.start != null && !start)) {
            yield { error: `${concept} [${unit}]: fact with a missing or malformed end/start/accn/filed/val` };
            continue;
          }
          const fy = f.fy == null || f.fy === '' ? null : Number(f.fy);
          const row: FactRow = {
            cik,
            cik_bucket: bucket,
            entity_name: entityName,
            taxonomy,
            concept,
            label,
            unit,
            period_start: start,
            period_end: end,
            period_days: start ? spanDays(`${start}|${end}`) : 0,
            value,
            accession,
            fiscal_year: Number.isInteger(fy) ? fy : null,
            fiscal_period: f.fp ? String(f.fp) : null,
            form: f.form ? String(f.form) : null,
            filed,
            frame: f.frame ? String(f.frame) : null,
            is_latest: false,
          };
          rows.push(row);
          const key = `${start ?? ''}|${end}`;
          const cur = latest.get(key);
          if (!cur || filed > cur.filed || (filed === cur.filed && accession > cur.accession)) latest.set(key, row);
        }
        for (const r of latest.values()) r.is_latest = true;
        for (const row of rows) yield { row };
      }
    }
  }
}
