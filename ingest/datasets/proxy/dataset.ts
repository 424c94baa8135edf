import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { localInputs } from '../../sources/common/local-inputs.ts';
import { defineIngester } from '../../pipeline/contract.ts';
import type { IngestArgs, IngestContext, RawInput } from '../../sources/common/context.ts';
import { cikDigits, normalizeAccession } from '../../sources/common/normalize.ts';
import { BOARD_PARSER_VERSION, boardMembersTable } from '../../../schemas/tables/board.ts';
import { applyDeiFacts, readProxySubmission } from '../../sources/edgar/proxy/submission.ts';
import { extractProxy } from '../../sources/edgar/proxy/extract.ts';
import { filingIdOf, proxyRows } from './rows.ts';
import { proxyCompensationTable, proxyOfficersTable } from '../../../schemas/tables/proxy.ts';
import { writeProxySample } from './sample.ts';
import { SOURCE } from '../../../schemas/sources.ts';

/** `--accession cik/accession[,…]` fetches filings from the archive; `--from` with a non-path value does the same. */
type ProxyArgs = IngestArgs & { accession?: string };

const DOCUMENT = /\.(txt|htm|html|nc)$/i;
const ACCESSION_LIST = /^((\d{1,10}[/:])?\d{10}-?\d{2}-?\d{6},?)+$/;

/**
 * `cik/accession` or a bare accession (its filer-agent prefix is then used as the archive folder,
 * which is right for self-filed proxies). The full submission `.txt` carries the header we need.
 */
export function submissionUrl(base: string, item: string): { url: string; accession: string } | null {
  const m = item.trim().match(/^(?:(\d{1,10})[/:])?(\d{10}-?\d{2}-?\d{6})$/);
  if (!m) return null;
  const accession = normalizeAccession(m[2])!;
  const cik = cikDigits(m[1] ?? accession.slice(0, 10))!;
  return { url: `${base.replace(/\/$/, '')}/Archives/edgar/data/${cik}/${accession.replace(/-/g, '')}/${accession}.txt`, accession };
}

export default defineIngester({
  name: 'proxy',
  description: 'DEF 14A proxy statements: directors and executive officers, summary/director/fund compensation tables, board members.',
  tables: [proxyOfficersTable, proxyCompensationTable, boardMembersTable],
  dependsOn: [],
  parserVersion: BOARD_PARSER_VERSION,
  source: SOURCE.sec_proxy,
  sourceUrls: ['https://www.sec.gov/Archives/edgar/data/', 'https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&type=DEF+14A'],
  argsHelp:
    '--from <file|folder> of DEF 14A documents (full submission .txt or primary .htm), or --from ' +
    '<cik/accession>[,...] to fetch full submissions from SEC_BASE_URL archives',
  async inputs(ctx: IngestContext, args: ProxyArgs) {
    // The CLI has no --accession yet: an accession list given to --from (and not an existing path) is fetched.
    const accessions = args.accession ?? (args.from && !existsSync(args.from) && ACCESSION_LIST.test(args.from) ? args.from : undefined);
    if (accessions) {
      const out: RawInput[] = [];
      for (const item of accessions.split(',').filter(Boolean)) {
        const u = submissionUrl(ctx.settings.SEC_BASE_URL, item);
        if (!u) throw new Error(`accession: "${item}" is not an accession number (0001234567-24-000123, optionally prefixed by cik/)`);
        out.push({ path: await ctx.http.download(u.url), url: u.url, meta: { accession: u.accession } });
      }
      return out;
    }
    if (args.from) return localInputs(args.from, (n) => DOCUMENT.test(n));
    throw new Error('proxy: give --from <file|folder> or --from <cik/accession>[,...]');
  },
  async load(ctx, inputs) {
    for (const input of inputs) {
      // Re-derivation can hand us the other board_members writer's raw files: not ours, skip them.
      if (!DOCUMENT.test(input.path)) {
        ctx.log(`skipping ${input.path}: not a proxy document`);
        continue;
      }
      const text = await readFile(input.path, 'utf8');
      const doc = readProxySubmission(text, basename(input.path));
      if (!doc.meta.accession && typeof input.meta?.accession === 'string') doc.meta.accession = input.meta.accession;
      if (!doc.html) {
        ctx.badRow({ file: input.path, line: null, reason: 'no DEF 14A document in the submission' });
        continue;
      }
      const x = extractProxy(doc.html);
      applyDeiFacts(doc.meta, x.dei);
      if (!doc.meta.cik) {
        ctx.badRow({ file: input.path, line: null, reason: 'issuer CIK unknown (no SEC header, no dei:EntityCentralIndexKey)' });
        continue;
      }
      const fiscalYear = x.fiscalYear ?? (doc.meta.filedDate ? Number(doc.meta.filedDate.slice(0, 4)) - 1 : null);
      if (fiscalYear === null) {
        ctx.badRow({ file: input.path, line: null, reason: 'fiscal year unknown' });
        continue;
      }
      const cik = cikDigits(doc.meta.cik);
      const sourceUrl =
        doc.meta.accession && doc.meta.documentName
          ? `${ctx.settings.SEC_BASE_URL.replace(/\/$/, '')}/Archives/edgar/data/${cik}/${doc.meta.accession.replace(/-/g, '')}/${doc.meta.documentName}`
          : input.url;
      const rows = proxyRows(doc.meta, x, { filingId: filingIdOf(doc.meta, doc.html), fiscalYear, sourceUrl });
      for (const r of rows.officers) await ctx.append(proxyOfficersTable, r, { file: input.path });
      for (const r of rows.compensation) await ctx.append(proxyCompensationTable, r, { file: input.path });
      for (const r of rows.board) await ctx.append(boardMembersTable, r, { file: input.path });
      ctx.log(
        `${basename(input.path)}: ${rows.officers.length} people, ${rows.compensation.length} compensation rows (${x.tablesUsed}/${x.tablesSeen} tables used)`,
      );
    }
  },
  sample: writeProxySample,
});
