import { readFile } from 'node:fs/promises';
import { defineIngester } from '../../pipeline/contract.ts';
import type { IngestContext, RawInput } from '../../sources/common/context.ts';
import { quarterBounds } from '../../sources/common/normalize.ts';
import { localInputs } from '../../sources/common/local-inputs.ts';
import { openLakeReader } from '../../lake/reader.ts';
import { extractItem } from '../../sources/edgar/archive/extract.ts';
import { parseSubmission } from '../../sources/edgar/sgml.ts';
import { filingSectionsTable, SECTIONS } from '../../../schemas/tables/filing-sections.ts';
import { writeFilingSectionsSample } from './sample.ts';
import { SOURCE } from '../../../schemas/sources.ts';

function baseForm(form: string | null): '10-K' | '10-Q' | null {
  const f = (form ?? '').toUpperCase().replace(/\/A$/, '');
  return f === '10-K' || f === '10-K405' ? '10-K' : f === '10-Q' ? '10-Q' : null;
}

/** 10-K/10-Q filings of a period or day, from the filing index already in the lake. */
async function indexedReports(ctx: IngestContext, from: string, to: string): Promise<RawInput[]> {
  const lake = await openLakeReader(ctx.settings.lakeDir);
  try {
    const rows = await lake.query(
      `SELECT DISTINCT accession, filing_url FROM filings WHERE base_form IN ('10-K', '10-Q') AND filed_date BETWEEN $1::DATE AND $2::DATE ORDER BY accession`,
      [from, to],
    );
    const out: RawInput[] = [];
    for (const r of rows) {
      const url = String(r.filing_url);
      out.push({ path: await ctx.http.download(url), url });
      ctx.progress.note(`fetched ${r.accession}`);
    }
    return out;
  } finally {
    await lake.close();
  }
}

export default defineIngester({
  name: 'filing-sections',
  description: 'Risk factors (10-K Item 1A) and MD&A (10-K Item 7, 10-Q Part I Item 2) text, for the text-change events.',
  tables: [filingSectionsTable],
  // Without --from, the reports to fetch come from the filing index.
  dependsOn: ['filings'],
  parserVersion: 1,
  source: SOURCE.sec_edgar_archive,
  sourceUrls: ['https://www.sec.gov/Archives/edgar/data/{cik}/{accession}.txt'],
  argsHelp:
    '--period 2024Q3 | --date YYYY-MM-DD (10-K/10-Q filings of the filing index in that range, fetched ' +
    'from the archive) | --from <full submission .txt/.nc files>',
  async inputs(ctx, args) {
    if (args.from) return localInputs(args.from, (n) => /\.(txt|nc)$/i.test(n));
    if (args.date) return indexedReports(ctx, args.date, args.date);
    const q = args.period ? quarterBounds(args.period) : null;
    if (!q) throw new Error('filing-sections needs --period, --date or --from');
    return indexedReports(ctx, q.start, q.end);
  },
  async load(ctx, inputs) {
    for (const input of inputs) {
      const text = await readFile(input.path, 'latin1');
      ctx.progress.bytes(text.length);
      const sub = parseSubmission(text);
      const h = sub.header;
      const form = baseForm(h.form);
      const filer = h.parties.find((p) => p.role === 'FILER') ?? h.parties[0];
      if (!form || !h.form || !h.accession || !h.filed || !filer?.cik) {
        ctx.badRow({ file: input.path, line: null, reason: `not a 10-K/10-Q full submission with accession, date and filer (${h.form ?? 'no form'})` });
        continue;
      }
      const primary = sub.documents.find((d) => baseForm(d.type) === form) ?? sub.documents[0];
      if (!primary) continue;
      for (const { section, item } of SECTIONS[form]) {
        const found = extractItem(primary.body, form, item);
        if (!found || found.text.trim().length < 40) continue;
        const paragraphs = found.text.split('\n').filter((l) => l.trim()).length;
        await ctx.append(
          filingSectionsTable,
          {
            accession: h.accession,
            cik: filer.cik,
            company: filer.name,
            form: h.form,
            base_form: form,
            filed_date: h.filed,
            filed_year: h.filed.slice(0, 4),
            period: h.period,
            section,
            item,
            heading: found.heading,
            text: found.text,
            paragraphs,
            words: found.text.split(/\s+/).filter(Boolean).length,
            source_url: input.url ?? `https://www.sec.gov/Archives/edgar/data/${Number(filer.cik)}/${h.accession}.txt`,
          },
          { file: input.path },
        );
      }
    }
  },
  sample: writeFilingSectionsSample,
});
