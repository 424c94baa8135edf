import { quarterOf } from '../../sources/common/normalize.ts';
import type { LoadContext } from '../../sources/common/context.ts';
import { insertedRows } from '../../lake/staging.ts';
import { tableFromRows, withScratch } from '../../sources/edgar/funds/work.ts';
import { tableRelation } from '../../lake/layout.ts';
import { filings13f, holdings13f, unmappedCusips13f } from '../../../schemas/tables/13f.ts';
import { resolveAmendments, amendmentEffect, type FilingOrderKey, type FilingState } from './amendments.ts';
import { isValidCusip, normalizeCusip } from '../../sources/common/cusip.ts';
import { resolveIssuers } from './issuers.ts';
import { filingIndexUrl, RAW_FILING_DDL, RAW_INFO_DDL, type RawFiling, type RawInfo } from '../../sources/edgar/funds/13f-raw.ts';
import { decideValueUnit } from './value-unit.ts';
import { resolveDuplicateRows } from './duplicates.ts';
import { numberLines } from './lines.ts';

/**
 * The one 13F pipeline behind both sources. Sources fill `raw13f_filing` / `raw13f_info` in the run's work
 * database; `finish13f` then decides each filing's VALUE unit, resolves amendments together with the filings
 * already in the lake for the same managers and periods, maps issuers, and stages the four tables.
 */

/** Runs an INSERT into a staging table and counts its rows for progress (the runner sees only appended rows). */
async function stage(ctx: LoadContext, insertSql: string): Promise<void> {
  ctx.progress.rows(insertedRows(await ctx.sql(insertSql)));
}

export async function createRaw13f(ctx: LoadContext): Promise<void> {
  await ctx.sql(`CREATE OR REPLACE TEMP TABLE raw13f_filing (${RAW_FILING_DDL})`);
  await ctx.sql(`CREATE OR REPLACE TEMP TABLE raw13f_info (${RAW_INFO_DDL})`);
}

const RAW_FILING_COLS: Record<string, string> = Object.fromEntries(
  RAW_FILING_DDL.split(',')
    .map((c) => c.trim().split(/\s+/))
    .map(([n, t]) => [n, t]),
);
const RAW_INFO_COLS: Record<string, string> = Object.fromEntries(
  RAW_INFO_DDL.split(',')
    .map((c) => c.trim().split(/\s+/))
    .map(([n, t]) => [n, t]),
);

/** Adds parsed single filings (XML) to the raw tables. */
export async function addParsedFilings(ctx: LoadContext, filings: RawFiling[], rows: RawInfo[]): Promise<void> {
  await withScratch(async (dir) => {
    await tableFromRows(ctx, dir, 'xml13f_filing', RAW_FILING_COLS, filings as unknown as Record<string, unknown>[]);
    await tableFromRows(ctx, dir, 'xml13f_info', RAW_INFO_COLS, rows as unknown as Record<string, unknown>[]);
  });
  // A filing seen twice (data set and XML, or two inputs) keeps one copy: the first loaded.
  await ctx.sql(`INSERT INTO raw13f_filing SELECT * FROM xml13f_filing x WHERE x.accession_number NOT IN (SELECT accession_number FROM raw13f_filing)`);
  await ctx.sql(`INSERT INTO raw13f_info SELECT * FROM xml13f_info x WHERE x.accession_number NOT IN (SELECT DISTINCT accession_number FROM raw13f_info)`);
}

/** What the unit and amendment decisions read of a filing: a few cover columns, not the whole raw row. */
type FilingCover = 'accession_number' | 'cik' | 'period_of_report' | 'filing_date' | 'accepted_at' | 'submission_type' | 'amendment_type';
interface FilingFacts extends Pick<RawFiling, FilingCover | 'is_amendment' | 'schema_version'> {
  median_price: number | null;
  price_rows: number;
  has_figi: boolean;
  first_line: number;
}

interface PriorFiling {
  accession_number: string;
  cik: string;
  period_of_report: string;
  submission_type: string;
  amendment_type: string | null;
  is_amendment: boolean | null;
  accepted_at: string | null;
  filing_date: string | null;
  is_current: boolean;
  superseded_by: string | null;
}

function orderKey(f: Omit<PriorFiling, 'is_current' | 'superseded_by'>): FilingOrderKey {
  return {
    accession: f.accession_number,
    cik: f.cik,
    periodOfReport: f.period_of_report,
    submissionType: f.submission_type,
    amendmentType: f.amendment_type,
    isAmendment: f.is_amendment,
    acceptedAt: f.accepted_at,
    filingDate: f.filing_date,
  };
}

