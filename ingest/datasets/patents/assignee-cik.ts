import type { LoadContext } from '../../sources/common/context.ts';
import { tableRelation } from '../../lake/layout.ts';
import { coreName, entityNamesTable, normalizeName } from '../../../schemas/tables/entities.ts';

/**
 * Links an assignee organisation to a company CIK through the entity directory (`entity_names`, with the
 * directory's own name keys `name_norm`/`name_core`). Only confident links are kept: the normalized name
 * names exactly one CIK, or — failing an exact match — the name without corporate suffixes does. Anything
 * ambiguous stays null: a wrong CIK is worse than none. Without a directory in the lake the column is null.
 */
export type CikResolver = (orgname: string) => Promise<string | null>;

const NONE: CikResolver = async () => null;

export async function assigneeResolver(ctx: LoadContext): Promise<CikResolver> {
  const names = tableRelation(ctx.settings.lakeDir, entityNamesTable);
  if (!names) {
    ctx.log('entity directory (entity_names) not in the lake: assignee_cik left null; ingest entities first to link assignees');
    return NONE;
  }
  await ctx.sql(`CREATE OR REPLACE TEMP VIEW patent_entity_names AS SELECT cik, name_norm, name_core FROM ${names}`);
  const cache = new Map<string, string | null>();
  return async (orgname) => {
    const norm = normalizeName(orgname);
    if (!norm) return null;
    if (cache.has(norm)) return cache.get(norm)!;
    const rows = await ctx.sql('SELECT DISTINCT cik, name_norm = $1 AS exact FROM patent_entity_names WHERE name_norm = $1 OR name_core = $2', [
      norm,
      coreName(orgname),
    ]);
    const exact = new Set(rows.filter((r) => r.exact).map((r) => String(r.cik)));
    const loose = new Set(rows.map((r) => String(r.cik)));
    const cik = exact.size === 1 ? [...exact][0] : exact.size === 0 && loose.size === 1 ? [...loose][0] : null;
    cache.set(norm, cik);
    return cik;
  };
}
