import { padCik } from '../../ingest/sources/common/index.ts';
import { cikBucket } from '../../ingest/sources/edgar/index.ts';
import { CompanyFactsRecord, type ConceptFacts } from '../../schemas/records/company-facts.ts';
import { defineRoute, type SqlBuilder } from '../core/endpoint.ts';
import { keysetCursor } from '../core/cursor.ts';
import { entityUnresolved, ValidationError } from '../core/errors.ts';
import { p } from '../core/params.ts';
import { num, str } from '../core/records.ts';
import { resolveEntity, suggestEntity, unresolvedMessage } from '../entities/resolve.ts';
import { conceptParam, listParams, rangeChecks, sharedFilters, SOURCE } from './routes.ts';

const PATH = '/v1/financials/{cik}';

/**
 * The page cursor: the last concept served, signed and bound to this endpoint and the company and filters, through
 * the same cursor module as every list (a hand-edited or foreign cursor is a 422 on `cursor`).
 */
function encodeAfter(secret: string, filters: Record<string, unknown>, concept: string): string {
  return keysetCursor.issue(secret, { endpoint: PATH, filters }, [concept]);
}
function decodeAfter(secret: string, filters: Record<string, unknown>, cursor: string): string {
  const [concept] = keysetCursor.read(secret, { endpoint: PATH, filters }, cursor, 1);
  if (typeof concept === 'string') return concept;
  throw new ValidationError([{ loc: ['query', 'cursor'], msg: 'Invalid cursor: not issued by this endpoint', type: 'value_error', input: cursor }]);
}

