import { defineIngester } from '../../pipeline/contract.ts';
import type { LoadContext, RawInput } from '../../sources/common/context.ts';
import { toIsoDate } from '../../sources/common/normalize.ts';
import { classifySubmissionFile, parseSubmissionEntity, type SubmissionEntity } from '../../sources/edgar/bulk/submissions.ts';
import { cikBucket, jsonDocuments, listLocal } from '../../sources/edgar/bulk/local-files.ts';
import { tableRelation } from '../../lake/layout.ts';
import { foldSnapshot, type Observation, type TickerRange } from '../../sources/edgar/bulk/ticker-history.ts';
import { coreName, entitiesTable, entityNamesTable, entityTickersTable, normalizeName } from '../../../schemas/tables/entities.ts';
import { mergeListings, parseTickerFile, type TickerListing } from '../../sources/edgar/bulk/tickers.ts';
import { writeEntitiesSample } from '../../samples/entity-files.ts';
import { SOURCE } from '../../../schemas/sources.ts';
import type { RowOf } from '../../../schemas/table.ts';

type EntityRow = RowOf<typeof entitiesTable>;
type EntityNameRow = RowOf<typeof entityNamesTable>;

const TICKER_FILES = /^company_tickers(_exchange)?\.json$/i;
const isTickerFile = (n: string) => TICKER_FILES.test(n);
const isSubmissionFile = (n: string) => !!classifySubmissionFile(n) && !/companyfacts|companyconcept|frames/i.test(n);

const SUBMISSIONS_URL = (cik: string) => `https://data.sec.gov/submissions/CIK${cik}.json`;
const TICKERS_URL = 'https://www.sec.gov/files/company_tickers.json';

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

function entityRow(e: SubmissionEntity, listings: TickerListing[], date: string): EntityRow {
  // Submissions list the current tickers; the ticker files may list more (preferred series, classes): union both.
  const tickers = [...e.tickers];
  const exchanges = [...e.exchanges];
  for (const l of listings) {
    if (!tickers.includes(l.ticker)) {
      tickers.push(l.ticker);
      exchanges.push(l.exchange);
    }
  }
  return {
    cik: e.cik,
    cik_bucket: cikBucket(e.cik),
    name: e.name,
    ticker: tickers[0] ?? null,
    tickers,
    exchanges,
    sic: e.sic,
    sic_description: e.sic_description,
    state_of_incorp: e.state_of_incorp,
    state_of_incorp_description: e.state_of_incorp_description,
    fiscal_year_end: e.fiscal_year_end,
    entity_type: e.entity_type,
    category: e.category,
    ein: e.ein,
    phone: e.phone,
    website: e.website,
    business_address: e.business_address,
    mailing_address: e.mailing_address,
    former_names: e.former_names,
    detail_source: 'submissions',
    source_url: SUBMISSIONS_URL(e.cik),
    updated_date: date,
  };
}

/** Current and former names, one row per distinct name (a name used twice keeps the widest range). */
export function nameRows(e: SubmissionEntity): EntityNameRow[] {
  const byName = new Map<string, { name: string; valid_from: string | null; valid_to: string | null; is_current: boolean }>();
  const lastChange =
    e.former_names
      .map((f) => f.to)
      .filter((d): d is string => !!d)
      .sort()
      .at(-1) ?? null;
  byName.set(e.name, { name: e.name, valid_from: lastChange, valid_to: null, is_current: true });
  for (const f of e.former_names) {
    const cur = byName.get(f.name);
    if (!cur) {
      byName.set(f.name, { name: f.name, valid_from: f.from, valid_to: f.to, is_current: false });
      continue;
    }
    if (f.from && (!cur.valid_from || f.from < cur.valid_from)) cur.valid_from = f.from;
    if (!cur.is_current && f.to && (!cur.valid_to || f.to > cur.valid_to)) cur.valid_to = f.to;
  }
  return [...byName.values()].map((n) => ({ cik: e.cik, cik_bucket: cikBucket(e.cik), name_norm: normalizeName(n.name), name_core: coreName(n.name), ...n }));
}

