import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { defineIngester } from '../../pipeline/contract.ts';
import type { RawInput } from '../../sources/common/context.ts';
import { toIsoDate } from '../../sources/common/normalize.ts';
import { downloadLatestLinked, inputParts, localInputs } from '../../sources/iapd/inputs.ts';
import { parseFirmSearch, type SearchFirm } from '../../sources/iapd/search.ts';
import { dateFromFileName } from '../../sources/common/links.ts';
import { countryOfCode, parseBdList, type BdListRow } from '../../sources/iapd/bd-list.ts';
import { writeBrokerDealersSample } from './sample.ts';
import { brokerDealersTable } from '../../../schemas/tables/broker-dealers.ts';
import { SOURCE } from '../../../schemas/sources.ts';
import type { RowOf } from '../../../schemas/table.ts';

export const BD_PAGE_PATH = '/help/foiadocsbdfoiahtm.html';
const BD_PAGE = `https://www.sec.gov${BD_PAGE_PATH}`;
const BROKERCHECK_FIRM = 'https://brokercheck.finra.org/firm/summary/';
const isSearchJson = (name: string) => /\.json$/i.test(name);

/** A row being assembled from the files: no snapshot date yet, and the file list kept as an array to push to. */
type Rec = Omit<RowOf<typeof brokerDealersTable>, 'snapshot_date' | 'sources'> & { sources: string[] };

function fromList(r: BdListRow, file: string, url: string | null): Rec {
  return {
    bd_key: r.secNumber ?? `cik:${r.cik}`,
    sec_number: r.secNumber,
    sec_file_number_raw: r.fileNumberRaw,
    bd_crd: null,
    cik: r.cik,
    name: r.name,
    other_names: [],
    status: 'ACTIVE',
    on_sec_active_list: true,
    street1: r.street1,
    street2: r.street2,
    city: r.city,
    state: r.state,
    country: countryOfCode(r.state),
    postal_code: r.postalCode,
    phone: null,
    has_disclosure: null,
    branches_count: null,
    finra_last_approval_date: null,
    expelled_date: null,
    also_adviser_sec_number: null,
    sources: [file],
    source_file: file,
    source_line: r.line,
    source_url: url ?? BD_PAGE,
  };
}

/** IAPD adds what the SEC list lacks (CRD, disclosures, branches); the SEC list's own values win where both exist. */
function enrich(rec: Rec, f: SearchFirm, file: string): void {
  rec.bd_crd = f.crd;
  rec.other_names = f.otherNames;
  rec.has_disclosure = f.bdDisclosure;
  rec.branches_count = f.branches;
  rec.phone = f.phone;
  rec.finra_last_approval_date = f.finraLastApprovalDate;
  rec.expelled_date = f.expelledDate;
  rec.also_adviser_sec_number = f.iaSecNumber;
  rec.country ??= f.office?.country ?? null;
  rec.sources.push(file);
}

function fromSearch(f: SearchFirm, file: string): Rec {
  const o = f.office;
  const rec: Rec = {
    bd_key: f.bdSecNumber ?? `crd:${f.crd}`,
    sec_number: f.bdSecNumber,
    sec_file_number_raw: null,
    bd_crd: f.crd,
    cik: null,
    name: f.name,
    other_names: [],
    status: f.bdScope ?? 'UNKNOWN',
    on_sec_active_list: false,
    street1: o?.street1 ?? null,
    street2: o?.street2 ?? null,
    city: o?.city ?? null,
    state: o?.state ?? null,
    country: o?.country ?? null,
    postal_code: o?.postalCode ?? null,
    phone: null,
    has_disclosure: null,
    branches_count: null,
    finra_last_approval_date: null,
    expelled_date: null,
    also_adviser_sec_number: null,
    sources: [],
    source_file: file,
    source_line: f.index,
    source_url: `${BROKERCHECK_FIRM}${f.crd}`,
  };
  enrich(rec, f, file);
  return rec;
}

export default defineIngester({
  name: 'broker-dealers',
  description: 'Broker-dealers from the SEC active broker-dealer list (bd*.txt), joined by SEC file number with IAPD firm records (CRD, status).',
  tables: [brokerDealersTable],
  dependsOn: [],
  parserVersion: 1,
  source: SOURCE.sec_broker_dealers,
  sourceUrls: [BD_PAGE, 'https://api.adviserinfo.sec.gov/search/firm'],
  argsHelp: '--date YYYY-MM-DD (snapshot date when file names carry none) | --from <bd*.txt | IAPD firm-search .json | folder>',

  async inputs(ctx, args) {
    if (args.from) return localInputs(args.from, /(\.txt|\.json)$/i);
    return downloadLatestLinked(ctx, `${ctx.settings.SEC_BASE_URL}${BD_PAGE_PATH}`, /bd[^/]*\.txt$/i, args.date);
  },

  async load(ctx, inputs: RawInput[], args) {
    const dates = inputs
      .map((i) => (i.meta?.snapshotDate as string | undefined) ?? dateFromFileName(i.path))
      .filter((d): d is string => !!d)
      .sort();
    const snapshot = (args.date ? toIsoDate(args.date) : null) ?? dates.at(-1);
    if (!snapshot) throw new Error('cannot tell the snapshot date from the file names; pass --date YYYY-MM-DD');

    const recs = new Map<string, Rec>();
    // The SEC list first: IAPD records then attach to its rows by file number.
    const ordered = [...inputs].sort((a, b) => Number(isSearchJson(a.path)) - Number(isSearchJson(b.path)));
    let adviserOnly = 0;
    for (const input of ordered) {
      const file = basename(input.path);
      if (isSearchJson(file)) {
        const parsed = parseFirmSearch(await readFile(input.path, 'utf8'));
        for (const p of parsed.problems) ctx.badRow({ file, line: p.index, reason: p.reason });
        for (const f of parsed.firms) {
          if (!f.bdSecNumber) {
            adviserOnly++;
            continue;
          }
          const rec = recs.get(f.bdSecNumber);
          if (rec) enrich(rec, f, file);
          else recs.set(f.bdSecNumber, fromSearch(f, file));
        }
        continue;
      }
      for await (const part of inputParts(input.path, /\.txt$/i)) {
        for await (const row of parseBdList(await part.open(), (line, reason) => ctx.badRow({ file: part.name, line, reason }))) {
          const rec = fromList(row, part.name, input.url);
          const prior = recs.get(rec.bd_key);
          if (prior) {
            ctx.badRow({ file: part.name, line: row.line, reason: `duplicate ${rec.bd_key} (kept line ${prior.source_line})` });
            continue;
          }
          recs.set(rec.bd_key, rec);
        }
      }
    }
    if (adviserOnly) ctx.log(`${adviserOnly} IAPD firms without a broker-dealer file number skipped (advisers only)`);
    for (const rec of recs.values()) {
      await ctx.append(brokerDealersTable, { ...rec, snapshot_date: snapshot }, { file: rec.source_file, line: rec.source_line ?? undefined });
    }
  },

  sample: writeBrokerDealersSample,
});
