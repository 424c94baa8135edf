import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { defineIngester } from '../../pipeline/contract.ts';
import type { LoadContext, RawInput } from '../../sources/common/context.ts';
import { toIsoDate } from '../../sources/common/normalize.ts';
import { downloadLatestLinked, inputParts, localInputs } from '../../sources/iapd/inputs.ts';
import { dateFromFileName } from '../../sources/common/links.ts';
import { toAdviserRow, type RawAdviser } from '../../sources/iapd/adviser-row.ts';
import { parseFirmFeed } from '../../sources/iapd/firm-feed.ts';
import { searchAdvisers } from '../../sources/iapd/search-json.ts';
import { parseRoster } from '../../sources/iapd/roster.ts';
import { writeAdvisersSample } from './sample.ts';
import { advisersTable } from '../../../schemas/tables/advisers.ts';
import { SOURCE } from '../../../schemas/sources.ts';

export const ROSTER_PAGE_PATH = '/data-research/sec-markets-data/information-about-registered-investment-advisers-exempt-reporting-advisers';
const ROSTER_LINK = /ia\d{6,8}(-exempt)?\.zip$/i;
const LOCAL_FILES = /(^ia\d{6,8}.*\.zip$|\.csv$|IA_FIRM_.*\.xml(\.gz)?$|\.json$)/i;

const isFeed = (name: string) => /\.xml(\.gz)?$/i.test(name);

/**
 * Keeps the first row of each CRD per snapshot: a firm that moved from exempt to registered mid-month can show
 * up in both files; the registered roster is read first, and the later copy is reported, not silently dropped.
 */
class SnapshotDedup {
  private seen = new Map<string, Map<string, string>>();
  firstSeen(snapshot: string, crd: string, where: string): string | null {
    let m = this.seen.get(snapshot);
    if (!m) this.seen.set(snapshot, (m = new Map()));
    const prior = m.get(crd);
    if (prior) return prior;
    m.set(crd, where);
    return null;
  }
}

async function appendAdviser(
  ctx: LoadContext,
  dedup: SnapshotDedup,
  raw: RawAdviser,
  at: { snapshotDate: string; registrationType: 'registered' | 'exempt_reporting' | null; file: string; fileUrl: string | null; line: number },
): Promise<void> {
  const r = toAdviserRow(raw, at);
  if (!r.ok) {
    ctx.badRow({ file: at.file, line: at.line, reason: r.reason });
    return;
  }
  const crd = r.row.crd;
  const prior = dedup.firstSeen(at.snapshotDate, crd, `${at.file}:${at.line}`);
  if (prior) {
    ctx.badRow({ file: at.file, line: at.line, reason: `duplicate CRD ${crd} in snapshot ${at.snapshotDate} (kept ${prior})` });
    return;
  }
  for (const p of r.problems) ctx.badRow({ file: at.file, line: at.line, reason: `${p} (row kept, value null)` });
  await ctx.append(advisersTable, r.row, { file: at.file, line: at.line });
}

function snapshotOf(input: RawInput, partName: string, argsDate: string | undefined): string {
  const d =
    (input.meta?.snapshotDate as string | undefined) ?? dateFromFileName(input.path) ?? dateFromFileName(partName) ?? (argsDate ? toIsoDate(argsDate) : null);
  if (!d) throw new Error(`${basename(input.path)}: cannot tell the snapshot date from the file name; pass --date YYYY-MM-DD`);
  return d;
}

export default defineIngester({
  name: 'advisers',
  description: 'Investment advisers (registered and exempt-reporting) from the SEC monthly Form ADV roster, or the IAPD firm compilation feed.',
  tables: [advisersTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_form_adv,
  sourceUrls: [`https://www.sec.gov${ROSTER_PAGE_PATH}`, 'https://reports.adviserinfo.sec.gov/reports/CompilationReports/CompilationReports.manifest.json'],
  argsHelp:
    '--date YYYY-MM-DD|YYYY-MM (roster month; default newest on the SEC page) | --from <ia*.zip | roster ' +
    '.csv | IA_FIRM_*_Feed_*.xml[.gz] | IAPD firm-search .json | folder>',

  async inputs(ctx, args) {
    if (args.from) return localInputs(args.from, LOCAL_FILES);
    return downloadLatestLinked(ctx, `${ctx.settings.SEC_BASE_URL}${ROSTER_PAGE_PATH}`, ROSTER_LINK, args.date);
  },

  async load(ctx, inputs, args) {
    const dedup = new SnapshotDedup();
    // Registered roster before exempt, rosters before feeds: the first copy of a CRD wins (see SnapshotDedup).
    const ordered = [...inputs].sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
    for (const input of ordered) {
      const file = basename(input.path);
      if (/\.json$/i.test(file)) {
        const snapshotDate = snapshotOf(input, file, args.date);
        const { advisers, skipped, problems } = searchAdvisers(await readFile(input.path, 'utf8'));
        for (const p of problems) ctx.badRow({ file, line: p.index, reason: p.reason });
        if (skipped) ctx.log(`${file}: ${skipped} hits skipped (broker-dealer only, state-registered or inactive advisers)`);
        for (const a of advisers) await appendAdviser(ctx, dedup, a.raw, { snapshotDate, registrationType: null, file, fileUrl: input.url, line: a.index });
        continue;
      }
      for await (const part of inputParts(input.path, /\.(csv|txt|xml|xml\.gz)$/i)) {
        if (isFeed(part.memberName)) {
          const meta = { generatedOn: null as string | null };
          for await (const firm of parseFirmFeed(await part.open(), meta)) {
            const snapshotDate =
              (input.meta?.snapshotDate as string | undefined) ?? toIsoDate(meta.generatedOn) ?? snapshotOf(input, part.memberName, args.date);
            await appendAdviser(ctx, dedup, firm.raw, {
              snapshotDate,
              registrationType: firm.registrationType,
              file: part.name,
              fileUrl: input.url,
              line: firm.line,
            });
          }
          continue;
        }
        const snapshotDate = snapshotOf(input, part.memberName, args.date);
        const registrationType = /exempt|ERA_/i.test(file) || /exempt|_ERA_/i.test(part.memberName) ? 'exempt_reporting' : null;
        const rows = parseRoster(await part.open(), { onBad: (line, reason) => ctx.badRow({ file: part.name, line, reason }) });
        for await (const { raw, line } of rows) {
          await appendAdviser(ctx, dedup, raw, { snapshotDate, registrationType, file: part.name, fileUrl: input.url, line });
        }
      }
    }
  },

  sample: writeAdvisersSample,
});

function rank(path: string): number {
  const name = basename(path);
  if (/\.json$/i.test(name)) return 3;
  if (isFeed(name)) return 2;
  return /exempt/i.test(name) ? 1 : 0;
}
