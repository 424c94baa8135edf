import { toIsoDate, toNumber } from '../../common/normalize.ts';
import { documentLines } from './html-text.ts';
import { type DeiContext, type DeiFact, hasInlineXbrl, readDeiFacts } from './ixbrl-dei.ts';

/**
 * The cover page of a 10-K, 10-Q, 8-K, 20-F or 40-F: from the inline XBRL `dei:` facts when the document has
 * them (tagged since 2019-2021 by filer size), else from the cover text (the printed labels every cover repeats:
 * "(Exact name of registrant …)", "Commission File Number", check boxes …). An iXBRL cover with a value left
 * untagged gets that value from the text too; `fields_from_text` names those, so each value's origin is known.
 */

export type CoverMethod = 'ixbrl' | 'text';

export interface CoverSecurity {
  title: string | null;
  trading_symbol: string | null;
  exchange: string | null;
}

export interface CoverShares {
  shares: number;
  as_of: string | null;
  /** Dimension member of the class (`us-gaap:CommonClassAMember`); null for the single-class default. */
  security_class: string | null;
}

export interface CoverPage {
  method: CoverMethod;
  fields_from_text: string[];
  document_type: string | null;
  amendment: boolean | null;
  registrant_name: string | null;
  cik: string | null;
  file_number: string | null;
  /** DocumentPeriodEndDate: end of the fiscal period (10-K/10-Q/20-F/40-F) or date of report (8-K). */
  period_of_report: string | null;
  /** `MM-DD`. */
  fiscal_year_end: string | null;
  fiscal_year_focus: string | null;
  fiscal_period_focus: string | null;
  filer_category: string | null;
  shares_outstanding: CoverShares[];
  public_float: { amount_usd: number; as_of: string | null } | null;
  securities: CoverSecurity[];
  state_of_incorporation: string | null;
  irs_number: string | null;
  address: { street1: string | null; street2: string | null; city: string | null; state: string | null; zip: string | null; country: string | null };
  phone: string | null;
  well_known_seasoned_issuer: boolean | null;
  shell_company: boolean | null;
  emerging_growth_company: boolean | null;
}

/** Fields the text path can fill when the iXBRL facts lack them. */
const TEXT_FILLABLE = [
  'registrant_name',
  'file_number',
  'period_of_report',
  'filer_category',
  'state_of_incorporation',
  'irs_number',
  'phone',
  'well_known_seasoned_issuer',
  'shell_company',
  'emerging_growth_company',
] as const;

// ---- inline XBRL -------------------------------------------------------------------------------------------------

const CHECKED = /[☒☑✓✔■þý]|^\s*[xX]\s*$/;

function factBool(f: DeiFact | undefined): boolean | null {
  if (!f) return null;
  const fmt = f.format?.toLowerCase() ?? '';
  if (fmt.endsWith('fixed-true')) return true;
  if (fmt.endsWith('fixed-false')) return false;
  if (fmt.includes('ballotbox')) return CHECKED.test(f.text) ? true : /[☐□¨]/.test(f.text) ? false : null;
  const t = f.text.trim().toLowerCase();
  if (t === 'yes' || t === 'true') return true;
  if (t === 'no' || t === 'false') return false;
  return null;
}

function factNumber(f: DeiFact): number | null {
  let t = f.text;
  if (/zerodash/i.test(f.format ?? '') || /^[-–—]$/.test(t.trim())) return 0;
  // num-comma-decimal (1.234,5): swap the separators before reading.
  if (/comma-?decimal/i.test(f.format ?? '')) t = t.replace(/\./g, '').replace(',', '.');
  const n = toNumber(t.replace(/[^\d.,()-]/g, ''));
  if (n == null) return null;
  const v = n * 10 ** f.scale;
  return f.negative ? -v : v;
}

function monthDay(raw: string | null): string | null {
  if (!raw) return null;
  const g = /^--(\d{2})-(\d{2})$/.exec(raw.trim());
  if (g) return `${g[1]}-${g[2]}`;
  // "September 28" or "December 31": any leap year makes February 29 valid.
  const iso = toIsoDate(`${raw.trim().replace(/,$/, '')}, 2024`);
  return iso ? iso.slice(5) : null;
}

