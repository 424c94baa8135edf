import type { LoadContext } from '../../sources/common/context.ts';
import { coreName, entitiesTable, entityNamesTable, normalizeName } from '../../../schemas/tables/entities.ts';
import { tableFromRows } from '../../sources/edgar/funds/work.ts';
import { tableRelation } from '../../lake/layout.ts';

/**
 * Issuer entity of each CUSIP, from the entity directory (tables `entities`, `entity_names`). The directory has no
 * CUSIPs, so the match goes through the issuer name filers typed most often for the CUSIP, folded the same way the
 * directory folds its names. Only a name that points at exactly one CIK is used; anything else is listed in
 * `unmapped_cusips_13f` with its reason rather than guessed.
 *
 * Confidence: 0.9 when the full normalized names agree, 0.7 when they agree only without corporate suffixes.
 * `as_of` is the directory's snapshot date for that entity.
 */
const CONFIDENCE_EXACT = 0.9;
const CONFIDENCE_CORE = 0.7;

/** 13F issuer names use `+` for `&` (JOHNSON + JOHNSON) and end in `/THE`, `/NEW`; fold like the directory. */
function issuerKeys(name: string): { norm: string; core: string } {
  const n = name.replace(/\+/g, '&');
  return { norm: normalizeName(n), core: coreName(n) };
}

export async function resolveIssuers(ctx: LoadContext, dir: string, lakeDir: string, today: string): Promise<void> {
  const names = await ctx.sql(`
    SELECT c.cusip, mode(i.issuer_name) AS issuer_name
    FROM raw13f_info i JOIN cusip13f c USING (cusip_raw)
    WHERE c.cusip <> '' AND i.issuer_name IS NOT NULL GROUP BY 1`);
  await tableFromRows(
    ctx,
    dir,
    'cusipname13f',
    { cusip: 'VARCHAR', name_norm: 'VARCHAR', name_core: 'VARCHAR' },
    names.map((r) => ({ cusip: r.cusip, ...renameKeys(issuerKeys(String(r.issuer_name))) })),
  );

  const entityNames = tableRelation(lakeDir, entityNamesTable);
  const entities = tableRelation(lakeDir, entitiesTable);
  if (!entityNames || !entities) {
    await ctx.sql(`CREATE OR REPLACE TEMP TABLE issuer13f (cusip VARCHAR, issuer_cik VARCHAR, issuer_ticker VARCHAR, confidence DOUBLE, as_of DATE)`);
    await ctx.sql(`CREATE OR REPLACE TEMP TABLE unmapped13f_reason AS SELECT cusip, 'no_entity_directory' AS reason FROM cusipname13f`);
    return;
  }
  await ctx.sql(`
    CREATE OR REPLACE TEMP TABLE cand13f AS
    SELECT n.cusip, e.cik, bool_or(e.name_norm = n.name_norm) AS exact
    FROM cusipname13f n JOIN (SELECT DISTINCT cik, name_norm, name_core FROM ${entityNames}) e ON e.name_core = n.name_core
    GROUP BY n.cusip, e.cik`);
  await ctx.sql(
    `
    CREATE OR REPLACE TEMP TABLE issuer13f AS
    SELECT c.cusip, c.cik AS issuer_cik, en.ticker AS issuer_ticker,
           CASE WHEN c.exact THEN ${CONFIDENCE_EXACT} ELSE ${CONFIDENCE_CORE} END AS confidence,
           coalesce(en.updated_date, CAST($1 AS DATE)) AS as_of
    FROM cand13f c
    JOIN (SELECT cusip FROM cand13f GROUP BY cusip HAVING count(*) = 1) one USING (cusip)
    LEFT JOIN (SELECT cik, any_value(ticker) AS ticker, max(updated_date) AS updated_date FROM ${entities} GROUP BY cik) en ON en.cik = c.cik`,
    [today],
  );
  await ctx.sql(`
    CREATE OR REPLACE TEMP TABLE unmapped13f_reason AS
    SELECT n.cusip, CASE WHEN k.n > 1 THEN 'ambiguous_name' ELSE 'no_name_match' END AS reason
    FROM cusipname13f n LEFT JOIN (SELECT cusip, count(*) AS n FROM cand13f GROUP BY cusip) k USING (cusip)
    WHERE n.cusip NOT IN (SELECT cusip FROM issuer13f)`);
}

function renameKeys(k: { norm: string; core: string }) {
  return { name_norm: k.norm, name_core: k.core };
}