export async function finish13f(ctx: LoadContext): Promise<void> {
  const lakeDir = ctx.settings.lakeDir;
  // Read as every reader reads them: a live append file's rows (a restatement's flipped lines) replace the data file's.
  const priorFilings = tableRelation(lakeDir, filings13f);
  const priorHoldings = tableRelation(lakeDir, holdings13f);
  const priorUnmapped = tableRelation(lakeDir, unmappedCusips13f);

  // Rows whose accession has no filing (subsets, truncated zips) cannot be placed in a period: reported, skipped.
  const orphans = await ctx.sql(
    `SELECT accession_number, count(*)::INTEGER AS n FROM raw13f_info WHERE accession_number NOT IN (SELECT accession_number FROM raw13f_filing) GROUP BY 1`,
  );
  for (const o of orphans)
    ctx.badRow({ file: 'INFOTABLE', line: null, reason: `${o.n} information table row(s) of ${o.accession_number} have no SUBMISSION/cover page` });

  await numberLines(ctx);
  // Before any per-filing fact is computed: a table filed twice must not double the row count nor the median.
  const duplicates = await resolveDuplicateRows(ctx);

  // Every per-filing aggregate of the lines in one pass (after duplicates are resolved): the unit evidence here, the
  // row count and VALUE sums (in either unit, the decision picks one) for the filings table below.
  await ctx.sql(`
    CREATE OR REPLACE TEMP TABLE info13f AS
    SELECT accession_number, count(*) AS n,
           median(value_reported / shares) FILTER (WHERE shares_type = 'SH' AND put_call IS NULL AND shares > 0 AND value_reported > 0) AS median_price,
           count(*) FILTER (WHERE shares_type = 'SH' AND put_call IS NULL AND shares > 0 AND value_reported > 0)::INTEGER AS price_rows,
           bool_or(figi IS NOT NULL) AS has_figi, sum(round(value_reported)) AS value_as_dollars, sum(round(value_reported * 1000)) AS value_as_thousands
    FROM raw13f_info GROUP BY 1`);
  const facts = (await ctx.sql(`
    SELECT f.accession_number, f.cik, f.submission_type, f.amendment_type, f.is_amendment, f.schema_version,
           CAST(f.period_of_report AS VARCHAR) AS period_of_report, CAST(f.filing_date AS VARCHAR) AS filing_date,
           strftime(f.accepted_at, '%Y-%m-%dT%H:%M:%S') AS accepted_at,
           a.median_price, coalesce(a.price_rows, 0) AS price_rows, coalesce(a.has_figi, false) AS has_figi,
           coalesce(l.first_line, 1)::BIGINT AS first_line
    FROM raw13f_filing f LEFT JOIN line13f l USING (accession_number) LEFT JOIN info13f a USING (accession_number)`)) as unknown as FilingFacts[];
  if (!facts.length) return;

  const prior: PriorFiling[] = priorFilings
    ? ((await ctx.sql(`
        SELECT p.accession_number, p.cik, CAST(p.period_of_report AS VARCHAR) AS period_of_report, p.submission_type, p.amendment_type,
               p.is_amendment, strftime(p.accepted_at, '%Y-%m-%dT%H:%M:%S') AS accepted_at, CAST(p.filing_date AS VARCHAR) AS filing_date,
               p.is_current, p.superseded_by
        FROM ${priorFilings} p
        JOIN (SELECT DISTINCT cik, period_of_report FROM raw13f_filing) t ON t.cik = p.cik AND t.period_of_report = p.period_of_report
        WHERE p.accession_number NOT IN (SELECT accession_number FROM raw13f_filing)`)) as unknown as PriorFiling[])
    : [];

  const states: Map<string, FilingState> = resolveAmendments([...facts.map(orderKey), ...prior.map(orderKey)]);
  const today = new Date().toISOString().slice(0, 10);

  await withScratch(async (dir) => {
    const decisions = facts.map((f) => {
      const d = decideValueUnit({
        medianPrice: f.median_price,
        priceRows: f.price_rows,
        hasFigi: f.has_figi,
        schemaVersion: f.schema_version,
        filingDate: f.filing_date,
        periodOfReport: f.period_of_report,
      });
      const s = states.get(f.accession_number)!;
      const dup = duplicates.get(f.accession_number);
      return {
        accession_number: f.accession_number,
        period: quarterOf(f.period_of_report),
        unit: d.unit,
        multiplier: d.multiplier,
        basis: d.basis,
        reason: d.reason,
        median_price: f.median_price,
        effect: s.effect,
        is_current: s.isCurrent,
        superseded_by: s.supersededBy,
        source_url: filingIndexUrl(f.cik, f.accession_number),
        duplicate_decision: dup?.decision ?? 'none',
        duplicate_reason: dup?.reason ?? null,
        first_line: Number(f.first_line),
      };
    });
    await tableFromRows(
      ctx,
      dir,
      'dec13f',
      {
        accession_number: 'VARCHAR',
        period: 'VARCHAR',
        unit: 'VARCHAR',
        multiplier: 'INTEGER',
        basis: 'VARCHAR',
        reason: 'VARCHAR',
        median_price: 'DOUBLE',
        effect: 'VARCHAR',
        is_current: 'BOOLEAN',
        superseded_by: 'VARCHAR',
        source_url: 'VARCHAR',
        duplicate_decision: 'VARCHAR',
        duplicate_reason: 'VARCHAR',
        first_line: 'BIGINT',
      },
      decisions,
    );

    // Earlier filings whose status changed because of this run (a restatement in a later window).
    const flipped = prior
      .map((p) => ({ p, s: states.get(p.accession_number)! }))
      .filter(({ p, s }) => s.isCurrent !== p.is_current || (s.supersededBy ?? null) !== (p.superseded_by ?? null))
      .map(({ p, s }) => ({
        accession_number: p.accession_number,
        is_current: s.isCurrent,
        superseded_by: s.supersededBy,
        effect: amendmentEffect(orderKey(p)),
      }));
    await tableFromRows(ctx, dir, 'flip13f', { accession_number: 'VARCHAR', is_current: 'BOOLEAN', superseded_by: 'VARCHAR', effect: 'VARCHAR' }, flipped);

    // CUSIPs are normalized once per distinct spelling, in JS (the one normalizer), not per row.
    const raws = await ctx.sql(`SELECT DISTINCT cusip_raw FROM raw13f_info WHERE cusip_raw IS NOT NULL`);
    await tableFromRows(
      ctx,
      dir,
      'cusip13f',
      { cusip_raw: 'VARCHAR', cusip: 'VARCHAR', cusip_valid: 'BOOLEAN' },
      raws.map((r) => {
        const c = normalizeCusip(r.cusip_raw);
        return { cusip_raw: r.cusip_raw, cusip: c ?? '', cusip_valid: isValidCusip(c) };
      }),
    );
    await resolveIssuers(ctx, dir, lakeDir, today);
  });

  const pv = ctx.parserVersion;
  await stage(
    ctx,
    `
    INSERT INTO staging_filings_13f BY NAME
    SELECT f.accession_number, f.cik, f.manager_name, f.street1, f.street2, f.city, f.state_or_country, f.zip_code, f.period_of_report,
           d.period, f.filing_date, f.accepted_at, f.submission_type, f.is_amendment, f.amendment_no, f.amendment_type,
           d.effect AS amendment_effect, d.is_current, d.superseded_by, f.report_type, f.form13f_file_number, f.crd_number, f.sec_file_number,
           f.other_included_managers_count, f.table_entry_total, f.table_value_total_reported,
           CAST(round(f.table_value_total_reported * d.multiplier) AS BIGINT) AS table_value_total_usd,
           coalesce(a.n, 0) AS info_rows,
           CAST(CASE d.multiplier WHEN 1 THEN a.value_as_dollars ELSE a.value_as_thousands END AS BIGINT) AS info_value_usd,
           f.is_confidential_omitted, f.schema_version,
           d.unit AS value_unit_decision, d.basis AS value_unit_basis, d.reason AS value_unit_reason, d.median_price AS implied_price_median,
           d.duplicate_decision AS duplicate_rows_decision, d.duplicate_reason AS duplicate_rows_reason,
           f.source, d.source_url, ${pv} AS parser_version, f.previous_accession, f.other_managers, f.other_included_managers,
           f.signature_name, f.signature_title, f.signature_phone, f.signature, f.signature_city, f.signature_state_or_country, f.signature_date
    FROM raw13f_filing f JOIN dec13f d USING (accession_number) LEFT JOIN info13f a USING (accession_number)`,
  );

  // Each line meets one small table per key: what its filing gives it (cover and decisions, 10k rows) and what its
  // CUSIP spelling gives it (normalized CUSIP and issuer), joined once each here instead of four joins per line.
  await ctx.sql(`
    CREATE OR REPLACE TEMP TABLE linefiling13f AS
    SELECT f.accession_number, f.cik AS manager_cik, f.manager_name, d.period, f.period_of_report, f.filing_date, d.first_line, d.multiplier,
           d.unit AS value_unit_decision, d.reason AS value_unit_reason, d.effect AS amendment_effect, d.is_current, d.source_url
    FROM raw13f_filing f JOIN dec13f d USING (accession_number)`);
  await ctx.sql(`
    CREATE OR REPLACE TEMP TABLE linecusip13f AS
    SELECT c.cusip_raw, c.cusip, c.cusip_valid, m.issuer_cik, m.issuer_ticker, m.confidence AS issuer_match_confidence, m.as_of AS issuer_match_as_of
    FROM cusip13f c LEFT JOIN issuer13f m ON m.cusip = c.cusip`);
  await stage(
    ctx,
    `
    INSERT INTO staging_holdings_13f BY NAME
    SELECT i.accession_number, CAST(i.line_no - f.first_line + 1 AS INTEGER) AS line_no, f.manager_cik, f.manager_name, f.period,
           f.period_of_report, f.filing_date,
           i.issuer_name, i.title_of_class, coalesce(c.cusip, '') AS cusip, coalesce(c.cusip_valid, false) AS cusip_valid, i.figi,
           CAST(round(i.value_reported * f.multiplier) AS BIGINT) AS value_usd, i.value_reported,
           f.value_unit_decision, f.value_unit_reason, i.shares, i.shares_type, i.put_call, i.investment_discretion,
           i.other_manager, i.voting_sole, i.voting_shared, i.voting_none, f.amendment_effect, f.is_current,
           c.issuer_cik, c.issuer_ticker, c.issuer_match_confidence, c.issuer_match_as_of,
           f.source_url, ${pv} AS parser_version
    FROM raw13f_info i
    JOIN linefiling13f f USING (accession_number)
    LEFT JOIN linecusip13f c ON c.cusip_raw = i.cusip_raw`,
  );

  // The lake's lines of this run's quarters, the only ones the flips and the aggregates below read: null when the lake
  // holds none (a new quarter), so the aggregates read the staged lines in place instead of a line-sized copy of
  // them (1.1 s of CPU for a 3M-line quarter ingested after another).
  const runPeriods = (await ctx.sql('SELECT DISTINCT period FROM dec13f')).map((r) => String(r.period));
  const priorRunHoldings = priorHoldings && tableRelation(lakeDir, holdings13f, runPeriods);
  if (priorFilings && priorHoldings) {
    await stage(
      ctx,
      `
      INSERT INTO staging_filings_13f BY NAME
      SELECT p.* REPLACE (x.is_current AS is_current, x.superseded_by AS superseded_by)
      FROM ${priorFilings} p JOIN flip13f x USING (accession_number)`,
    );
  }
  if (priorFilings && priorRunHoldings) {
    await stage(
      ctx,
      `
      INSERT INTO staging_holdings_13f BY NAME
      SELECT h.* REPLACE (x.is_current AS is_current)
      FROM ${priorRunHoldings} h JOIN flip13f x USING (accession_number)`,
    );
  }
  await stageManagersAndUnmapped(ctx, priorFilings, priorRunHoldings, priorUnmapped);
  // The line-sized work tables are done with: dropped, the sorted writes that follow get their memory instead of
  // spilling beside them (3M lines: raw13f_info alone is ≈ 0.4 GB of the 2 GB limit).
  await ctx.sql(`DROP TABLE raw13f_info`);
  await ctx.sql(priorRunHoldings ? 'DROP TABLE eff13f' : 'DROP VIEW eff13f');
}