const JSON_COLS = ['tickers', 'exchanges', 'business_address', 'mailing_address', 'former_names'];

/** Existing entity rows for CIKs that only the ticker files mention this run (so their details are kept). */
async function existingEntities(ctx: LoadContext, ciks: string[]): Promise<Map<string, EntityRow>> {
  const out = new Map<string, EntityRow>();
  const lake = tableRelation(ctx.settings.lakeDir, entitiesTable);
  if (!lake || !ciks.length) return out;
  const cols = Object.entries(entitiesTable.columns)
    .map(([c, s]) => (s.type === 'DATE' ? `CAST("${c}" AS VARCHAR) AS "${c}"` : `"${c}"`))
    .join(', ');
  for (let i = 0; i < ciks.length; i += 500) {
    const chunk = ciks.slice(i, i + 500);
    const rows = await ctx.sql(`SELECT ${cols} FROM ${lake} WHERE cik IN (${chunk.map((_, j) => `$${j + 1}`).join(', ')})`, chunk);
    for (const r of rows) {
      for (const c of JSON_COLS) if (typeof r[c] === 'string') r[c] = JSON.parse(r[c] as string);
      // Read back from the entities table itself with exactly its columns (dates as text, JSON parsed above),
      // so the row has the table's shape; the stager validates it again when it is appended.
      out.set(String(r.cik), r as EntityRow);
    }
  }
  return out;
}

async function previousTickerRanges(ctx: LoadContext): Promise<TickerRange[]> {
  const lake = tableRelation(ctx.settings.lakeDir, entityTickersTable);
  if (!lake) return [];
  const rows = await ctx.sql(
    `SELECT ticker, cik, exchange, name, CAST(valid_from AS VARCHAR) AS valid_from, CAST(valid_to AS VARCHAR) AS valid_to,
            CAST(last_seen AS VARCHAR) AS last_seen FROM ${lake}`,
  );
  return rows as unknown as TickerRange[];
}