function coverFromFacts(facts: DeiFact[], contexts: Map<string, DeiContext>): CoverPage {
  const first = (name: string) => facts.find((f) => f.name === name && f.text !== '');
  const text = (name: string) => first(name)?.text ?? null;
  const ctxOf = (f: DeiFact) => (f.contextRef ? contexts.get(f.contextRef) : undefined);

  const periodFact = first('DocumentPeriodEndDate');
  // A period printed without its year ("December 31" + a separate year) reads from the fact's context.
  const period = periodFact ? (toIsoDate(periodFact.text) ?? ctxOf(periodFact)?.date ?? null) : null;

  const securities = new Map<string, CoverSecurity>();
  for (const f of facts) {
    if (!['Security12bTitle', 'TradingSymbol', 'SecurityExchangeName', 'NoTradingSymbolFlag'].includes(f.name)) continue;
    const key = f.contextRef ?? '';
    const s = securities.get(key) ?? { title: null, trading_symbol: null, exchange: null };
    if (f.name === 'Security12bTitle') s.title ??= f.text || null;
    else if (f.name === 'TradingSymbol') s.trading_symbol ??= f.text.toUpperCase() || null;
    else if (f.name === 'SecurityExchangeName') s.exchange ??= f.text || null;
    securities.set(key, s);
  }

  const shares: CoverShares[] = [];
  for (const f of facts) {
    if (f.name !== 'EntityCommonStockSharesOutstanding') continue;
    const n = factNumber(f);
    const ctx = ctxOf(f);
    if (n != null) shares.push({ shares: n, as_of: ctx?.date ?? null, security_class: ctx?.members[0] ?? null });
  }
  const floatFact = first('EntityPublicFloat');
  const floatAmount = floatFact ? factNumber(floatFact) : null;

  const street2 = [text('EntityAddressAddressLine2'), text('EntityAddressAddressLine3')].filter(Boolean).join(', ');
  const area = text('CityAreaCode');
  const local = text('LocalPhoneNumber');
  const cik = text('EntityCentralIndexKey');
  return {
    method: 'ixbrl',
    fields_from_text: [],
    document_type: text('DocumentType')?.toUpperCase() ?? null,
    amendment: factBool(first('AmendmentFlag')),
    registrant_name: text('EntityRegistrantName'),
    cik: cik && /^\d{1,10}$/.test(cik) ? cik.padStart(10, '0') : null,
    file_number: text('EntityFileNumber'),
    period_of_report: period,
    fiscal_year_end: monthDay(text('CurrentFiscalYearEndDate')),
    fiscal_year_focus: text('DocumentFiscalYearFocus'),
    fiscal_period_focus: text('DocumentFiscalPeriodFocus'),
    filer_category: text('EntityFilerCategory'),
    shares_outstanding: shares,
    public_float: floatAmount != null && floatFact ? { amount_usd: floatAmount, as_of: ctxOf(floatFact)?.date ?? null } : null,
    securities: [...securities.values()].filter((s) => s.title || s.trading_symbol || s.exchange),
    state_of_incorporation: text('EntityIncorporationStateCountryCode'),
    irs_number: text('EntityTaxIdentificationNumber'),
    address: {
      street1: text('EntityAddressAddressLine1'),
      street2: street2 || null,
      city: text('EntityAddressCityOrTown'),
      state: text('EntityAddressStateOrProvince'),
      zip: text('EntityAddressPostalZipCode'),
      country: text('EntityAddressCountry'),
    },
    phone: local ? (area ? `(${area.replace(/[()]/g, '')}) ${local}` : local) : null,
    well_known_seasoned_issuer: factBool(first('EntityWellKnownSeasonedIssuer')),
    shell_company: factBool(first('EntityShellCompany')),
    emerging_growth_company: factBool(first('EntityEmergingGrowthCompany')),
  };
}

// ---- cover text --------------------------------------------------------------------------------------------------

/** Glyphs of a ticked box as they come out of HTML and Wingdings fonts (þ, ý; "T" in Wingdings 2 covers). */
const TICK = String.raw`(?:☒|☑|✓|✔|■|þ|ý|\[\s*[xX✓]\s*\]|\b[xXT]\b)`;
const BOX = String.raw`(?:☐|□|¨|o|q|\[\s*\]|_{2,}|${TICK})`;
const DATE = String.raw`([A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}/\d{1,2}/\d{4})`;
const DATE_I = String.raw`([A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}/\d{1,2}/\d{4})`;

