import { parseHtml, type HtmlTable, type ParsedHtml } from '../../common/html-tables/parse.ts';
import { assignRow, headerColumns, toGrid, type Grid, type LogicalColumn } from '../../common/html-tables/grid.ts';
import { parseAmount, parseYear, stripFootnotes, type Amount } from '../../common/html-tables/cells.ts';
import { looksLikePersonName, normalizePersonName, type NormalizedName } from '../../common/person-names.ts';
import { classifyTable, sectionOf, titleSaysDirector, titleSaysOfficer, type Classified, type ColumnRole } from './classify.ts';
import { readPvp, type PvpYear } from './pvp.ts';

/**
 * Director/officer and compensation rows from one proxy statement's HTML. Every row records how it
 * was found (`found_in`) and a confidence built from that: a header that classified cleanly, a row whose
 * components add up to its printed total, corroboration by a second table or by the pay-versus-
 * performance XBRL. See docs/proxy-board.md for the scale and the serving floor.
 */

export const CONFIDENCE_FLOOR = 0.5;

export interface PersonSighting {
  printed: string;
  name: NormalizedName;
  title: string | null;
  isDirector: boolean | null;
  isOfficer: boolean | null;
  isIndependent: boolean | null;
  age: number | null;
  directorSince: number | null;
  officerSince: number | null;
  confidence: number;
  source: string;
}

export interface ProxyPerson extends Omit<PersonSighting, 'source'> {
  foundIn: string[];
}

export interface CompensationRow {
  tableKind: 'summary_compensation' | 'director_compensation' | 'fund_compensation';
  printed: string;
  name: NormalizedName;
  title: string | null;
  fiscalYear: number | null;
  salary: number | null;
  bonus: number | null;
  stockAwards: number | null;
  optionAwards: number | null;
  nonEquityIncentive: number | null;
  pensionDeferred: number | null;
  otherComp: number | null;
  feesCash: number | null;
  aggregateComp: number | null;
  total: number | null;
  /** Components add up to the printed total (±$5 rounding); null when there is nothing to check. */
  totalChecks: boolean | null;
  pvpVerified: boolean;
  isDirector: boolean;
  confidence: number;
  source: string;
}

export interface ProxyExtraction {
  people: ProxyPerson[];
  compensation: CompensationRow[];
  /** Fiscal year the statement covers (latest SCT year, PvP period, or "year ended" in the text). */
  fiscalYear: number | null;
  pvp: PvpYear[];
  /** Inline-XBRL dei cover facts (`dei:EntityCentralIndexKey` …) for documents without an SEC header. */
  dei: { name: string; text: string }[];
  tablesSeen: number;
  tablesUsed: number;
}

const clamp = (n: number) => Math.round(Math.max(0, Math.min(1, n)) * 100) / 100;

/** Rows at the top that describe columns rather than hold data. */
function headerRowsOf(grid: Grid): number[] {
  const rows: number[] = [];
  for (let r = 0; r < Math.min(grid.length, 6); r++) {
    const texts = new Set<string>();
    for (const s of grid[r]) if (s && !s.spanned && s.cell.text.trim()) texts.add(s.cell.text.trim());
    const all = [...texts];
    if (all.length === 0) {
      if (rows.length) continue;
      else continue;
    }
    const dataLike = all.some((t) => {
      const a = parseAmount(t);
      return (a.kind === 'number' && Math.abs(a.value ?? 0) >= 100) || parseYear(t) !== null || /^age:?\s*\d{2}$/i.test(t);
    });
    const nameLike = all.some((t) => looksLikePersonName(t.split('\n')[0]));
    if (rows.length && all.length === 1 && sectionOf(all[0])) break;
    if (dataLike || (nameLike && rows.length)) break;
    rows.push(r);
  }
  return rows;
}

