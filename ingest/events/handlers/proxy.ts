import { createHash } from 'node:crypto';
import type { DiffHandler } from '../handler.ts';
import type { LakeReader } from '../../lake/reader.ts';
import type { EventDraft } from '../../../schemas/events.ts';
import { COMP_PCT_MEDIUM, FIXED_IMPORTANCE } from '../importance.ts';
import { placeholders } from '../sql.ts';

/** Rows extracted below this confidence are not compared (the proxy tables' own serving floor). */
const MIN_CONFIDENCE = 0.5;
/** An executive's total must move at least this much for a compensation event. */
const COMP_PCT_EVENT = 0.1;

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

interface Proxy {
  cik: string;
  filing: string;
  year: number;
  filed: string | null;
  url: string | null;
  issuer: string | null;
}

/**
 * Consecutive DEF 14A of one issuer: directors who joined or left the board (sec.proxy.board_changed) and named
 * executives whose summary-compensation total moved by 10% or more, or who appeared or left the table
 * (sec.proxy.executive_compensation_changed). The tables are extracted from HTML, so the event's confidence is
 * the lowest confidence of the rows it rests on. dedup_key: `<event_type>|<accession of the newer proxy>`.
 */
export const proxyHandler: DiffHandler = {
  name: 'proxy',
  tables: ['proxy_officers', 'proxy_compensation'],
  async run(ctx, changed) {
    const years = [...new Set(changed.flatMap((c) => c.partitions))].map(Number).filter(Number.isFinite);
    if (!years.length) return {};
    const params: unknown[] = [];
    const inYears = placeholders(years, params);
    // Only issuers with a proxy in a changed year have a pair to compare: each pair is one issuer's two proxies.
    const proxies = (await ctx.lake.query(
      `WITH issuers AS (
         SELECT cik FROM proxy_officers WHERE proxy_fiscal_year IN (${inYears})
         UNION SELECT filer_cik FROM proxy_compensation WHERE proxy_fiscal_year IN (${inYears}))
       SELECT cik, filing_id AS filing, proxy_fiscal_year AS year, any_value(CAST(filed_date AS VARCHAR)) AS filed,
        any_value(source_url) AS url, any_value(issuer) AS issuer
         FROM proxy_officers WHERE cik IN (SELECT cik FROM issuers) GROUP BY ALL
       UNION
       SELECT filer_cik, filing_id, proxy_fiscal_year, any_value(CAST(filed_date AS VARCHAR)), any_value(source_url), any_value(issuer_name)
         FROM proxy_compensation WHERE filer_cik IN (SELECT cik FROM issuers) GROUP BY ALL
       ORDER BY 1, 3, 4`,
      params,
    )) as unknown as Proxy[];
    const byCik = new Map<string, Proxy[]>();
    for (const p of proxies) {
      const list = byCik.get(p.cik) ?? [];
      if (!list.some((x) => x.filing === p.filing)) list.push(p);
      byCik.set(p.cik, list);
    }
    const pairs: [Proxy, Proxy][] = [];
    for (const list of byCik.values()) {
      list.sort((a, b) => a.year - b.year || String(a.filed).localeCompare(String(b.filed)));
      for (let i = 1; i < list.length; i++) if (years.includes(list[i].year) || years.includes(list[i - 1].year)) pairs.push([list[i - 1], list[i]]);
    }
    const compared = pairs.flat();
    const directors = await rowsByProxy(ctx.lake, compared, BOARD_ROWS);
    const executives = await rowsByProxy(ctx.lake, compared, COMPENSATION_ROWS);
    const drafts: EventDraft[] = [];
    const now = new Date().toISOString();
    const rowsOf = (rows: Map<string, Row[]>, p: Proxy) => rows.get(proxyKey(p.cik, p.filing)) ?? [];
    for (const [prev, cur] of pairs) {
      const board = boardChange(rowsOf(directors, prev), rowsOf(directors, cur), prev, cur, now);
      if (board) drafts.push(board);
      const comp = compChange(rowsOf(executives, prev), rowsOf(executives, cur), prev, cur, now);
      if (comp) drafts.push(comp);
    }
    return { drafts };
  },
};