function isTick(mark: string): boolean {
  return new RegExp(`^${TICK}$`).test(mark.trim());
}

/** "… Yes ☒ No ☐" (either order of the boxes and words) after a question; null when neither box is ticked. */
function yesNo(cover: string, question: RegExp): boolean | null {
  const q = question.exec(cover);
  if (!q) return null;
  const tail = cover.slice(q.index + q[0].length, q.index + q[0].length + 400);
  const m = new RegExp(String.raw`\bYes\b\s*(${BOX})?\s*\bNo\b\s*(${BOX})?`, 'i').exec(tail);
  if (m) {
    if (m[1] && isTick(m[1])) return true;
    if (m[2] && isTick(m[2])) return false;
  }
  const before = new RegExp(String.raw`(${BOX})\s*\bYes\b\s*(${BOX})\s*\bNo\b`, 'i').exec(tail);
  if (before) return isTick(before[1]!) ? true : isTick(before[2]!) ? false : null;
  return null;
}

/**
 * One alternation, longest label first: scanning left to right, "Large accelerated filer" and "Non-accelerated filer"
 * are consumed whole, so the "accelerated filer" inside them never counts as a category of its own.
 */
const CATEGORY = new RegExp(String.raw`(large accelerated filer|non[-\s]?accelerated filer|accelerated filer|smaller reporting company)\s*(${BOX})?`, 'gi');

function categoryName(label: string): string {
  const l = label.toLowerCase();
  if (l.startsWith('large')) return 'Large accelerated filer';
  if (l.startsWith('non')) return 'Non-accelerated filer';
  if (l.startsWith('smaller')) return 'Smaller reporting company';
  return 'Accelerated filer';
}

function filerCategory(cover: string): string | null {
  const matches = [...cover.matchAll(CATEGORY)];
  // The box follows the label on most covers and precedes it on some: a box just before the first label says which
  // (then the box after a label is the next label's).
  const before = (i: number) => cover.slice(Math.max(0, i - 4), i);
  const boxBefore = matches.length > 0 && /[☐☒☑✓✔■□¨þý]/.test(before(matches[0]!.index));
  const ticked = matches.filter((m) => (boxBefore ? /[☒☑✓✔■þý]/.test(before(m.index)) : m[2] && isTick(m[2]))).map((m) => categoryName(m[1]!));
  // Form wording joins two categories ("Non-accelerated filer ☒ Smaller reporting company ☒"): the first names the filer.
  return ticked.find((c) => c !== 'Smaller reporting company') ?? ticked[0] ?? null;
}

function emergingGrowth(cover: string): boolean | null {
  const m = new RegExp(String.raw`Emerging growth company\s*(${BOX})`, 'i').exec(cover);
  if (!m) return null;
  return isTick(m[1]!);
}