function nameAndTitle(cellText: string): { printed: string; title: string | null; age: number | null; rest: string[] } | null {
  const lines = cellText
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (!lines.length) return null;
  let age: number | null = null;
  const rest: string[] = [];
  const keep: string[] = [];
  for (const l of lines) {
    const m = l.match(/^age:?\s*(\d{2,3})\b/i);
    if (m) age = Number(m[1]);
    else keep.push(l);
  }
  if (!keep.length) return null;
  let printed = stripFootnotes(keep[0]);
  let i = 1;
  // Names broken over two lines ("Sue" / "H. Rataj").
  if (!looksLikePersonName(printed) && keep[1] && looksLikePersonName(`${printed} ${stripFootnotes(keep[1])}`)) {
    printed = `${printed} ${stripFootnotes(keep[1])}`;
    i = 2;
  }
  let title: string | null = null;
  if (!looksLikePersonName(printed)) {
    // "Arvind Krishna, Chairman of the Board, President and Chief Executive Officer (1)".
    const m = printed.match(/^([^,]+?(?:,\s*(?:Jr|Sr|II|III|IV)\.?)?),\s*(.+)$/);
    if (m && looksLikePersonName(m[1])) {
      printed = m[1];
      title = stripFootnotes(m[2]);
    } else return null;
  }
  for (const l of keep.slice(i)) {
    // Address lines under the name (fund proxies print "Name, Address and Age").
    if (/\d{5}|\bstreet\b|\bsuite\b|\bavenue\b|\broad\b|^c\/o\b|p\.?o\.? box/i.test(l)) continue;
    if (/^\(nominee|^\(retir/i.test(l)) continue;
    rest.push(stripFootnotes(l));
  }
  if (!title && rest.length) title = rest.join(' ');
  return { printed, title, age, rest };
}

function yearFromSince(text: string, preferBoard: boolean): number | null {
  if (preferBoard) {
    const m = text.match(/(?:member of the board|director|trustee)[^:;]*:\s*(?:[A-Za-z]+\.?\s+)?((?:19|20)\d{2})/i);
    if (m) return Number(m[1]);
  }
  const all = [...text.matchAll(/\b((?:19|20)\d{2})\b/g)].map((m) => Number(m[1]));
  return all.length ? Math.min(...all) : null;
}

function precedingText(parsed: ParsedHtml, table: HtmlTable, n = 6): string {
  return parsed.lines.slice(Math.max(0, table.lineStart - n), table.lineStart).join(' ');
}

function valueOfRole(values: string[], roles: (ColumnRole | null)[], role: ColumnRole): string | null {
  const i = roles.indexOf(role);
  return i >= 0 ? values[i] : null;
}

function extractPeopleTable(parsed: ParsedHtml, table: HtmlTable, grid: Grid, header: number[], cols: LogicalColumn[], cls: Classified): PersonSighting[] {
  const context = `${precedingText(parsed, table)} ${cols.map((c) => c.label).join(' ')}`;
  const officersTable =
    (/executive officers/i.test(context) && !/director|nominee|trustee/i.test(cols.map((c) => c.label).join(' '))) || cls.roles.includes('officer_since');
  const out: PersonSighting[] = [];
  let section: ReturnType<typeof sectionOf> = null;
  const nameCol = cls.roles.indexOf('name');
  for (let r = (header[header.length - 1] ?? -1) + 1; r < grid.length; r++) {
    const { values, nearMisses } = assignRow(grid, r, cols);
    let nameText = nameCol >= 0 ? values[nameCol] : '';
    // Names sit left of the first labelled column when the name header is blank (IBM layout).
    const firstSlot = grid[r].find((s) => s?.cell.text.trim());
    const rawName = firstSlot ? firstSlot.cell.text : '';
    if (nameCol < 0 || !nameText) nameText = rawName;
    const nonEmpty = values.filter(Boolean).length;
    if (nonEmpty <= 1 && rawName) {
      const sec = sectionOf(rawName);
      if (sec) {
        section = sec;
        continue;
      }
    }
    const nt = nameAndTitle(nameCol >= 0 ? rawName : nameText);
    if (!nt) continue;
    const name = normalizePersonName(nt.printed);
    if (!name?.first) continue;
    const position = valueOfRole(values, cls.roles, 'position');
    const title = position ? stripFootnotes(position.replace(/\s+/g, ' ')) : nt.title;
    const ageText = valueOfRole(values, cls.roles, 'age');
    let age = nt.age;
    if (ageText) {
      const m = ageText.match(/^\s*(\d{2,3})\b/);
      if (m) age = Number(m[1]);
    }
    if (age !== null && (age < 18 || age > 110)) age = null;
    const sinceText = valueOfRole(values, cls.roles, 'director_since') ?? valueOfRole(values, cls.roles, 'term');
    const officerSinceText = valueOfRole(values, cls.roles, 'officer_since');
    const isDirector = officersTable ? titleSaysDirector(title) : true;
    const isOfficer = officersTable || titleSaysOfficer(title) || section?.officers === true;
    let isIndependent: boolean | null = section?.independent ?? null;
    if (title && /independent/i.test(title)) isIndependent = true;
    if (isIndependent === null && isOfficer && !officersTable) isIndependent = false;
    let conf = 0.55 + 0.3 * cls.score;
    if (age !== null) conf += 0.05;
    if (title) conf += 0.05;
    if (nearMisses) conf -= 0.1;
    out.push({
      printed: nt.printed,
      name,
      title: title || null,
      isDirector,
      isOfficer,
      isIndependent: isDirector ? isIndependent : null,
      age,
      directorSince: isDirector && sinceText ? yearFromSince(sinceText, true) : null,
      officerSince: officerSinceText ? yearFromSince(officerSinceText, false) : null,
      confidence: clamp(conf),
      source: `people_table#${table.index}`,
    });
  }
  return out;
}

const COMPONENTS: [ColumnRole, keyof CompensationRow][] = [
  ['salary', 'salary'],
  ['bonus', 'bonus'],
  ['stock', 'stockAwards'],
  ['option', 'optionAwards'],
  ['non_equity', 'nonEquityIncentive'],
  ['pension', 'pensionDeferred'],
  ['other', 'otherComp'],
  ['fees', 'feesCash'],
  ['aggregate', 'aggregateComp'],
  ['total', 'total'],
];

function extractCompTable(
  table: HtmlTable,
  grid: Grid,
  header: number[],
  cols: LogicalColumn[],
  cls: Classified,
): { rows: CompensationRow[]; people: PersonSighting[] } {
  const kind = cls.kind as CompensationRow['tableKind'];
  const rows: CompensationRow[] = [];
  const people: PersonSighting[] = [];
  const nameCol = cls.roles.indexOf('name');
  let section: ReturnType<typeof sectionOf> =
    kind === 'director_compensation' ? { independent: null, directors: true, officers: null } : sectionOf(cols[nameCol]?.label ?? '');
  let current: { printed: string; name: NormalizedName; title: string | null } | null = null;
  for (let r = (header[header.length - 1] ?? -1) + 1; r < grid.length; r++) {
    const { values, nearMisses, orphans } = assignRow(grid, r, cols);
    const nameSlot = grid[r][cols[nameCol].from];
    const nameText = nameSlot && !nameSlot.spanned ? nameSlot.cell.text : '';
    const amounts = new Map<ColumnRole, Amount>();
    cls.roles.forEach((role, i) => {
      if (role && role !== 'name' && role !== 'position' && role !== 'year') amounts.set(role, parseAmount(values[i]));
    });
    const numeric = [...amounts.values()].filter((a) => a.kind === 'number' || a.kind === 'dash').length;
    if (numeric === 0) {
      const sec = nameText ? sectionOf(nameText) : null;
      if (sec) section = sec;
      continue;
    }
    let carried = false;
    if (nameText) {
      const nt = nameAndTitle(nameText);
      const name = nt ? normalizePersonName(nt.printed) : null;
      if (!nt || !name?.first) {
        current = null;
        continue;
      }
      const position = valueOfRole(values, cls.roles, 'position');
      current = { printed: nt.printed, name, title: position ? stripFootnotes(position) : nt.title };
    } else {
      // Multi-year rows: the name cell spans the person's rows (rowspan) or is left blank below the first.
      carried = !nameSlot?.spanned;
    }
    if (!current) continue;
    const yearText = valueOfRole(values, cls.roles, 'year');
    const fiscalYear = yearText ? parseYear(yearText) : null;
    const row: CompensationRow = {
      tableKind: kind,
      printed: current.printed,
      name: current.name,
      title: current.title,
      fiscalYear,
      salary: null,
      bonus: null,
      stockAwards: null,
      optionAwards: null,
      nonEquityIncentive: null,
      pensionDeferred: null,
      otherComp: null,
      feesCash: null,
      aggregateComp: null,
      total: null,
      totalChecks: null,
      pvpVerified: false,
      isDirector: kind === 'director_compensation' || section?.directors === true,
      confidence: 0,
      source: `${kind}#${table.index}`,
    };
    let badCells = 0;
    for (const [role, key] of COMPONENTS) {
      const a = amounts.get(role);
      if (!a) continue;
      if (a.kind === 'text') badCells++;
      (row as unknown as Record<string, number | null>)[key] = a.value;
    }
    const parts = [
      row.salary,
      row.bonus,
      row.stockAwards,
      row.optionAwards,
      row.nonEquityIncentive,
      row.pensionDeferred,
      row.otherComp,
      row.feesCash,
      row.aggregateComp,
    ];
    const present = parts.filter((v): v is number => v !== null);
    if (row.total === null && kind === 'fund_compensation' && row.aggregateComp !== null) {
      // Fund proxies print N/A in the fund-complex total for officers; the company's aggregate is their total.
      row.total = row.aggregateComp + (row.pensionDeferred ?? 0);
    } else if (row.total !== null && present.length >= 1) {
      row.totalChecks = Math.abs(present.reduce((s, v) => s + v, 0) - row.total) <= 5;
    }
    let conf = 0.45 + 0.2 * cls.score;
    if (row.totalChecks === true) conf += 0.3;
    if (row.totalChecks === false) conf -= 0.25;
    if (row.total === null) conf -= 0.2;
    if (kind === 'summary_compensation' && fiscalYear === null) conf -= 0.25;
    if (carried) conf -= 0.05;
    conf -= 0.15 * badCells + 0.05 * Math.min(2, nearMisses) + 0.1 * Math.min(2, orphans);
    row.confidence = clamp(conf);
    rows.push(row);
    if (!carried && !nameSlot?.spanned) {
      people.push({
        printed: current.printed,
        name: current.name,
        title: current.title,
        isDirector: row.isDirector ? true : titleSaysDirector(current.title) || null,
        isOfficer: kind === 'summary_compensation' || (!row.isDirector && kind === 'fund_compensation') || titleSaysOfficer(current.title),
        isIndependent: row.isDirector ? (section?.independent ?? null) : null,
        age: null,
        directorSince: null,
        officerSince: null,
        confidence: clamp(0.45 + 0.3 * cls.score),
        source: `${kind}#${table.index}`,
      });
    }
  }
  return { rows, people };
}

/**
 * Director "cards" laid out as labelled text (often outside any table): a name, optional role lines,
 * `Director Since: 2018`, `Age: 65`, `Independent`. Read from the document's block lines.
 */
function extractBioCards(parsed: ParsedHtml): PersonSighting[] {
  const out: PersonSighting[] = [];
  const lines = parsed.lines;
  const sinceRe = /^director since:?\s*((?:19|20)\d{2})\b/i;
  const cardIdx = lines.flatMap((l, i) => (sinceRe.test(l) ? [i] : []));
  if (cardIdx.length < 2) return out;
  let anyIndependent = false;
  const cards = cardIdx.map((i, k) => {
    let name: string | null = null;
    const roles: string[] = [];
    for (let j = i - 1; j >= Math.max(0, i - 5) && !name; j--) {
      const l = stripFootnotes(lines[j]);
      if (looksLikePersonName(l)) {
        name = l;
        break;
      }
      // "Michael M. Morrow Non-Executive" / "Chair of the Board": a role that starts on the name's line.
      const glued = l.match(/^(.+?)\s+((?:Non-Executive|Executive|Lead|Independent|Vice)\b.*)$/);
      if (glued && looksLikePersonName(glued[1])) {
        name = glued[1];
        roles.unshift(glued[2]);
        break;
      }
      const prev = j > 0 ? stripFootnotes(lines[j - 1]) : '';
      // A name broken over two lines, but never a whole name glued to the role line after it.
      if (prev && !looksLikePersonName(prev) && looksLikePersonName(`${prev} ${l}`)) {
        name = `${prev} ${l}`;
        break;
      }
      if (/^\(?nominee/i.test(l)) continue;
      if (l.length < 60 && !/[.:]$/.test(l)) roles.unshift(l);
      else break;
    }
    let age: number | null = null;
    let independent = false;
    const stop = cardIdx[k + 1] ?? lines.length;
    for (let j = i + 1; j < Math.min(stop, i + 12); j++) {
      const l = lines[j];
      const m = l.match(/^age:?\s*(\d{2,3})$/i);
      if (m) age = Number(m[1]);
      if (/^independent$/i.test(l)) independent = true;
      if (/^business experience|^other public|^qualifications/i.test(l)) break;
    }
    if (independent) anyIndependent = true;
    return { name, roles, age, independent, since: Number(lines[i].match(sinceRe)![1]) };
  });
  for (const c of cards) {
    if (!c.name) continue;
    const name = normalizePersonName(c.name);
    if (!name?.first) continue;
    const title = c.roles.filter((r) => !/^\(/.test(r)).join(' ') || null;
    out.push({
      printed: c.name,
      name,
      title,
      isDirector: true,
      isOfficer: titleSaysOfficer(title) || null,
      isIndependent: anyIndependent ? c.independent : null,
      age: c.age !== null && c.age >= 18 && c.age <= 110 ? c.age : null,
      directorSince: c.since,
      officerSince: null,
      confidence: clamp(0.7 + (c.age !== null ? 0.1 : 0)),
      source: 'bio_card',
    });
  }
  return out;
}

/** One row per person: sightings of the same normalized name are merged, corroboration raises confidence. */
function mergePeople(sightings: PersonSighting[]): ProxyPerson[] {
  const byKey = new Map<string, PersonSighting[]>();
  for (const s of sightings) {
    const list = byKey.get(s.name.key) ?? [];
    list.push(s);
    byKey.set(s.name.key, list);
  }
  const priority = (s: PersonSighting) => (s.source.startsWith('people_table') ? 0 : s.source === 'bio_card' ? 1 : s.source.startsWith('summary') ? 2 : 3);
  return [...byKey.values()].map((list) => {
    list.sort((a, b) => priority(a) - priority(b));
    const pick = <K extends keyof PersonSighting>(k: K) => list.find((s) => s[k] !== null && s[k] !== undefined)?.[k] ?? null;
    const sources = [...new Set(list.map((s) => s.source.replace(/#\d+$/, '')))];
    const best = Math.max(...list.map((s) => s.confidence));
    const isDirector = list.some((s) => s.isDirector === true);
    // The fullest printed form ("Parker A. Weil" over "Parker Weil") is kept as the display name.
    const printed = [...list].sort((a, b) => b.printed.length - a.printed.length)[0].printed;
    const titled = list.find((s) => s.title && s.source.startsWith('summary')) ?? list.find((s) => s.title);
    return {
      printed,
      name: normalizePersonName(printed) ?? list[0].name,
      title: titled?.title ?? null,
      isDirector,
      isOfficer: list.some((s) => s.isOfficer === true),
      isIndependent: isDirector ? (pick('isIndependent') as boolean | null) : null,
      age: pick('age') as number | null,
      directorSince: pick('directorSince') as number | null,
      officerSince: pick('officerSince') as number | null,
      confidence: clamp(best + 0.05 * (sources.length - 1)),
      foundIn: [...new Set(list.map((s) => s.source))],
    };
  });
}

function fiscalYearFromText(lines: string[]): number | null {
  const counts = new Map<number, number>();
  for (const l of lines) {
    for (const m of l.matchAll(/(?:fiscal )?year ended\s+(?:[A-Z][a-z]+\.? \d{1,2},?\s+)?((?:19|20)\d{2})/gi)) {
      counts.set(Number(m[1]), (counts.get(Number(m[1])) ?? 0) + 1);
    }
  }
  let best: number | null = null;
  for (const [y, n] of counts) if (best === null || n > (counts.get(best) ?? 0) || (n === counts.get(best) && y > best)) best = y;
  return best;
}

export function extractProxy(html: string): ProxyExtraction {
  const parsed = parseHtml(html);
  const sightings: PersonSighting[] = [];
  const compensation: CompensationRow[] = [];
  let used = 0;
  for (const table of parsed.tables) {
    if (table.rows.length < 2) continue;
    const grid = toGrid(table);
    const header = headerRowsOf(grid);
    if (!header.length) continue;
    const cols = headerColumns(grid, header);
    const cls = classifyTable(cols);
    if (!cls) continue;
    used++;
    if (cls.kind === 'people') {
      sightings.push(...extractPeopleTable(parsed, table, grid, header, cols, cls));
    } else {
      const { rows, people } = extractCompTable(table, grid, header, cols, cls);
      compensation.push(...rows);
      sightings.push(...people);
    }
  }
  sightings.push(...extractBioCards(parsed));
  const pvp = readPvp(parsed);
  for (const p of pvp) {
    // The PvP table repeats the PEO's SCT total per year: an exact match confirms the row and its year.
    const match = compensation.find(
      (c) =>
        c.tableKind === 'summary_compensation' &&
        c.total === p.peoTotal &&
        (c.fiscalYear === p.fiscalYear || c.fiscalYear === p.fiscalYear - 1) &&
        (!p.peoNameKey || c.name.key === p.peoNameKey),
    );
    if (match) {
      match.pvpVerified = true;
      match.confidence = clamp(match.confidence + 0.1);
    }
  }
  const sctYears = compensation.filter((c) => c.tableKind === 'summary_compensation' && c.fiscalYear).map((c) => c.fiscalYear!);
  const fiscalYear = sctYears.length ? Math.max(...sctYears) : pvp.length ? Math.max(...pvp.map((p) => p.fiscalYear)) : fiscalYearFromText(parsed.lines);
  for (const c of compensation) if (c.fiscalYear === null && c.tableKind !== 'summary_compensation') c.fiscalYear = fiscalYear;
  return {
    people: mergePeople(sightings),
    compensation,
    fiscalYear,
    pvp,
    dei: parsed.facts.filter((f) => f.name.startsWith('dei:')),
    tablesSeen: parsed.tables.length,
    tablesUsed: used,
  };
}