export default defineRoute({
  method: 'get',
  path: PATH,
  summary: 'Reported XBRL values of one company, per concept',
  description:
    'Path `cik`: a CIK (with or without zeros), a ticker or a company name. Each concept with its label ' +
    'and, per unit, every reported value with period, fiscal year/period, form, accession, filing date and ' +
    'frame. Pages over concepts (`limit` concepts per page).',
  tag: 'Financials',
  source: SOURCE,
  pathParams: { cik: p.str({ required: true, maxLength: 200, description: 'CIK, ticker or company name.' }) },
  params: {
    concept: conceptParam(),
    unit: listParams.unit,
    form: listParams.form,
    fiscal_year: listParams.fiscal_year,
    filed_from: listParams.filed_from,
    filed_to: listParams.filed_to,
    period_end_from: listParams.period_end_from,
    period_end_to: listParams.period_end_to,
    latest: listParams.latest,
    limit: p.int({ ge: 1, le: 100, default: 25, description: 'Concepts per page, 1-100 (default 25).' }),
    cursor: p.str({ description: 'Opaque cursor from page.next_cursor.' }),
  },
  validate: rangeChecks,
  record: CompanyFactsRecord,
  cost: 5,
  errors: ['entity_unresolved'],
  async handler({ path, query, services }) {
    const id = String(path.cik);
    const unresolved = async () => {
      const s = await suggestEntity(services, id);
      return entityUnresolved(unresolvedMessage(id, s), s ? (s.ticker ?? s.cik) : undefined);
    };
    // A CIK is served straight from the facts (the directory lookup runs alongside, for the name and ticker);
    // a ticker or a name goes through resolution first.
    const directCik = /^(CIK)?\d{1,10}$/i.test(id.trim()) ? padCik(id) : null;
    const resolving = directCik
      ? services.lake
          .query('SELECT name, ticker FROM entities WHERE cik = $1 LIMIT 1', [directCik])
          .then((r) => (r[0] ? { cik: directCik, name: String(r[0].name), ticker: str(r[0].ticker), confidence: 1 } : null))
      : resolveEntity(services, id);
    const hit = directCik ? { cik: directCik, name: directCik, ticker: null as string | null, confidence: 1 } : await resolving;
    if (!hit) throw await unresolved();
    const params: unknown[] = [];
    const b: SqlBuilder = {
      param: (v) => {
        params.push(v);
        return `$${params.length}`;
      },
    };
    const where = [`cik_bucket = ${b.param(cikBucket(hit.cik))}`, `cik = ${b.param(hit.cik)}`];
    for (const [name, filter] of Object.entries(sharedFilters)) {
      const v = (query as Record<string, unknown>)[name];
      if (v === undefined || v === null) continue;
      const cond = (filter as (v: unknown, b: SqlBuilder, all: Record<string, unknown>) => string | null)(v, b, query);
      if (cond) where.push(cond);
    }
    const limit = Number(query.limit ?? 25);
    // The cursor is bound to the resolved company and the filters, not to how the company was named.
    const bound = { ...(query as Record<string, unknown>), cik: hit.cik };
    if (typeof query.cursor === 'string') where.push(`concept > ${b.param(decodeAfter(services.cursorSecret, bound, query.cursor))}`);
    const columns =
      'concept, taxonomy, label, unit, period_start, period_end, value, fiscal_year, fiscal_period, form, accession, filed, frame, is_latest, entity_name';
    const order = 'ORDER BY concept, unit, period_end, period_days, filed, accession';
    let facts: Record<string, unknown>[] = [];
    let concepts: string[];
    let hasMore = false;
    if (query.concept) {
      // At most four concepts (a bare tag in each default taxonomy): one query, no page over concepts.
      facts = await services.lake.query(`SELECT ${columns} FROM financial_facts WHERE ${where.join(' AND ')} ${order}`, params);
      concepts = [...new Set(facts.map((r) => String(r.concept)))];
    } else {
      // Pick the page's concepts first (sorted files: a plain range scan), then read their facts.
      const conceptRows = await services.lake.query(
        `SELECT DISTINCT concept FROM financial_facts WHERE ${where.join(' AND ')} ORDER BY concept LIMIT ${limit + 1}`,
        params,
      );
      hasMore = conceptRows.length > limit;
      concepts = conceptRows.slice(0, limit).map((r) => String(r.concept));
    }
    if (!query.concept && concepts.length) {
      const p2 = [...params];
      const b2: SqlBuilder = {
        param: (v) => {
          p2.push(v);
          return `$${p2.length}`;
        },
      };
      const range = `concept >= ${b2.param(concepts[0])} AND concept <= ${b2.param(concepts[concepts.length - 1])}`;
      facts = await services.lake.query(`SELECT ${columns} FROM financial_facts WHERE ${where.join(' AND ')} AND ${range} ${order}`, p2);
    }
    const byConcept = new Map<string, ConceptFacts>();
    for (const r of facts) {
      const c = String(r.concept);
      let rec = byConcept.get(c);
      if (!rec) {
        rec = { concept: c, taxonomy: String(r.taxonomy), label: str(r.label), units: {} };
        byConcept.set(c, rec);
      }
      (rec.units[String(r.unit)] ??= []).push({
        start: str(r.period_start),
        end: String(r.period_end),
        value: Number(r.value),
        fy: num(r.fiscal_year),
        fp: str(r.fiscal_period),
        form: str(r.form),
        accession: String(r.accession),
        filed: String(r.filed),
        frame: str(r.frame),
        is_latest: Boolean(r.is_latest),
      });
    }
    const entity = directCik ? await resolving : hit;
    if (directCik && !entity && !concepts.length && !query.cursor) {
      // Neither in the directory nor in the facts: an unknown CIK, not an empty result.
      const known = await services.lake.query('SELECT 1 FROM financial_facts WHERE cik_bucket = $1 AND cik = $2 LIMIT 1', [cikBucket(directCik), directCik]);
      if (!known.length) throw await unresolved();
    }
    const record = {
      cik: hit.cik,
      entity_name: facts.length ? String(facts[0].entity_name) : (entity?.name ?? hit.name),
      ticker: entity?.ticker ?? null,
      concepts: [...byConcept.values()],
      source: SOURCE,
      source_url: `https://data.sec.gov/api/xbrl/companyfacts/CIK${hit.cik}.json`,
    };
    const last = concepts[concepts.length - 1];
    return {
      data: [record],
      page: { limit, next_cursor: hasMore && last ? encodeAfter(services.cursorSecret, bound, last) : null, has_more: hasMore },
      source: SOURCE,
      query_echo: { ...query, cik: hit.cik, identifier: id, match_confidence: entity?.confidence ?? hit.confidence },
      warnings: concepts.length ? [] : [{ code: 'empty_result', message: `No XBRL facts for CIK ${hit.cik} match the query.` }],
    };
  },
});
