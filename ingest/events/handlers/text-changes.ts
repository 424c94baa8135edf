import { createHash } from 'node:crypto';
import type { DiffContext, DiffHandler } from '../handler.ts';
import { streamRows } from '../../lake/duck.ts';
import { inChanged } from '../sql.ts';
import { TEXT_SIMILARITY_MEDIUM } from '../importance.ts';
import { compareText } from '../text-diff.ts';
import type { EventDraft } from '../../../schemas/events.ts';

/** Below this similarity an item counts as changed (identical boilerplate re-filed is not an event). */
const TEXT_CHANGE_THRESHOLD = 0.97;
/** Text-similarity events are inferred, not read off a form: confidence below the deterministic 1.0. */
const TEXT_CONFIDENCE = 0.8;
const MAX_LISTED = 5;

const TYPES: Record<string, string> = {
  '10-K|risk_factors': 'sec.10k.risk_factor_changed',
  '10-K|mda': 'sec.10k.mda_changed',
  '10-Q|mda': 'sec.10q.mda_changed',
};

const clip = (s: string) => (s.length > 400 ? `${s.slice(0, 397)}…` : s);

/**
 * Risk factors and MD&A compared with the same company's previous filing of the same form (10-K with 10-K,
 * 10-Q with 10-Q). dedup_key: `<event_type>|<accession of the newer filing>`.
 */
export const textChangesHandler: DiffHandler = {
  name: 'text-changes',
  tables: ['filing_sections'],
  async run(ctx, changed) {
    const params: unknown[] = [];
    // The live lane names its filings: only those are compared, not every filing of their year.
    const where = inChanged('filed_year', changed, params, 'accession');
    const compared = Object.keys(TYPES).map((t) => {
      params.push(t);
      return `$${params.length}`;
    });
    const drafts: EventDraft[] = [];
    const now = new Date().toISOString();
    // Streamed: a year of 10-K and 10-Q sections is gigabytes of text, held a chunk (2,048 sections) at a time.
    const conn = await ctx.lake.connect();
    try {
      const sql =
        'SELECT accession, cik, company, form, base_form, section, item, heading, text, CAST(filed_date AS VARCHAR) AS filed, source_url ' +
        `FROM filing_sections WHERE ${where} AND base_form || '|' || section IN (${compared.join(', ')})`;
      for await (const chunk of streamRows(conn, sql, params)) {
        for (const cur of chunk) {
          const draft = await compareWithPrevious(ctx, cur, now);
          if (draft) drafts.push(draft);
        }
      }
    } finally {
      conn.closeSync();
    }
    return { drafts };
  },
};

/** The event for one section when it changed enough from the same company's previous filing of the form; else null. */
async function compareWithPrevious(ctx: DiffContext, cur: Record<string, unknown>, now: string): Promise<EventDraft | null> {
  const type = TYPES[`${cur.base_form}|${cur.section}`];
  if (!type) return null;
  const [prev] = await ctx.lake.query(
    `SELECT accession, text, CAST(filed_date AS VARCHAR) AS filed FROM filing_sections
        WHERE cik = $1 AND base_form = $2 AND section = $3 AND filed_date < $4::DATE ORDER BY filed_date DESC, accession DESC LIMIT 1`,
    [cur.cik, cur.base_form, cur.section, cur.filed],
  );
  if (!prev) return null;
  const d = compareText(String(prev.text), String(cur.text));
  if (d.similarity >= TEXT_CHANGE_THRESHOLD) return null;
  const excerpt = clip(d.added[0] ?? d.removed[0] ?? '');
  const label = cur.section === 'mda' ? "management's discussion and analysis" : 'risk factors';
  return {
    event_type: type,
    importance: d.similarity < TEXT_SIMILARITY_MEDIUM ? 'medium' : 'low',
    confidence: TEXT_CONFIDENCE,
    entity_cik: String(cur.cik),
    entity_ticker: null,
    entity_name: (cur.company as string) ?? null,
    accession: String(cur.accession),
    summary:
      `${cur.company ?? cur.cik} changed its ${label} in ${cur.form} (${d.added.length} paragraph(s) ` +
      `added, ${d.removed.length} removed; similarity ${d.similarity.toFixed(2)})`,
    details: {
      form: cur.form,
      item: cur.item,
      section: cur.section,
      similarity: d.similarity,
      threshold: TEXT_CHANGE_THRESHOLD,
      previous_accession: prev.accession,
      previous_filed_date: prev.filed,
      paragraphs_before: d.paragraphsBefore,
      paragraphs_after: d.paragraphsAfter,
      added_count: d.added.length,
      removed_count: d.removed.length,
      added_paragraphs: d.added.slice(0, MAX_LISTED).map(clip),
      removed_paragraphs: d.removed.slice(0, MAX_LISTED).map(clip),
    },
    evidence: [
      {
        source_type: 'sec_filing',
        url: String(cur.source_url ?? ''),
        retrieved_at: now,
        excerpt,
        section: String(cur.heading ?? `Item ${cur.item}`),
        excerpt_sha256: createHash('sha256').update(excerpt).digest('hex'),
      },
    ],
    dedup_key: `${type}|${cur.accession}`,
    occurred_at: String(cur.filed),
  };
}