type Row = Record<string, unknown>;

const proxyKey = (cik: unknown, filing: unknown) => `${cik}|${filing}`;

/** A proxy's directors, one row per person (`name_key`), in name order. */
const BOARD_ROWS = (filings: string, years: string, minConfidence: string) =>
  `SELECT cik, filing_id, name_key, any_value(name) AS name, min(confidence) AS confidence FROM proxy_officers
    WHERE proxy_fiscal_year IN (${years}) AND filing_id IN (${filings}) AND is_director AND confidence >= ${minConfidence}
    GROUP BY cik, filing_id, name_key ORDER BY cik, filing_id, name_key`;

/**
 * A proxy's named executives, one row per person in name order, each with the total of the proxy's own most recent
 * fiscal year of the summary compensation table. Ordered, so an event's `changes` list (and its excerpt) is the same on
 * every run: GROUP BY alone returns groups in whatever order the hash table yields them.
 */
const COMPENSATION_ROWS = (filings: string, years: string, minConfidence: string) =>
  `SELECT filer_cik AS cik, filing_id, name_key, any_value(executive_name) AS name, arg_max(total_usd, fiscal_year) AS total,
    max(fiscal_year) AS fy, min(confidence) AS confidence
     FROM proxy_compensation
    WHERE proxy_fiscal_year IN (${years}) AND filing_id IN (${filings}) AND table_kind = 'summary_compensation' AND confidence >= ${minConfidence}
    GROUP BY filer_cik, filing_id, name_key ORDER BY cik, filing_id, name_key`;

/** Proxies whose rows one query reads: a few queries a year of proxies, where each pair ran two of its own. */
const PROXIES_PER_QUERY = 2_048;

/**
 * The rows `select` gives for each of `proxies`, keyed by (CIK, filing). A pair used to run one query per table, each a
 * scan of every year: a year of 5,000 proxies against two before took 116 s of CPU, now 1.5–1.7 s
 * (`make bench BENCH=event-handlers`).
 */
async function rowsByProxy(
  lake: LakeReader,
  proxies: Proxy[],
  select: (filings: string, years: string, minConfidence: string) => string,
): Promise<Map<string, Row[]>> {
  const byProxy = new Map<string, Row[]>();
  const unique = [...new Map(proxies.map((p) => [proxyKey(p.cik, p.filing), p])).values()];
  for (let i = 0; i < unique.length; i += PROXIES_PER_QUERY) {
    const chunk = unique.slice(i, i + PROXIES_PER_QUERY);
    const params: unknown[] = [MIN_CONFIDENCE];
    const sql = select(
      placeholders(
        chunk.map((p) => p.filing),
        params,
      ),
      placeholders(
        chunk.map((p) => p.year),
        params,
      ),
      '$1',
    );
    for (const row of await lake.query(sql, params)) {
      const key = proxyKey(row.cik, row.filing_id);
      const rows = byProxy.get(key);
      if (rows) rows.push(row);
      else byProxy.set(key, [row]);
    }
  }
  return byProxy;
}