/**
 * Managers and unmapped CUSIPs are aggregates over the whole current report, which may span data set windows:
 * they are computed over this run's rows plus the lake's rows of the same managers/periods not replaced by it.
 */
async function stageManagersAndUnmapped(
  ctx: LoadContext,
  priorFilings: string | null,
  /** The lake's lines of the run's quarters (null: none). */
  priorHoldings: string | null,
  priorUnmapped: string | null,
): Promise<void> {
  await ctx.sql(`
    CREATE OR REPLACE TEMP TABLE all13f_filing AS
    SELECT accession_number, cik, manager_name, street1, street2, city, state_or_country, zip_code, period, period_of_report, filing_date,
           accepted_at, amendment_effect, is_current, report_type, value_unit_decision, source_url
    FROM staging_filings_13f
    ${
      priorFilings
        ? `UNION ALL
    SELECT p.accession_number, p.cik, p.manager_name, p.street1, p.street2, p.city, p.state_or_country, p.zip_code, p.period, p.period_of_report,
           p.filing_date, p.accepted_at, p.amendment_effect, p.is_current, p.report_type, p.value_unit_decision, p.source_url
    FROM ${priorFilings} p
    JOIN (SELECT DISTINCT cik, period FROM staging_filings_13f) t ON t.cik = p.cik AND t.period = p.period
    WHERE p.accession_number NOT IN (SELECT accession_number FROM staging_filings_13f)`
        : ''
    }`);

  // The run's lines plus the lake's lines of the same quarters not replaced by them. Without lake lines of those
  // quarters it is only a view of the staged lines: the two aggregates below read the columns they need in place of a
  // line-sized copy (0.7 s CPU a 1M-line window).
  const effLines = 'SELECT manager_cik, period, cusip, cusip_valid, issuer_name, issuer_cik, value_usd, is_current FROM staging_holdings_13f';
  if (priorHoldings) {
    await ctx.sql(`
      CREATE OR REPLACE TEMP TABLE eff13f AS
      ${effLines}
      UNION ALL
      SELECT h.manager_cik, h.period, h.cusip, h.cusip_valid, h.issuer_name, h.issuer_cik, h.value_usd, h.is_current
      FROM ${priorHoldings} h
      WHERE NOT EXISTS (SELECT 1 FROM staging_holdings_13f s WHERE s.accession_number = h.accession_number AND s.line_no = h.line_no)`);
  } else {
    await ctx.sql(`CREATE OR REPLACE TEMP VIEW eff13f AS ${effLines}`);
  }

  await stage(
    ctx,
    `
    INSERT INTO staging_managers_13f BY NAME
    WITH cur AS (SELECT * FROM all13f_filing WHERE is_current),
    latest AS (
      SELECT * FROM cur
      QUALIFY row_number() OVER (PARTITION BY cik, period
        ORDER BY (amendment_effect <> 'notice') DESC, coalesce(accepted_at, CAST(filing_date AS TIMESTAMP)) DESC NULLS LAST, accession_number DESC) = 1),
    acc AS (
      SELECT cik, period, to_json(list(accession_number ORDER BY coalesce(accepted_at, CAST(filing_date AS TIMESTAMP)), accession_number)) AS accessions,
             count(*) FILTER (WHERE amendment_effect IN ('restatement', 'new_holdings'))::INTEGER AS amendment_count,
             CASE WHEN count(DISTINCT value_unit_decision) FILTER (WHERE amendment_effect <> 'notice') > 1 THEN 'mixed'
                  ELSE any_value(value_unit_decision) FILTER (WHERE amendment_effect <> 'notice') END AS unit
      FROM cur GROUP BY ALL),
    dates AS (SELECT cik, period, min(filing_date) AS first_date, max(filing_date) AS last_date FROM all13f_filing GROUP BY ALL),
    agg AS (SELECT manager_cik AS cik, period, count(*)::INTEGER AS n, CAST(coalesce(sum(value_usd), 0) AS BIGINT) AS v
      FROM eff13f WHERE is_current GROUP BY ALL)
    SELECT l.cik, l.manager_name, l.street1, l.street2, l.city, l.state_or_country, l.zip_code, l.period, l.period_of_report,
           dt.first_date AS filing_date, dt.last_date AS last_filing_date, l.accession_number, acc.accessions, acc.amendment_count,
           l.report_type, coalesce(agg.n, 0) AS holdings_count, coalesce(agg.v, 0) AS total_value_usd, acc.unit AS value_unit_decision,
           l.source_url, ${ctx.parserVersion} AS parser_version
    FROM latest l JOIN acc USING (cik, period) JOIN dates dt USING (cik, period) LEFT JOIN agg USING (cik, period)`,
  );

  // Reasons are decided for the CUSIPs this run sees. A CUSIP only the lake's lines hold keeps the reason the lake
  // gave it (a restatement ingested alone must not turn the quarter's `no_entity_directory` into another reason);
  // one with none gets a generic reason (reason is NOT NULL in staging).
  await stage(
    ctx,
    `
    INSERT INTO staging_unmapped_cusips_13f BY NAME
    SELECT period, cusip, mode(issuer_name) AS issuer_name, bool_or(cusip_valid) AS cusip_valid, count(*)::INTEGER AS holders,
           CAST(sum(value_usd) AS BIGINT) AS total_value_usd,
           coalesce(any_value(r.reason), ${priorUnmapped ? 'any_value(p.reason), ' : ''}'no_name_match') AS reason, ${ctx.parserVersion} AS parser_version
    FROM eff13f e LEFT JOIN unmapped13f_reason r USING (cusip)
    ${priorUnmapped ? `LEFT JOIN (SELECT period, cusip, reason FROM ${priorUnmapped}) p USING (period, cusip)` : ''}
    WHERE is_current AND issuer_cik IS NULL AND cusip <> ''
    GROUP BY period, cusip`,
  );
}