export default defineIngester({
  name: 'entities',
  description: 'Entity directory (one row per CIK), name history and ticker history from the ticker files and the submissions data.',
  tables: [entitiesTable, entityNamesTable, entityTickersTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_submissions,
  sourceUrls: [
    'https://www.sec.gov/files/company_tickers.json',
    'https://www.sec.gov/files/company_tickers_exchange.json',
    'https://www.sec.gov/Archives/edgar/daily-index/bulkdata/submissions.zip',
    'https://data.sec.gov/submissions/CIK##########.json',
  ],
  argsHelp:
    '[--date YYYY-MM-DD] snapshot date of the ticker files (ticker history; default today). ' +
    '[--from PATH] a folder/file with company_tickers*.json and submissions CIK##########.json files or a submissions.zip',

  async inputs(ctx, args) {
    if (args.from) {
      return listLocal(args.from, (n) => isTickerFile(n) || isSubmissionFile(n) || /\.zip$/i.test(n));
    }
    const www = ctx.settings.SEC_BASE_URL;
    const urls = [
      `${www}/files/company_tickers.json`,
      `${www}/files/company_tickers_exchange.json`,
      `${www}/Archives/edgar/daily-index/bulkdata/submissions.zip`,
    ];
    const out: RawInput[] = [];
    for (const url of urls) out.push({ path: await ctx.http.download(url, { refresh: true }), url });
    return out;
  },

  async load(ctx, inputs, args) {
    const date = (args.date && toIsoDate(args.date)) || todayUtc();
    if (args.date && !toIsoDate(args.date)) throw new Error(`--date ${args.date}: expected YYYY-MM-DD`);

    // 1. Ticker files (small, ~10k rows): the day's complete ticker list.
    const lists: TickerListing[][] = [];
    for (const input of inputs.filter((i) => isTickerFile(i.path.split(/[\\/]/).pop()!))) {
      for await (const d of jsonDocuments([input], () => true)) {
        if ('error' in d) {
          ctx.badRow({ file: d.file, line: null, reason: d.error });
          continue;
        }
        const { listings, bad } = parseTickerFile(d.doc);
        for (let i = 0; i < bad; i++) ctx.badRow({ file: d.file, line: null, reason: 'ticker row without a CIK or ticker' });
        lists.push(listings);
      }
    }
    const snapshot = mergeListings(lists);
    const listingsByCik = new Map<string, TickerListing[]>();
    for (const l of snapshot.values()) listingsByCik.set(l.cik, [...(listingsByCik.get(l.cik) ?? []), l]);

    // 2. Submissions documents, streamed one entity at a time.
    const fromSubmissions: Observation[] = [];
    const written = new Set<string>();
    const docs = inputs.filter((i) => !isTickerFile(i.path.split(/[\\/]/).pop()!));
    for await (const d of jsonDocuments(docs, isSubmissionFile)) {
      if ('error' in d) {
        ctx.badRow({ file: d.file, line: null, reason: d.error });
        continue;
      }
      const kind = classifySubmissionFile(d.name)!;
      if (kind.overflow) continue; // overflow pages hold filings only
      const doc = d.doc as Record<string, unknown>;
      if (!doc || typeof doc !== 'object' || !('filings' in doc || 'tickers' in doc)) continue; // not a submissions document
      const e = parseSubmissionEntity(doc, kind.cik);
      if (!e) {
        ctx.badRow({ file: d.file, line: null, reason: 'submissions document without cik or name' });
        continue;
      }
      await ctx.append(entitiesTable, entityRow(e, listingsByCik.get(e.cik) ?? [], date), { file: d.file });
      for (const n of nameRows(e)) await ctx.append(entityNamesTable, n, { file: d.file });
      for (const [i, t] of e.tickers.entries()) fromSubmissions.push({ ticker: t.toUpperCase(), cik: e.cik, exchange: e.exchanges[i] ?? null, name: e.name });
      written.add(e.cik);
    }

    // 3. CIKs only the ticker files know this run: keep their stored details, refresh their tickers.
    const tickerOnly = [...listingsByCik.keys()].filter((c) => !written.has(c));
    const existing = await existingEntities(ctx, tickerOnly);
    for (const cik of tickerOnly) {
      const listings = listingsByCik.get(cik)!;
      const prev = existing.get(cik);
      const base: Omit<EntityRow, 'ticker' | 'tickers' | 'exchanges' | 'updated_date'> = prev ?? {
        cik,
        cik_bucket: cikBucket(cik),
        name: listings.find((l) => l.name)?.name ?? cik,
        sic: null,
        sic_description: null,
        state_of_incorp: null,
        state_of_incorp_description: null,
        fiscal_year_end: null,
        entity_type: null,
        category: null,
        ein: null,
        phone: null,
        website: null,
        business_address: null,
        mailing_address: null,
        former_names: [],
        detail_source: 'company_tickers',
        source_url: TICKERS_URL,
      };
      const row: EntityRow = {
        ...base,
        ticker: listings[0].ticker,
        tickers: listings.map((l) => l.ticker),
        exchanges: listings.map((l) => l.exchange),
        updated_date: date,
      };
      await ctx.append(entitiesTable, row, { file: TICKERS_URL });
      if (!prev) {
        const name = base.name;
        await ctx.append(entityNamesTable, {
          cik,
          cik_bucket: cikBucket(cik),
          name,
          name_norm: normalizeName(name),
          name_core: coreName(name),
          valid_from: null,
          valid_to: null,
          is_current: true,
        });
      }
    }

    // 4. Ticker history: previous ranges + submissions tickers (confirm only) + the complete snapshot (closes).
    if (snapshot.size || fromSubmissions.length) {
      let ranges = await previousTickerRanges(ctx);
      if (fromSubmissions.length) ranges = foldSnapshot(ranges, fromSubmissions, date, false);
      if (snapshot.size) ranges = foldSnapshot(ranges, [...snapshot.values()], date, true);
      for (const r of ranges) {
        await ctx.append(entityTickersTable, { ...r, ticker_initial: r.ticker.slice(0, 1) });
      }
    }
  },

  sample: writeEntitiesSample,
});
