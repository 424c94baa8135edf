import type { IngestContext } from '../common/context.ts';

/** IAPD FOIA listing: `reports/foia/reports_metadata.json`, top-level keys advW, advFilingData, advFirmCRS … */
export const IAPD_METADATA_PATH = '/reports/foia/reports_metadata.json';

export interface MetadataFile {
  fileName: string;
  year: string | null;
}

/** Every entry with a `fileName` under `key`, whatever the nesting (the layout is loosely documented). */
export function metadataFiles(metadata: unknown, key: string): MetadataFile[] {
  const out: MetadataFile[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.fileName === 'string') out.push({ fileName: o.fileName, year: o.year == null ? null : String(o.year) });
      else Object.values(o).forEach(walk);
    }
  };
  walk((metadata as Record<string, unknown>)?.[key]);
  return out;
}

export async function fetchMetadata(ctx: IngestContext): Promise<unknown> {
  const res = await ctx.http.get(`${ctx.settings.IAPD_BASE_URL}${IAPD_METADATA_PATH}`, { cache: 'raw', refresh: true });
  return JSON.parse(res.body.toString('utf8'));
}
