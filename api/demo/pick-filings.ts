import type { SampleArchiveFiling } from '../../ingest/samples/filing-archive/index.ts';
import type { Lake } from '../core/lake.ts';

/**
 * The filings the demo's sample archive holds, picked from the demo lake's filing index at demo time (never
 * hard-coded: the sample generators may change): every 8-K reporting Item 1.05 (the cyber-incident feed; at most
 * 5), the newest 10-K (Items 1A and 7, its Exhibit 21) and the newest Form 4.
 */
export interface DemoFilings {
  cyber8k: SampleArchiveFiling;
  tenK: SampleArchiveFiling;
  form4: SampleArchiveFiling;
  all: SampleArchiveFiling[];
}

const PICKS = {
  cyber8k: `SELECT DISTINCT accession, filed_date FROM filings WHERE base_form = '8-K' AND list_contains(string_split(items, ','), '1.05')
            ORDER BY filed_date DESC, accession LIMIT 5`,
  tenK: `SELECT DISTINCT accession, filed_date FROM filings WHERE form = '10-K' ORDER BY filed_date DESC, accession LIMIT 1`,
  form4: `SELECT DISTINCT accession, filed_date FROM filings WHERE form = '4' ORDER BY filed_date DESC, accession LIMIT 1`,
};

const isoDate = (v: unknown) => (v == null ? null : String(v).slice(0, 10));

/** `2024-03-19T16:10:05Z` (the submissions data's acceptance time, US Eastern despite its `Z`) → `2024-03-19 16:10:05`. */
const edgarTime = (v: unknown) =>
  v == null
    ? null
    : String(v)
        .replace('T', ' ')
        .replace(/(\.\d+)?Z?$/, '')
        .slice(0, 19);

async function filingOf(lake: Lake, accession: string): Promise<SampleArchiveFiling> {
  const rows = await lake.query('SELECT * FROM filings WHERE accession = $1 ORDER BY cik', [accession]);
  // The filer (a Form 4's issuer) is the row the submissions data described: it carries the primary document.
  const filer = rows.find((r) => r.primary_document != null) ?? rows.find((r) => String(r.cik).slice(0, 10) === accession.slice(0, 10)) ?? rows[0]!;
  const others = rows.filter((r) => r !== filer);
  const form = String(filer.form);
  const ticker = (await lake.query('SELECT ticker FROM entities WHERE cik = $1 AND ticker IS NOT NULL', [filer.cik]))[0]?.ticker;
  return {
    accession,
    ciks: [String(filer.cik), ...others.map((r) => String(r.cik))],
    company: String(filer.company),
    ticker: ticker == null ? null : String(ticker),
    form,
    items: filer.items ? String(filer.items).split(',').filter(Boolean) : [],
    filedDate: isoDate(filer.filed_date)!,
    reportDate: isoDate(filer.report_date),
    accepted: edgarTime(filer.acceptance_datetime),
    primaryDocument: filer.primary_document == null ? null : String(filer.primary_document),
    owner: form.startsWith('4') && others[0] ? { cik: String(others[0].cik), name: String(others[0].company) } : null,
  };
}

export async function pickDemoFilings(lake: Lake): Promise<DemoFilings> {
  const pick = async (name: keyof typeof PICKS) => {
    const accessions = (await lake.query(PICKS[name])).map((r) => String(r.accession));
    if (!accessions.length) throw new Error(`the demo lake's filing index has no ${name} filing for the sample archive`);
    return Promise.all(accessions.map((a) => filingOf(lake, a)));
  };
  const [cyber, tenK, form4] = [await pick('cyber8k'), await pick('tenK'), await pick('form4')];
  return { cyber8k: cyber[0]!, tenK: tenK[0]!, form4: form4[0]!, all: [...cyber, ...tenK, ...form4] };
}