/** The line just above a parenthesized caption such as "(Exact name of registrant as specified in its charter)". */
function above(lines: string[], caption: RegExp): string | null {
  const i = lines.findIndex((l) => caption.test(l));
  if (i <= 0) return null;
  const prev = lines[i - 1]!.split('\t')[0]!.trim();
  return prev && !/^\(/.test(prev) ? prev : null;
}

/** "17755 US Highway 19 North / Suite 400 / Clearwater, FL 33764" or one line "601 McCarthy Blvd, Milpitas, California 95035". */
function textAddress(lines: string[]): CoverPage['address'] {
  const empty = { street1: null, street2: null, city: null, state: null, zip: null, country: null };
  if (!lines.length) return empty;
  const last = lines[lines.length - 1]!;
  const m = /^(.*),\s*([A-Za-z][A-Za-z .]*?)\.?\s+(\d{5}(?:-\d{4})?)$/.exec(last);
  if (!m) return { ...empty, street1: lines[0]!, street2: lines.length > 1 ? lines.slice(1).join(', ') : null };
  const head = m[1]!;
  const comma = head.lastIndexOf(',');
  const streets = lines.slice(0, -1);
  if (comma > 0) streets.push(head.slice(0, comma).trim());
  return {
    street1: streets[0] ?? null,
    street2: streets.length > 1 ? streets.slice(1).join(', ') : null,
    city: (comma > 0 ? head.slice(comma + 1) : head).trim(),
    state: m[2]!.trim(),
    zip: m[3]!,
    country: null,
  };
}

function money(raw: string, unit: string | undefined): number | null {
  const n = toNumber(raw);
  if (n == null) return null;
  const k = unit?.toLowerCase();
  return k === 'billion' ? n * 1e9 : k === 'million' ? n * 1e6 : k === 'thousand' ? n * 1e3 : n;
}

function coverLines(body: string): string[] {
  const lines = documentLines(body.slice(0, 400_000));
  // The cover ends where the report begins: the table of contents or Part I.
  const end = lines.findIndex((l, i) => i > 10 && /^(TABLE OF CONTENTS|PART\s+I\b|INDEX\b|Item\s+1\.?\s|Item\s+\d\.\d\d)/i.test(l));
  return lines.slice(0, end > 0 ? end : 160);
}

function coverFromText(body: string): CoverPage {
  const lines = coverLines(body);
  const cover = lines.join('\n');
  const flat = lines.join(' ');
  const date = (re: RegExp) => {
    const m = re.exec(flat);
    return m ? toIsoDate(m[1]!.replace(/\.(?=\s)/, '').replace(/\s+/g, ' ')) : null;
  };

  const period =
    date(new RegExp(String.raw`Date of Report\s*\(Date of earliest event reported\)\s*:?\s*${DATE_I}`, 'i')) ??
    date(new RegExp(String.raw`(?:fiscal year|quarterly period|transition period from .{0,40}? to|period) ended:?\s*${DATE_I}`, 'i')) ??
    date(new RegExp(`Date of Report.{0,80}?${DATE}`, 'i')) ??
    // The date printed above its caption: "March 23, 2016 / Date of Report (Date of earliest event reported)".
    toIsoDate(lines[lines.findIndex((l) => /^Date of Report/i.test(l)) - 1]?.replace(/\s+/g, ' ') ?? null);

  const stateAndIrs = (() => {
    const i = lines.findIndex((l) => /^\((State or other )?jurisdiction|^\(?State of incorporation/i.test(l));
    if (i <= 0) return { state: null as string | null, irs: null as string | null };
    const window = lines.slice(Math.max(0, i - 3), i + 8).join('\t');
    // Dashed since the 2000s; older covers print the nine digits bare ("CALIFORNIA 942404110").
    const irsM = /\b(\d{2}-\d{7})\b/.exec(window) ?? /\b(\d{2})(\d{7})\b/.exec(lines[i - 1] ?? '');
    const irs = irsM ? (irsM[2] ? `${irsM[1]}-${irsM[2]}` : irsM[1]!) : null;
    // The state sits above the caption, on the IRS number's line or up to two lines higher when the cells are
    // stacked one per line (state, file number, IRS number).
    const cells = lines
      .slice(Math.max(0, i - 3), i)
      .reverse()
      .flatMap((l) => l.split('\t').map((c) => c.replace(/\s*\b\d{9}\b\s*$/, '').trim()));
    const state = cells.find((c) => c && !/\d{2}-\d{7}|^\d{1,3}-\d+|\d{4}$/.test(c) && !/^\(|registrant|Date of Report/i.test(c)) ?? null;
    return { state, irs };
  })();

  const addressLines: string[] = [];
  const ai = lines.findIndex((l) => /\(Address(,)? (including zip code, )?of principal executive offices/i.test(l));
  if (ai > 0) {
    for (let j = ai - 1; j >= 0 && addressLines.length < 3; j--) {
      const l = lines[j]!;
      if (/^\(|Identification|Commission|\d{2}-\d{7}$/i.test(l)) break;
      addressLines.unshift(l.replace(/\t/g, ' '));
    }
  }
  const phone = /(\(?\d{3}\)?[\s.-]*\d{3}-\d{4})/.exec(
    lines.find((l, i) => /telephone number/i.test(l) || (i + 1 < lines.length && /telephone number/i.test(lines[i + 1]!) && /\d{3}-\d{4}/.test(l))) ?? '',
  );
  const phoneNear = phone ?? /(\(\d{3}\)\s*\d{3}-\d{4})/.exec(lines[lines.findIndex((l) => /telephone number/i.test(l)) - 1] ?? '');

  const fileNumber = /Commission\s+File\s+(?:Number|No\.?)\s*:?\s*([0-9]{1,3}-[0-9]{3,6})/i.exec(flat)?.[1] ?? /\b(0\d{2}-\d{5})\b/.exec(flat)?.[1] ?? null;

  const securities: CoverSecurity[] = [];
  const si = lines.findIndex((l) => /^Title of each class/i.test(l));
  if (si >= 0) {
    for (const l of lines.slice(si + 1, si + 15)) {
      if (/Section 12\(g\)|^Indicate/i.test(l)) break;
      const cells = l.split('\t').filter((c) => !/^(Title of|Trading|Name of|which registered|Symbol)/i.test(c));
      if (cells.length < 2 || /^(none|n\/a)$/i.test(cells[0]!)) continue;
      const exchange = cells.find((c) => /exchange|market|nasdaq|nyse/i.test(c)) ?? null;
      const symbol = cells.length >= 3 ? (cells.find((c) => /^[A-Z][A-Z.-]{0,5}$/.test(c)) ?? null) : null;
      securities.push({ title: cells[0]!, trading_symbol: symbol, exchange });
    }
  }

  const floatM = /aggregate market value of (?:the )?(?:voting|common).{0,400}?\$\s*([\d,.]+)\s*(billion|million|thousand)?/i.exec(flat);
  const floatDate = floatM ? new RegExp(DATE_I).exec(flat.slice(Math.max(0, floatM.index), floatM.index + floatM[0].length + 200)) : null;

  const shares: CoverShares[] = [];
  const sm = new RegExp(
    String.raw`(?:outstanding|As of|as of)[^.]{0,160}?${DATE_I}[^.]{0,120}?\b(\d{1,3}(?:,\d{3})+)\b[^.]{0,60}?shares` +
      String.raw`|\b(\d{1,3}(?:,\d{3})+)\s+shares[^.]{0,120}?outstanding[^.]{0,80}?${DATE_I}`,
    'i',
  ).exec(flat);
  if (sm) {
    const n = toNumber(sm[2] ?? sm[3]);
    const d = toIsoDate((sm[1] ?? sm[4])!.replace(/\s+/g, ' '));
    if (n != null) shares.push({ shares: n, as_of: d, security_class: null });
  }

  return {
    method: 'text',
    fields_from_text: [],
    document_type:
      /\bFORM\s+(10-K|10-Q|8-K|20-F|40-F)(?:\/A)?\b/i
        .exec(flat)?.[0]
        .replace(/^FORM\s+/i, '')
        .toUpperCase() ?? null,
    amendment: /\bAmendment No\.?\s*\d/i.test(flat) ? true : null,
    registrant_name: above(lines, /\(Exact name of (the )?registrant/i),
    cik: null,
    file_number: fileNumber,
    period_of_report: period,
    fiscal_year_end: null,
    fiscal_year_focus: null,
    fiscal_period_focus: null,
    filer_category: filerCategory(cover),
    shares_outstanding: shares,
    public_float: floatM
      ? (() => {
          const amount = money(floatM[1]!, floatM[2]);
          return amount == null ? null : { amount_usd: amount, as_of: floatDate ? toIsoDate(floatDate[1]!) : null };
        })()
      : null,
    securities,
    state_of_incorporation: stateAndIrs.state,
    irs_number: stateAndIrs.irs,
    address: textAddress(addressLines),
    phone: phoneNear?.[1] ?? null,
    well_known_seasoned_issuer: yesNo(flat, /well-known seasoned issuer/i),
    shell_company: yesNo(flat, /registrant is a shell company/i),
    emerging_growth_company: emergingGrowth(flat),
  };
}

/** The cover page of one primary document (HTML, inline XBRL or plain text). */
export function parseCoverPage(body: string): CoverPage {
  const fromText = coverFromText(body);
  if (!hasInlineXbrl(body)) return fromText;
  const { facts, contexts } = readDeiFacts(body);
  if (!facts.length) return fromText;
  const cover = coverFromFacts(facts, contexts);
  for (const field of TEXT_FILLABLE) {
    if (cover[field] == null && fromText[field] != null) {
      (cover as unknown as Record<string, unknown>)[field] = fromText[field];
      cover.fields_from_text.push(field);
    }
  }
  if (!cover.securities.length && fromText.securities.length) {
    cover.securities = fromText.securities;
    cover.fields_from_text.push('securities');
  }
  return cover;
}
