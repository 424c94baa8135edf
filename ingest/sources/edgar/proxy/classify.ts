import type { LogicalColumn } from '../../common/html-tables/grid.ts';

/** Column roles recognised in director/officer and compensation tables, by header wording. */
export type ColumnRole =
  | 'name'
  | 'year'
  | 'salary'
  | 'bonus'
  | 'stock'
  | 'option'
  | 'non_equity'
  | 'pension'
  | 'other'
  | 'fees'
  | 'aggregate'
  | 'total'
  | 'position'
  | 'age'
  | 'director_since'
  | 'officer_since'
  | 'term';

const RULES: [ColumnRole, RegExp][] = [
  ['name', /\bname\b|^executive officers?$|^(independent |interested |non-employee )?directors?$|^officers?$/i],
  ['year', /^(fiscal\s+)?year$|^fiscal year$/i],
  ['salary', /salary/i],
  ['non_equity', /non-?\s*equity/i],
  ['bonus', /\bbonus/i],
  ['stock', /stock\s*awards?/i],
  ['option', /option\s*awards?|^options?\b/i],
  ['pension', /pension|nonqualified deferred/i],
  ['other', /all other/i],
  ['fees', /fees earned|paid in cash/i],
  ['aggregate', /aggregate compensation/i],
  ['total', /^total\b/i],
  ['director_since', /director since|board since|served since/i],
  ['officer_since', /officer since|executive officer since/i],
  ['term', /term of office|length of time served|term expires/i],
  ['age', /(^|\W)age(\W|$)/i],
  ['position', /position|title|office held|principal occupation/i],
];

/** Tables that name people but are not director/officer or compensation tables. */
const NOT_OURS = new RegExp(
  [
    'beneficial|percent(age)? of|number of shares|shares owned|dollar range|grant date',
    '|exercis|vest|plan name|credited service|contributions in last|balance at',
    '|threshold|target|unearned|pay ratio|actually paid|exchange|trading symbol',
    String.raw`|title of each class|\bdate\b|signature`,
  ].join(''),
  'i',
);

function columnRole(label: string): ColumnRole | null {
  const l = label
    .replace(/\(\$\)|\(#\)|\$/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  for (const [role, re] of RULES) if (re.test(l)) return role;
  return null;
}

export type TableKind = 'summary_compensation' | 'director_compensation' | 'fund_compensation' | 'people';

export interface Classified {
  kind: TableKind;
  roles: (ColumnRole | null)[];
  /** 0–1: how unambiguous the header was (feeds every row's confidence). */
  score: number;
}

export function classifyTable(cols: LogicalColumn[]): Classified | null {
  if (cols.length < 2) return null;
  const labels = cols.map((c) => c.label);
  if (labels.some((l) => NOT_OURS.test(l))) return null;
  const roles = labels.map(columnRole);
  // A "Name and Principal Position" column is the name column, not a position column.
  const has = (r: ColumnRole) => roles.includes(r);
  const nameIdx = roles.indexOf('name');
  const comp = ['salary', 'bonus', 'stock', 'option', 'non_equity', 'pension', 'other'].filter((r) => has(r as ColumnRole)).length;
  if (nameIdx >= 0 && has('year') && has('total') && has('salary') && comp >= 2) {
    return { kind: 'summary_compensation', roles, score: comp >= 4 ? 1 : 0.9 };
  }
  if (nameIdx >= 0 && has('fees') && has('total') && !has('year')) {
    return { kind: 'director_compensation', roles, score: 1 };
  }
  if (nameIdx >= 0 && has('aggregate')) {
    return { kind: 'fund_compensation', roles, score: has('total') ? 1 : 0.9 };
  }
  const personCols = ['age', 'position', 'director_since', 'officer_since', 'term'].filter((r) => has(r as ColumnRole)).length;
  if (comp === 0 && !has('total') && personCols >= 1 && (nameIdx >= 0 || has('age'))) {
    // IBM-style tables leave the name column's header blank; the age column then anchors the layout.
    return { kind: 'people', roles, score: nameIdx >= 0 ? (personCols >= 2 ? 1 : 0.9) : 0.8 };
  }
  return null;
}

const OFFICER_TITLE = /chief|president|\bofficer\b|treasurer|secretary|controller|general counsel|\bceo\b|\bcfo\b|\bcoo\b|portfolio manager|head of/i;
const DIRECTOR_TITLE = /\bdirector\b|chair(man|woman|person)?\b|\btrustee\b|board member|lead director/i;

export function titleSaysOfficer(title: string | null): boolean {
  return !!title && OFFICER_TITLE.test(title.replace(/vice chair(man)?/i, ''));
}

export function titleSaysDirector(title: string | null): boolean {
  if (title) title = title.replace(/vice[- ]chair(man|woman|person)?/gi, '');
  return (
    !!title && DIRECTOR_TITLE.test(title) && !/managing director|director of\b|director,? (?!and)/i.test(title.replace(/independent director/i, 'director'))
  );
}

/** Section rows inside tables ("Independent Directors", "Interested Directors", "Executive Officers"). */
export function sectionOf(text: string): { independent: boolean | null; directors: boolean | null; officers: boolean | null } | null {
  const t = text
    .replace(/[:()\d]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (t.length > 60 || !/director|trustee|officer|nominee|management/i.test(t)) return null;
  const independent =
    /interested|non-independent|not independent|management director|employee director(?!s? who are not)/i.test(t) && !/non-employee/i.test(t)
      ? false
      : /independent|non-employee|disinterested/i.test(t)
        ? true
        : null;
  return {
    independent,
    directors: /director|trustee|nominee/i.test(t) ? true : null,
    officers: /officer/i.test(t) && !/director/i.test(t) ? true : null,
  };
}