function boardChange(prevRows: Row[], curRows: Row[], prev: Proxy, cur: Proxy, now: string): EventDraft | null {
  const cik = cur.cik;
  const before = new Map(prevRows.map((r) => [String(r.name_key), r]));
  const after = new Map(curRows.map((r) => [String(r.name_key), r]));
  if (!before.size || !after.size) return null;
  const joined = [...after.keys()].filter((k) => !before.has(k)).map((k) => String(after.get(k)!.name));
  const left = [...before.keys()].filter((k) => !after.has(k)).map((k) => String(before.get(k)!.name));
  if (!joined.length && !left.length) return null;
  const used = [...joined.map((n) => [...after.values()].find((r) => r.name === n)!), ...left.map((n) => [...before.values()].find((r) => r.name === n)!)];
  const confidence = Math.min(...used.map((r) => Number(r.confidence)));
  const excerpt = `Directors joined: ${joined.join('; ') || 'none'}. Directors left: ${left.join('; ') || 'none'}.`;
  return {
    event_type: 'sec.proxy.board_changed',
    importance: FIXED_IMPORTANCE['sec.proxy.board_changed'],
    confidence,
    entity_cik: cik,
    entity_ticker: null,
    entity_name: cur.issuer,
    accession: cur.filing.startsWith('doc:') ? null : cur.filing,
    summary: `${cur.issuer ?? cik}: board changed (${joined.length} joined, ${left.length} left) between the FY${prev.year} and FY${cur.year} proxies`,
    details: {
      form: 'DEF 14A',
      joined,
      left,
      previous_accession: prev.filing,
      fiscal_year: cur.year,
      previous_fiscal_year: prev.year,
      board_size_before: before.size,
      board_size_after: after.size,
    },
    evidence: [{ source_type: 'sec_proxy_statement', url: cur.url ?? '', retrieved_at: now, excerpt, section: 'director table', excerpt_sha256: sha(excerpt) }],
    dedup_key: `sec.proxy.board_changed|${cur.filing}`,
    occurred_at: cur.filed,
  };
}

function compChange(prevRows: Row[], curRows: Row[], prev: Proxy, cur: Proxy, now: string): EventDraft | null {
  const cik = cur.cik;
  const before = new Map(prevRows.map((r) => [String(r.name_key), r]));
  const after = new Map(curRows.map((r) => [String(r.name_key), r]));
  if (!before.size || !after.size) return null;
  const changes: { name: string; total_before: number | null; total_after: number | null; change_pct: number | null }[] = [];
  let confidence = 1;
  for (const k of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(k);
    const a = after.get(k);
    const tb = b?.total == null ? null : Number(b.total);
    const ta = a?.total == null ? null : Number(a.total);
    const pct = tb && ta != null ? (ta - tb) / tb : null;
    if (b && a && (pct == null || Math.abs(pct) < COMP_PCT_EVENT)) continue;
    changes.push({ name: String((a ?? b)!.name), total_before: tb, total_after: ta, change_pct: pct == null ? null : Math.round(pct * 10000) / 100 });
    confidence = Math.min(confidence, Number((a ?? b)!.confidence), a && b ? Number(b.confidence) : 1);
  }
  if (!changes.length) return null;
  const big = changes.some((c) => c.change_pct == null || Math.abs(c.change_pct) / 100 >= COMP_PCT_MEDIUM);
  const excerpt = changes.map((c) => `${c.name}: ${c.total_before ?? '—'} → ${c.total_after ?? '—'}`).join('; ');
  return {
    event_type: 'sec.proxy.executive_compensation_changed',
    importance: big ? 'medium' : 'low',
    confidence,
    entity_cik: cik,
    entity_ticker: null,
    entity_name: cur.issuer,
    accession: cur.filing.startsWith('doc:') ? null : cur.filing,
    summary: `${cur.issuer ?? cik}: named executive compensation changed for ${changes.length} executive(s) (FY${cur.year} proxy vs FY${prev.year})`,
    details: { form: 'DEF 14A', changes, previous_accession: prev.filing, fiscal_year: cur.year, previous_fiscal_year: prev.year },
    evidence: [
      {
        source_type: 'sec_proxy_statement',
        url: cur.url ?? '',
        retrieved_at: now,
        excerpt,
        section: 'summary compensation table',
        excerpt_sha256: sha(excerpt),
      },
    ],
    dedup_key: `sec.proxy.executive_compensation_changed|${cur.filing}`,
    occurred_at: cur.filed,
  };
}
